// The sign analysis (engine/symbolic/sign_analysis.hpp) and the refinement check of domain
// conditions (engine/prove/domain_conditions.hpp) on hand-built DAGs. The end-to-end kernels
// are in examples/soundness (category 13-domains).
#include <gtest/gtest.h>

#include "engine/prove/case_split.hpp"
#include "engine/prove/counterexample_search.hpp"
#include "engine/prove/domain_conditions.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/sign_analysis.hpp"

namespace volta::prove {
namespace {

using symbolic::CmpKind;
using symbolic::ExprId;
using symbolic::Op;

struct Dag {
  symbolic::ExprStore store;
  symbolic::Builder b{store};
  uint32_t x_array = store.add_array_name("x");
  ExprId x(uint32_t i) { return store.input(x_array, i); }
  ExprId c(long v) { return store.constant(v); }
};

TEST(SignAnalysis, ExponentialsSquaresAndSums) {
  Dag d;
  symbolic::SignAnalysis s(d.store);
  const ExprId e0 = d.b.unary(Op::Exp, d.x(0)), e1 = d.b.unary(Op::Exp, d.x(1));
  EXPECT_TRUE(s.positive(e0));
  EXPECT_TRUE(s.positive(d.b.add(e0, e1)));
  const ExprId diff = d.b.sub(d.x(0), d.x(1));
  EXPECT_FALSE(s.nonnegative(diff));
  EXPECT_TRUE(s.nonnegative(d.b.mul(diff, diff)));
  EXPECT_FALSE(s.positive(d.b.mul(diff, diff)));
  EXPECT_TRUE(s.positive(d.b.add(d.b.mul(diff, diff), d.c(1))));
  EXPECT_TRUE(s.positive(d.b.fma(diff, diff, d.c(1))));
  EXPECT_TRUE(s.positive(d.b.max(d.x(2), e0)));
  EXPECT_FALSE(s.positive(d.b.min(d.x(2), e0)));
  // e^(-inf) is 0: a sum of exponentials of masked scores may be 0.
  const ExprId masked = d.store.intern(symbolic::Node{Op::Exp, 0, 0, d.store.neg_inf(), 0, 0});
  EXPECT_FALSE(s.nonzero(d.b.add(masked, masked)));
  EXPECT_TRUE(s.nonnegative(d.b.add(masked, e0)));
}

TEST(SignAnalysis, DecidesComparisonsOverTheReals) {
  Dag d;
  symbolic::SignAnalysis s(d.store);
  const ExprId sum = d.b.add(d.b.unary(Op::Exp, d.x(0)), d.b.unary(Op::Exp, d.x(1)));
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Eq, sum, d.c(0))), false);
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Ne, sum, sum)), false); // NaN test on a defined value
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Gt, d.x(0), d.store.neg_inf())), true);
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Eq, d.x(0), d.store.neg_inf())), false);
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Gt, d.x(0), d.x(1))), std::nullopt);
  const ExprId m = d.b.max(d.x(0), d.x(1));
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Gt, d.x(0), m)), false); // x <= max(x, y)
  const ExprId either =
      d.b.boolean(Op::Or, d.b.cmp(CmpKind::Eq, sum, d.c(0)), d.b.cmp(CmpKind::Ne, sum, sum));
  EXPECT_EQ(s.decide(either), false); // FlashAttention-2's `sum == 0 || sum != sum`
}

exec::KernelRun with_partials(std::initializer_list<ExprId> nodes) {
  exec::KernelRun run;
  for (ExprId n : nodes)
    run.partial_sites[n] = exec::PartialSite{7, "k.cu", 3};
  return run;
}

TEST(Refinement, DivisionInTheOptimizedKernelOnlyIsRefuted) {
  Dag d;
  const ExprId q = d.b.div(d.b.mul(d.x(0), d.x(1)), d.x(1)); // x*y/y
  const exec::KernelRun ref_run, opt_run = with_partials({q});
  const DomainSide spec{"reference", {{"out[0]", d.x(0)}}, &ref_run};
  const DomainSide checked{"optimized", {{"out[0]", q}}, &opt_run};
  const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
  EXPECT_EQ(o.summary.obligations, 1u);
  EXPECT_EQ(o.summary.failed, 1u);
  ASSERT_TRUE(o.counterexample);
  EXPECT_EQ(o.counterexample->element, "out[0]");
  EXPECT_NE(o.counterexample->optimized_value.find("divides by zero at PTX line 7 (k.cu:3)"),
            std::string::npos)
      << o.counterexample->optimized_value;
}

TEST(Refinement, TheReferencesOwnDivisionIsAnAssumption) {
  Dag d;
  const ExprId q = d.b.div(d.b.mul(d.x(0), d.x(1)), d.x(1));
  const exec::KernelRun ref_run = with_partials({q}), opt_run = with_partials({q});
  const DomainSide spec{"reference", {{"out[0]", q}}, &ref_run};
  const DomainSide checked{"optimized", {{"out[0]", d.b.add(q, d.c(1))}}, &opt_run};
  const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
  EXPECT_EQ(o.summary.by_assumption, 1u);
  EXPECT_FALSE(o.counterexample);
  EXPECT_TRUE(o.unknown_reason.empty()) << o.unknown_reason;
}

// A reference defined on no input: a square root of -1 - x² (negative wherever it is defined)
// or a division by the constant 0, unguarded, makes every refinement vacuous; the outcome says
// so. Under a select arm, or where the signs do not decide, it does not.
TEST(Refinement, AReferenceDefinedOnNoInputIsVacuous) {
  Dag d;
  const ExprId x = d.x(0);
  const ExprId negative = d.b.sub(d.c(-1), d.b.mul(x, x));
  const ExprId root = d.b.unary(Op::Sqrt, negative);
  const ExprId x_plus_root_minus_root = d.b.sub(d.b.add(x, root), root);
  const ExprId by_zero = d.b.div(x, d.c(0));
  const exec::KernelRun opt_run;
  const DomainSide checked{"optimized", {{"out[0]", x}}, &opt_run};
  {
    const exec::KernelRun ref_run = with_partials({root});
    const DomainSide spec{"reference", {{"out[0]", x_plus_root_minus_root}}, &ref_run};
    const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
    EXPECT_NE(o.vacuous_reason.find("the reference kernel is undefined on every input: its "
                                    "square root at PTX line 7 (k.cu:3)"),
              std::string::npos)
        << o.vacuous_reason;
  }
  {
    const exec::KernelRun ref_run = with_partials({by_zero});
    const DomainSide spec{"reference", {{"out[0]", d.b.add(x, by_zero)}}, &ref_run};
    const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
    EXPECT_NE(o.vacuous_reason.find("!= 0"), std::string::npos) << o.vacuous_reason;
  }
  {
    // Only where x > 0 is chosen: defined wherever x <= 0.
    const exec::KernelRun ref_run = with_partials({root});
    const ExprId guarded =
        d.b.select(d.b.cmp(CmpKind::Gt, x, d.c(0)), x_plus_root_minus_root, d.c(0));
    const DomainSide spec{"reference", {{"out[0]", guarded}}, &ref_run};
    EXPECT_EQ(check_refinement(d.store, spec, checked, nullptr).vacuous_reason, "");
  }
  {
    // sqrt(x - y): defined where x >= y.
    const ExprId partial = d.b.unary(Op::Sqrt, d.b.sub(x, d.x(1)));
    const exec::KernelRun ref_run = with_partials({partial});
    const DomainSide spec{"reference", {{"out[0]", partial}}, &ref_run};
    EXPECT_EQ(check_refinement(d.store, spec, checked, nullptr).vacuous_reason, "");
  }
}

TEST(Refinement, AGuardedDivisionAndASelectArmTheReferenceNeverTakes) {
  Dag d;
  const ExprId y = d.x(1);
  const ExprId q = d.b.div(d.x(0), y);
  // y == 0 ? 0 : x / y: the division only where y != 0.
  const ExprId guarded = d.b.select(d.b.cmp(CmpKind::Eq, y, d.c(0)), d.c(0), q);
  const exec::KernelRun ref_run = with_partials({q}), opt_run = with_partials({q});
  {
    const DomainSide spec{"reference", {{"out[0]", d.x(2)}}, &ref_run};
    const DomainSide checked{"optimized", {{"out[0]", guarded}}, &opt_run};
    const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
    EXPECT_EQ(o.summary.by_guard, 1u);
    EXPECT_FALSE(o.counterexample);
  }
  {
    // The reference's guarded division is no assumption that y != 0: an unguarded division
    // by y in the optimized kernel is refuted (at y = 0 the reference stores 0).
    const DomainSide spec{"reference", {{"out[0]", guarded}}, &ref_run};
    const DomainSide checked{"optimized", {{"out[0]", q}}, &opt_run};
    const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
    EXPECT_EQ(o.summary.failed, 1u);
    ASSERT_TRUE(o.counterexample);
    EXPECT_EQ(o.counterexample->reference_value, "0");
  }
}

TEST(Refinement, SignsDischargeASoftmaxDenominator) {
  Dag d;
  const ExprId sum = d.b.add(d.b.unary(Op::Exp, d.x(0)), d.b.unary(Op::Exp, d.x(1)));
  const ExprId p = d.b.div(d.b.unary(Op::Exp, d.x(0)), sum);
  const exec::KernelRun ref_run, opt_run = with_partials({p});
  const DomainSide spec{"reference", {{"out[0]", d.x(0)}}, &ref_run};
  const DomainSide checked{"optimized", {{"out[0]", p}}, &opt_run};
  const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
  EXPECT_EQ(o.summary.by_sign, 1u);
  EXPECT_EQ(o.summary.failed + o.summary.undecided, 0u);
}

TEST(CaseSplit, SelectOfAComparisonAgainstMax) {
  Dag d;
  const ExprId x = d.x(0), m = d.x(1), s = d.x(2);
  // if (x > m) { s *= e^(m - x); m = x; }  against  s * e^(m - max(m, x))
  const ExprId gt = d.b.cmp(CmpKind::Gt, x, m);
  const ExprId by_if = d.b.select(gt, d.b.mul(s, d.b.unary(Op::Exp, d.b.sub(m, x))), s);
  const ExprId by_max = d.b.mul(s, d.b.unary(Op::Exp, d.b.sub(m, d.b.max(m, x))));
  ASSERT_TRUE(has_undecided_select(d.store, by_if));
  // Leaves are compared structurally here (no canonical forms): equal after e^0 = 1, s * 1 = s.
  size_t compared = 0;
  const auto result = prove_by_cases(d.store, by_if, by_max, [&](ExprId a, ExprId b) {
    ++compared;
    const symbolic::Node& n = d.store.node(b);
    // s * e^(m - m) on one side, s on the other; s * e^(m - x) on both.
    return a == b || (n.op == Op::Mul && n.a == a);
  });
  EXPECT_TRUE(result.equal) << result.reason;
  EXPECT_EQ(result.leaves, 2u);
}

// A difference counts only where the reference is defined: its assumptions about other elements
// (out[0] = 1/x) rule out the points where x = 0, at which `x == 0 ? y + 1 : y` differs from y.
TEST(SpecificationDomain, ACounterexampleLiesWhereTheReferenceIsDefined) {
  Dag d;
  const uint32_t y_array = d.store.add_array_name("y");
  const ExprId x = d.x(0), y = d.store.input(y_array, 0);
  const ExprId reciprocal = d.b.div(d.c(1), x);
  DomainSide reference{"reference", {{"out[0]", reciprocal}, {"out[1]", y}}, nullptr};
  const SpecificationDomain domain(d.store, reference);
  ASSERT_EQ(domain.leaves(), std::vector<ExprId>{x});

  symbolic::Assignment zero, one;
  one.values[symbolic::Assignment::key_of(d.store, x)] = symbolic::Rational(1);
  symbolic::Evaluator at_zero(d.store, zero), at_one(d.store, one);
  EXPECT_FALSE(domain.defined_at(at_zero));
  EXPECT_TRUE(domain.defined_at(at_one));

  // Differs only at x = 0: no counterexample in the domain (without it, x = 0 is one).
  const ExprId only_at_zero = d.b.select(d.b.cmp(CmpKind::Eq, x, d.c(0)), d.b.add(y, d.c(1)), y);
  EXPECT_TRUE(find_counterexample(d.store, y, only_at_zero, "out[1]", 64).has_value());
  EXPECT_FALSE(find_counterexample(d.store, y, only_at_zero, "out[1]", 64, &domain).has_value());

  // A real difference: its counterexample gives x a value where 1/x is defined, though x does
  // not occur in the element.
  const auto c = find_counterexample(d.store, y, d.b.add(y, d.c(1)), "out[1]", 16, &domain);
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(c->confirmed);
  bool x_given = false;
  for (const auto& [name, value] : c->inputs)
    x_given |= name == "x[0]" && value != "0";
  EXPECT_TRUE(x_given) << "x[0] must be nonzero in the counterexample";

  // A guarded assumption binds only where its arm is taken: s > 0 ? 1/x : 0.
  const ExprId s = d.x(1);
  const ExprId guarded = d.b.select(d.b.cmp(CmpKind::Gt, s, d.c(0)), reciprocal, d.c(0));
  DomainSide guarded_reference{"reference", {{"out[0]", guarded}}, nullptr};
  const SpecificationDomain guarded_domain(d.store, guarded_reference);
  symbolic::Assignment s_negative;
  s_negative.values[symbolic::Assignment::key_of(d.store, s)] = symbolic::Rational(-1);
  symbolic::Assignment s_positive;
  s_positive.values[symbolic::Assignment::key_of(d.store, s)] = symbolic::Rational(1);
  symbolic::Evaluator negative(d.store, s_negative), positive(d.store, s_positive);
  EXPECT_TRUE(guarded_domain.defined_at(negative));
  EXPECT_FALSE(guarded_domain.defined_at(positive));
}

} // namespace
} // namespace volta::prove
