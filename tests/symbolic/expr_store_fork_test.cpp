// Forks of a sealed store (entry/batch_runs.hpp keeps a kernel run for several entries): a fork
// holds every node of its base under the same ids, interning in it finds the base's nodes and
// input symbols, new nodes get ids past the base's, and nothing the fork does reaches the base or
// another fork.
#include <gtest/gtest.h>

#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::symbolic {
namespace {

// A chain long enough to fill several node chunks (2^17 nodes each), so that the fork shares
// whole chunks and copies a partial one.
constexpr uint32_t kLinks = 300'000;

struct Built {
  ExprId chain = kNoExpr, product = kNoExpr, third = kNoExpr;
};

Built build(ExprStore& s) {
  const uint32_t a = s.add_array_name("A"), b = s.add_array_name("B");
  Built out;
  ExprId acc = s.constant(Rational(3, 7));
  for (uint32_t k = 0; k < kLinks; ++k)
    acc = s.append(Node{Op::Fma, 0, 0, s.input(a, k % 5000), s.input(b, k % 700), acc});
  out.chain = acc;
  out.product = s.intern(Node{Op::Mul, 0, 0, s.input(a, 1), s.input(b, 2), 0});
  out.third = s.constant(Rational(1, 3));
  // A and B blocks read in part only: A[5000..6143] and B[700..1023] are in reserved blocks but
  // never written before seal().
  return out;
}

TEST(ExprStoreFork, AForkHoldsTheBaseUnderTheSameIds) {
  auto base = std::make_unique<ExprStore>();
  const Built built = build(*base);
  const std::string chain_text = to_sexpr(*base, built.chain, 400);
  base->seal();
  std::shared_ptr<const ExprStore> kept(std::move(base));
  auto fork = ExprStore::fork(kept);
  EXPECT_EQ(to_sexpr(*fork, built.chain, 400), chain_text);
  EXPECT_EQ(fork->node(built.product), kept->node(built.product));
  EXPECT_EQ(fork->taint(built.chain), kept->taint(built.chain));
  // Interning finds the base's nodes: hash-consing spans base and fork.
  EXPECT_EQ(fork->intern(Node{Op::Mul, 0, 0, fork->input(0, 1), fork->input(1, 2), 0}),
            built.product);
  EXPECT_EQ(fork->constant(Rational(1, 3)), built.third);
  EXPECT_EQ(fork->add_array_name("B"), 1u);
  // Input symbols of a block the base reserved, read or not by the base, are the base's ids.
  EXPECT_EQ(fork->input(0, 6000), fork->input(0, 6000));
  EXPECT_EQ(fork->op(fork->input(0, 6000)), Op::Input);
  EXPECT_EQ(fork->node(fork->input(0, 6000)).b, 6000u);
}

TEST(ExprStoreFork, ForksGrowApartAndLeaveTheBaseAlone) {
  auto base = std::make_unique<ExprStore>();
  const Built built = build(*base);
  const size_t base_size = base->size();
  base->seal();
  std::shared_ptr<const ExprStore> kept(std::move(base));
  auto one = ExprStore::fork(kept);
  auto two = ExprStore::fork(kept);
  const ExprId x =
      one->append(Node{Op::Fma, 0, 0, one->input(0, 3), one->input(1, 3), built.chain});
  const uint32_t c = two->add_array_name("C");
  EXPECT_EQ(c, 2u);
  const ExprId y = two->intern(Node{Op::Add, 0, 0, built.product, two->input(c, 0), 0});
  EXPECT_GE(x, base_size);
  EXPECT_GE(y, base_size);
  EXPECT_EQ(one->node(x).c, built.chain);
  EXPECT_EQ(two->op(y), Op::Add);
  // The base did not grow, and a node new in one fork is not in the other.
  EXPECT_EQ(kept->size(), base_size);
  EXPECT_EQ(one->array_count(), 2u) << "the other fork's third array is its own";
  EXPECT_EQ(two->array_count(), 3u);
  EXPECT_EQ(kept->array_count(), 2u);
  // The base outlives its owner while a fork holds it.
  kept.reset();
  EXPECT_EQ(to_sexpr(*one, built.product, 100), to_sexpr(*two, built.product, 100));
}

} // namespace
} // namespace volta::symbolic
