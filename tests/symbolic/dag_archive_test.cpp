// The execution cache's DAG format: a DAG written from one store and read into another (that
// already holds other nodes) is the same DAG — same printed form, same taints, shared inputs —
// and malformed bytes are refused, never interned.
#include <gtest/gtest.h>

#include "engine/symbolic/dag_archive.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::symbolic {
namespace {

struct Sample {
  ExprId chain = kNoExpr, bits = kNoExpr, select = kNoExpr;
};

// A reduction chain of appended links over inputs, a constant and a parameter; an opaque
// integer operation with an empty operand slot; an extract whose second slot is a width.
Sample build(ExprStore& s) {
  const uint32_t a = s.add_array_name("A"), b = s.add_array_name("B");
  const ExprId alpha = s.param(s.add_param_name("alpha"));
  ExprId acc = s.constant(Rational(3, 7));
  for (uint32_t k = 0; k < 40; ++k)
    acc = s.append(Node{Op::Fma, 0, 0, s.input(a, k), s.input(b, k * 3), acc});
  Sample out;
  out.chain = s.intern(Node{Op::Mul, 0, 0, alpha, acc, 0});
  const ExprId word = s.intern(Node{Op::FloatBits, 2, 0, s.input(a, 1), 0, 0});
  const ExprId popc = s.intern(
      Node{Op::BitOp, static_cast<uint8_t>(BitOpKind::Popc) | (2 << 5), 0, word, kNoExpr, kNoExpr});
  out.bits = s.intern(Node{Op::Extract, 3, 0, popc, 8, 0});
  const ExprId cmp =
      s.intern(Node{Op::Cmp, static_cast<uint8_t>(CmpKind::Lt), 0, s.input(b, 2), s.pos_inf(), 0});
  out.select = s.intern(Node{Op::Select, 0, 0, cmp, out.chain, s.undef(12)});
  return out;
}

TEST(DagArchive, RoundTripIntoAStoreWithOtherNodes) {
  ExprStore from;
  const Sample sample = build(from);
  DagWriter writer(from);
  for (ExprId root : {sample.chain, sample.bits, sample.select})
    ASSERT_TRUE(writer.add(root));
  const uint32_t chain = writer.local(sample.chain);
  const uint32_t bits = writer.local(sample.bits);
  const uint32_t select = writer.local(sample.select);
  ByteWriter out;
  writer.write(out);

  ExprStore to;
  // Other nodes first, with the arrays registered in the other order: ids differ.
  to.add_array_name("B");
  to.add_array_name("A");
  const ExprId other = to.intern(Node{Op::Add, 0, 0, to.input(1, 5), to.constant(2), 0});
  DagReader reader;
  ByteReader in(out.bytes());
  reader.read(in, to);
  for (auto [local, original] : {std::pair{chain, sample.chain}, std::pair{bits, sample.bits},
                                 std::pair{select, sample.select}}) {
    const ExprId id = reader.id(local);
    EXPECT_EQ(to_sexpr(to, id), to_sexpr(from, original));
    EXPECT_EQ(to.taint(id), from.taint(original));
  }
  // Equal subterms are one node: interning what was read finds it; the node interned before
  // reading is untouched; appended links are appended again.
  EXPECT_EQ(to.intern(to.node(reader.id(bits))), reader.id(bits));
  EXPECT_EQ(to_sexpr(to, other), "(+ A[5] 2)");
  EXPECT_EQ(to.node(reader.id(chain)).taint & kTransient, kTransient);
}

TEST(DagArchive, LimitStopsTheWalk) {
  ExprStore from;
  const Sample sample = build(from);
  DagWriter writer(from);
  EXPECT_FALSE(writer.add(sample.chain, 10)) << "the chain alone has 40 links";
  DagWriter unlimited(from);
  EXPECT_TRUE(unlimited.add(sample.chain));
  EXPECT_GT(unlimited.node_count(), 80u);
}

TEST(DagArchive, MalformedBytesAreRefused) {
  ExprStore from;
  const Sample sample = build(from);
  DagWriter writer(from);
  writer.add(sample.select);
  ByteWriter out;
  writer.write(out);
  const std::string bytes = out.bytes();
  // Every truncation is refused (never a crash or an out-of-range read).
  for (size_t n = 0; n < bytes.size(); n += 7) {
    ExprStore to;
    DagReader reader;
    ByteReader in(std::string_view(bytes).substr(0, n));
    EXPECT_THROW(reader.read(in, to), ByteStreamError) << n;
  }
  DagReader reader;
  ExprStore to;
  ByteReader in(bytes);
  reader.read(in, to);
  EXPECT_THROW((void)reader.id(100000), ByteStreamError);
}

} // namespace
} // namespace volta::symbolic
