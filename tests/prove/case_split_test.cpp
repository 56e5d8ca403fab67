// Proof by cases (engine/prove/case_split.hpp) on what block-wide online softmax kernels leave:
// one select per thread, each on its own comparison, under one shared row maximum. The split
// decides each thread's term by its own two cases (not 2^threads leaves: which needs the shared
// maximum, a max chain that one case cannot decide, to keep its shape in both cases), and a
// select that is the max or min of its operands is that max or min. The end-to-end kernel is
// examples/soundness c24_online_softmax_block.
#include <gtest/gtest.h>

#include "engine/prove/case_split.hpp"
#include "engine/prove/element_prover.hpp"
#include "engine/symbolic/builder.hpp"

namespace volta::prove {
namespace {

using symbolic::CmpKind;
using symbolic::ExprId;
using symbolic::Op;
using Kind = ElementOutcome::Kind;

struct OnlineSoftmax {
  symbolic::ExprStore store;
  symbolic::Builder b{store};
  uint32_t x_array = store.add_array_name("x");
  ExprId x(uint32_t i) { return store.input(x_array, i); }
  ExprId exp(ExprId v) { return b.unary(Op::Exp, v); }

  // Thread t holds x[t] and x[t + n]. The reference sums e^(x[i] - M) over the row with M its
  // maximum by a sequential fmaxf; the online form runs `if (v > m) { s *= e^(m - v); m = v; }
  // s += e^(v - m)` over the thread's two values (merged with selects on x[t+n] <= x[t]),
  // rescales by e^(m - M) with M the max of the threads' maxima, and sums the threads.
  // `wrong_thread`: that thread forgets the rescale (s *= e^(m - v)).
  std::pair<ExprId, ExprId> sums(uint32_t n, int wrong_thread = -1) {
    ExprId row_max = x(0);
    for (uint32_t i = 1; i < 2 * n; ++i)
      row_max = b.max(row_max, x(i));
    ExprId ref = store.constant(0);
    for (uint32_t i = 0; i < 2 * n; ++i)
      ref = b.add(ref, exp(b.sub(x(i), row_max)));
    std::vector<ExprId> maxima, partial;
    for (uint32_t t = 0; t < n; ++t) {
      const ExprId first = x(t), second = x(t + n);
      const ExprId keep = b.cmp(CmpKind::Le, second, first); // not (second > first)
      const ExprId m = b.select(keep, first, second);
      const ExprId one = exp(b.sub(first, first));
      const ExprId rescaled =
          static_cast<int>(t) == wrong_thread ? one : b.mul(one, exp(b.sub(first, second)));
      const ExprId s = b.add(exp(b.sub(second, m)), b.select(keep, one, rescaled));
      maxima.push_back(m);
      partial.push_back(s);
    }
    ExprId block_max = maxima[0];
    for (uint32_t t = 1; t < n; ++t)
      block_max = b.max(block_max, maxima[t]);
    ExprId opt = store.constant(0);
    for (uint32_t t = 0; t < n; ++t)
      opt = b.add(opt, b.mul(partial[t], exp(b.sub(maxima[t], block_max))));
    return {ref, opt};
  }
  ElementOutcome prove(ExprId ref, ExprId opt) {
    ElementOptions o;
    ElementProver prover(store, o, &store); // proofs by cases rewrite into the same store
    prover.prepare({ref, opt});
    return prover.prove(ref, opt, "out[0]");
  }
};

TEST(CaseSplit, EachThreadsSelectIsDecidedByItsOwnCases) {
  // 16 threads: 16 comparisons, 2^16 leaves for one decision tree.
  OnlineSoftmax d;
  const auto [ref, opt] = d.sums(16);
  const ElementOutcome r = d.prove(ref, opt);
  EXPECT_EQ(r.kind, Kind::Equivalent) << r.reason;
  EXPECT_EQ(r.decided_by, Decision::Cases);
}

TEST(CaseSplit, OneThreadsMissingRescaleIsNotProved) {
  OnlineSoftmax d;
  for (int wrong : {0, 7, 15}) {
    const auto [ref, opt] = d.sums(16, wrong);
    const ElementOutcome r = d.prove(ref, opt);
    EXPECT_NE(r.kind, Kind::Equivalent) << "thread " << wrong << ": " << r.how();
  }
}

TEST(CaseSplit, ASelectOfItsComparedOperandsIsTheirMaxOrMin) {
  OnlineSoftmax d;
  const ExprId p = d.x(0), q = d.x(1);
  // Each select is decided with no case at all: one leaf.
  const auto by_cases = [&](ExprId ref, ExprId opt) {
    return prove_by_cases(d.store, ref, opt, [](ExprId a, ExprId b) { return a == b; });
  };
  for (CmpKind k : {CmpKind::Lt, CmpKind::Le}) {
    const ExprId c = d.b.cmp(k, p, q);
    auto r = by_cases(d.b.max(p, q), d.b.select(c, q, p));
    EXPECT_TRUE(r.equal) << r.reason;
    EXPECT_EQ(r.leaves, 1u);
    r = by_cases(d.b.min(p, q), d.b.select(c, p, q));
    EXPECT_TRUE(r.equal) << r.reason;
    // The wrong pairing is no max: two leaves, and one differs.
    r = by_cases(d.b.max(p, q), d.b.select(c, p, q));
    EXPECT_FALSE(r.equal);
  }
  for (CmpKind k : {CmpKind::Gt, CmpKind::Ge}) {
    const ExprId c = d.b.cmp(k, p, q);
    EXPECT_TRUE(by_cases(d.b.max(p, q), d.b.select(c, p, q)).equal);
    EXPECT_TRUE(by_cases(d.b.min(p, q), d.b.select(c, q, p)).equal);
  }
}

TEST(CaseSplit, NoMaxIsReadIntoASelectOnIntegerBits) {
  // The float views of integer bits may be NaN, where select(u < v, v, u) is u and max(u, v)
  // is v: the select stays a select, and the two values differ in a case.
  symbolic::ExprStore store;
  symbolic::Builder b{store};
  const uint32_t bits = store.add_array_name("u");
  store.mark_integer_array(bits);
  auto view = [&](uint32_t i) { // the float view of the u32 element: bits-float(u[i]:b32)
    const ExprId raw =
        store.intern(symbolic::Node{Op::FloatBits, 2, 0, store.input(bits, i), 0, 0});
    return b.bits_float(raw, 2);
  };
  const ExprId u = view(0), v = view(1);
  const ExprId sel = b.select(b.cmp(CmpKind::Lt, u, v), v, u);
  const auto r = prove_by_cases(store, b.max(u, v), sel, [](ExprId a, ExprId c) { return a == c; });
  EXPECT_EQ(r.leaves >= 1, true);
  ElementOptions o;
  EXPECT_NE(prove_element(store, b.max(u, v), sel, "out[0]", o).kind, Kind::Equivalent);
}

} // namespace
} // namespace volta::prove
