// The expression store's creation paths: which nodes are hash-consed and which are appended
// (a reduction's head and links, new by construction), that the engine's inline link path makes
// the node append makes, and the footprint the benchmarks report.
#include <gtest/gtest.h>
#include <vector>

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

// What a fixed sequence of creations yields: its ids, the nodes they name and whether the input
// lookup calls each an input.
struct Made {
  ExprId id;
  Node node;
  int input_array; // input_array_of(id)
  bool operator==(const Made&) const = default;
};

std::vector<Made> fixed_sequence(ExprStore& store) {
  Builder b(store);
  std::vector<ExprId> ids;
  const ExprId x = store.input(0, 3), y = store.input(2, 70'000);
  ids.push_back(x);
  ids.push_back(y);
  ids.push_back(store.constant(symbolic::Rational(7, 3)));
  ids.push_back(b.add(x, y));
  ids.push_back(b.add(x, y));
  ids.push_back(b.fma(x, y, store.constant(5L)));
  std::vector<Made> seen;
  for (ExprId id : ids)
    seen.push_back(Made{id, store.node(id), store.input_array_of(id)});
  return seen;
}

// A store takes the tables a destroyed store gave back (emptied only where that store wrote):
// it must see none of the old store's nodes, inputs, constants or hash-consed entries.
TEST(ExprStore, AStoreOnReusedTablesIsAFreshStore) {
  std::vector<Made> first;
  {
    ExprStore store;
    first = fixed_sequence(store);
  }
  ASSERT_EQ(first.size(), 6u);
  EXPECT_EQ(first[0].input_array, 0);
  EXPECT_EQ(first[1].input_array, 2);
  EXPECT_EQ(first[3].input_array, -1);
  EXPECT_EQ(first[3].id, first[4].id); // hash-consed
  {
    ExprStore filled; // past two node chunks, with inputs of many blocks and many constants
    Builder b(filled);
    ExprId acc = filled.input(1, 0);
    for (uint32_t i = 1; i < 300'000; ++i)
      acc = b.add(b.mul(filled.input(1 + i % 3, i), filled.constant(static_cast<long>(i))), acc);
    EXPECT_GT(filled.size(), size_t{2} << 17);
  }
  ExprStore reused;
  const ExprStore::Footprint empty = reused.footprint();
  EXPECT_EQ(empty.node_bytes, ExprStore().footprint().node_bytes); // one chunk, as a fresh one
  EXPECT_EQ(fixed_sequence(reused), first);
  EXPECT_EQ(reused.size(), size_t{4} * 1024); // the blocks of two inputs and one stream
}

} // namespace
} // namespace volta::etest
