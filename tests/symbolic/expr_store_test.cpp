// The expression store's creation paths: which nodes are hash-consed and which are appended
// (a reduction's head and links, new by construction), that the engine's inline link path makes
// the node append makes, and the footprint the benchmarks report.
#include <gtest/gtest.h>

#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::etest {
namespace {

using symbolic::Builder;
using symbolic::ExprId;
using symbolic::ExprStore;
using symbolic::kNoExpr;
using symbolic::Node;
using symbolic::Op;

bool transient(const ExprStore& s, ExprId id) {
  return (s.taint(id) & symbolic::kTransient) != 0;
}

TEST(ExprStore, AReductionsHeadIsAppendedAndAScaledValueIsShared) {
  ExprStore store;
  Builder b(store);
  const ExprId q = store.input(0, 0), k = store.input(1, 0);
  const ExprId zero = store.constant(0L), two = store.constant(2L), one = store.constant(1L);
  // fma(q, k, 0): a product of two data onto a constant starts a reduction: appended, so the
  // same head twice is two nodes (equal as terms, not as ids).
  const ExprId head = b.fma(q, k, zero);
  const ExprId again = b.fma(q, k, zero);
  EXPECT_TRUE(transient(store, head));
  EXPECT_NE(head, again);
  EXPECT_EQ(store.node(head).op, Op::Fma);
  EXPECT_EQ(store.node(head).a, q);
  EXPECT_EQ(store.node(head).c, zero);
  // A link onto it is appended as well.
  EXPECT_TRUE(transient(store, b.fma(q, k, head)));
  // fma(q, 2, 1) scales one datum: looked up, so both kernels' copies are one node.
  const ExprId scaled = b.fma(q, two, one);
  EXPECT_FALSE(transient(store, scaled));
  EXPECT_EQ(scaled, b.fma(q, two, one));
  // Three constants fold.
  EXPECT_TRUE(store.is_const(b.fma(two, two, one)));
}

TEST(ExprStore, TheInlineLinkIsTheNodeAppendMakes) {
  ExprStore store;
  const ExprId x = store.input(0, 1), u = store.undef(7);
  const ExprId sum = store.append(Node{Op::Add, 0, 0, x, x, kNoExpr});
  ExprStore::Stream stream;
  const Node n{Op::Fma, 0, 0, x, u, sum};
  const uint16_t children =
      static_cast<uint16_t>(store.taint(x) | store.taint(u) | store.taint(sum));
  const ExprId link = store.append_link(n, children, stream);
  const ExprId appended = store.append(n);
  EXPECT_EQ(store.node(link), store.node(appended));
  EXPECT_EQ(store.taint(link), store.taint(appended));
  EXPECT_TRUE(store.taint(link) & symbolic::kTaintUndef);
  EXPECT_TRUE(transient(store, link));
  EXPECT_EQ(store.op(link), Op::Fma);
}

TEST(ExprStore, TheFootprintCountsChunksAndTable) {
  ExprStore store;
  Builder b(store);
  const ExprStore::Footprint empty = store.footprint();
  EXPECT_GT(empty.node_bytes, 0u); // the first chunk exists from the start
  ExprId acc = b.mul(store.input(0, 0), store.input(1, 0));
  constexpr uint32_t kNodes = 300'000; // more than two chunks of 131072 ids
  for (uint32_t i = 1; i < kNodes; ++i)
    acc = b.fma(store.input(0, i), store.input(1, i), acc);
  const ExprStore::Footprint f = store.footprint();
  EXPECT_GE(f.ids, size_t{kNodes});
  // 16 bytes a node and 4 of meta, for every id handed out.
  EXPECT_GE(f.node_bytes, f.ids * 20);
  EXPECT_LE(f.node_bytes, (f.ids + (size_t{1} << 17)) * 20);
  EXPECT_GT(f.table_bytes, 0u);
}

} // namespace
} // namespace volta::etest
