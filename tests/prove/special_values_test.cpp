// Infinities, NaN and bit observations at the edges of the real-number model
// (docs/semantics.md, "Special values" and "Floats observed as bits"): constant folding as the
// device computes it, the sign analysis of values that may be infinite or a NaN, the domain
// conditions of inf - inf, 0 * inf and inf / inf, and the identity of float nodes. The
// end-to-end kernels are in examples/soundness (categories 17, 18 and 19).
#include <gtest/gtest.h>

#include "engine/prove/domain_conditions.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/float_fold.hpp"
#include "engine/symbolic/sign_analysis.hpp"

namespace volta::prove {
namespace {

using symbolic::CmpKind;
using symbolic::ExprId;
using symbolic::FloatConst;
using symbolic::FloatMode;
using symbolic::FloatMods;
using symbolic::Op;
using symbolic::Rational;

constexpr uint8_t kF16 = 1, kF32 = 2;

FloatMods mods(FloatMode mode, uint8_t format, bool ftz = false) {
  return FloatMods{mode, ftz, format, false};
}

struct Dag {
  symbolic::ExprStore store;
  symbolic::Builder b{store};
  uint32_t x_array = store.add_array_name("x");
  uint32_t u_array = store.add_array_name("u");
  Dag() { store.mark_integer_array(u_array); }
  ExprId x(uint32_t i) { return store.input(x_array, i); }
  // The integer element u[i] (an array declared u32) and its float view.
  ExprId u(uint32_t i) {
    return store.intern(symbolic::Node{Op::FloatBits, 2, 0, store.input(u_array, i), 0, 0});
  }
  ExprId f(uint32_t i) { return b.bits_float(u(i), 2); }
  ExprId c(long v) { return store.constant(v); }
  ExprId f32(uint32_t bits) { return *store.float_bits(bits, 32); }
};

// ---- constant folding as the device computes it

TEST(FloatFold, OverflowGivesTheRoundingModesResult) {
  const FloatConst big = FloatConst::finite(Rational(mpz_class("1000000000000000000000000000000")));
  // 1e30 * 1e30 = 1e60 overflows f32: +inf to nearest, the largest value toward zero.
  const auto rn = symbolic::fold_mul(big, big, mods(FloatMode::Rn, kF32));
  ASSERT_TRUE(rn);
  EXPECT_EQ(rn->kind, FloatConst::Kind::PosInf);
  const auto rz = symbolic::fold_mul(big, big, mods(FloatMode::Rz, kF32));
  ASSERT_TRUE(rz);
  EXPECT_EQ(rz->kind, FloatConst::Kind::Finite);
  EXPECT_EQ(rz->value, symbolic::largest_finite({8, 23}));
  const auto down =
      symbolic::fold_mul(FloatConst::finite(Rational(-1)), *rn, mods(FloatMode::Rm, kF32));
  ASSERT_TRUE(down);
  EXPECT_EQ(down->kind, FloatConst::Kind::NegInf);
  // f16: 65519 rounds to 65504, 65520 to +inf (half an ulp above the largest value).
  EXPECT_EQ(
      symbolic::round_exact(FloatConst::finite(Rational(65519)), mods(FloatMode::Rn, kF16))->value,
      Rational(65504));
  EXPECT_EQ(
      symbolic::round_exact(FloatConst::finite(Rational(65520)), mods(FloatMode::Rn, kF16))->kind,
      FloatConst::Kind::PosInf);
}

TEST(FloatFold, ARoundingResultIsNotFolded) {
  // 1e8 + 1 is not an f32: the device rounds it to 1e8, the reals keep 100000001.
  const auto sum = symbolic::fold_add(FloatConst::finite(Rational(100000000)),
                                      FloatConst::finite(Rational(1)), mods(FloatMode::Rn, kF32));
  EXPECT_FALSE(sum);
  // Exact results fold: 0.5 + 0.25.
  const auto exact =
      symbolic::fold_add(FloatConst::finite(Rational(1, 2)), FloatConst::finite(Rational(1, 4)),
                         mods(FloatMode::Rn, kF32));
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->value, Rational(3, 4));
  // No format (a node the prover builds): exact over the reals.
  EXPECT_TRUE(symbolic::fold_add(FloatConst::finite(Rational(100000000)),
                                 FloatConst::finite(Rational(1)), FloatMods{}));
}

// An fma's product is exact and no operand: .ftz flushes the operands and the result only.
// Fuzzer 19:64174: fma.rp.ftz.f32 c, c, c with c = 0x0DA24260 (c * c far below the subnormals)
// rounds up to c's successor, fma.rz.ftz to c; folding flushed the product and gave c for both.
TEST(FloatFold, AnFmaProductIsNotFlushed) {
  // 0x0DA24260 = 0xA24260 * 2^-123 (exponent 27 - 127, the hidden bit and 23 fraction bits).
  const FloatConst k = FloatConst::finite(Rational(mpz_class(0xA24260), mpz_class(1) << 123));
  const FloatMods rp = mods(FloatMode::Rp, kF32, true), rz = mods(FloatMode::Rz, kF32, true);
  EXPECT_FALSE(symbolic::fold_fma(k, k, k, rp)) << "c + c*c needs a rounding";
  EXPECT_FALSE(symbolic::fold_fma(k, k, k, rz));
  // A subnormal operand is flushed: 2^-140 * 1 + 1 is exactly 1 under .ftz.
  const FloatConst tiny = FloatConst::finite(Rational(mpz_class(1), mpz_class(1) << 140));
  const FloatConst one = FloatConst::finite(Rational(1));
  const auto flushed = symbolic::fold_fma(tiny, one, one, rp);
  ASSERT_TRUE(flushed);
  EXPECT_EQ(flushed->value, Rational(1));
}

TEST(FloatFold, SignedZerosFollowIeee) {
  const FloatConst pz = FloatConst::finite(Rational(0)), nz = FloatConst::finite(Rational(0), true);
  EXPECT_TRUE(symbolic::fold_add(nz, nz, mods(FloatMode::Rn, kF32))->negative);
  EXPECT_FALSE(symbolic::fold_add(nz, pz, mods(FloatMode::Rn, kF32))->negative);
  EXPECT_TRUE(symbolic::fold_add(nz, pz, mods(FloatMode::Rm, kF32))->negative);
  const FloatConst one = FloatConst::finite(Rational(1)), minus = FloatConst::finite(Rational(-1));
  EXPECT_FALSE(symbolic::fold_add(one, minus, mods(FloatMode::Rn, kF32))->negative);
  EXPECT_TRUE(symbolic::fold_add(one, minus, mods(FloatMode::Rm, kF32))->negative);
  EXPECT_TRUE(symbolic::fold_mul(minus, pz, mods(FloatMode::Rn, kF32))->negative);
  EXPECT_TRUE(symbolic::negated(pz).negative);
  EXPECT_FALSE(symbolic::absolute(nz).negative);
  // PTX min/max rank -0 below +0.
  EXPECT_FALSE(symbolic::pick_min_max(nz, pz, true).negative);
  EXPECT_TRUE(symbolic::pick_min_max(pz, nz, false).negative);
  // NaN makers never fold.
  EXPECT_FALSE(symbolic::fold_add(FloatConst::inf(false), FloatConst::inf(true), FloatMods{}));
  EXPECT_FALSE(symbolic::fold_mul(pz, FloatConst::inf(false), FloatMods{}));
  EXPECT_FALSE(symbolic::fold_div(FloatConst::inf(true), FloatConst::inf(false), FloatMods{}));
}

TEST(FloatFold, TheBuilderKeepsMinusZeroAndItsBits) {
  Dag d;
  const ExprId nz = d.f32(0x80000000u);
  EXPECT_TRUE(d.store.is_neg_zero(nz));
  EXPECT_NE(nz, d.c(0));
  const ExprId bits = d.b.float_bits(nz, 2);
  ASSERT_EQ(d.store.op(bits), Op::Const);
  EXPECT_EQ(d.store.rational(bits), Rational(0x80000000u));
  EXPECT_EQ(d.b.neg(d.c(0), mods(FloatMode::Default, kF32)), nz);
  EXPECT_EQ(d.b.neg(nz, mods(FloatMode::Default, kF32)), d.c(0));
  // f16 bits of constants: -0, 1.0, +inf.
  EXPECT_EQ(d.store.rational(d.b.float_bits(nz, 1)), Rational(0x8000));
  EXPECT_EQ(d.store.rational(d.b.float_bits(d.c(1), 1)), Rational(0x3C00));
  EXPECT_EQ(d.store.rational(d.b.float_bits(d.store.pos_inf(), 1)), Rational(0x7C00));
}

TEST(FloatFold, SatfiniteClampsAnOverflowingNarrowing) {
  Dag d;
  const ExprId million = d.c(1000000);
  const ExprId plain = d.b.narrow(million, mods(FloatMode::Rn, kF16));
  EXPECT_EQ(d.store.op(plain), Op::PosInf);
  FloatMods satfinite = mods(FloatMode::Rn, kF16);
  satfinite.nan_propagating = true; // .satfinite on a narrowing
  const ExprId clamped = d.b.narrow(million, satfinite);
  ASSERT_EQ(d.store.op(clamped), Op::Const);
  EXPECT_EQ(d.store.rational(clamped), Rational(65504));
}

// ---- node identity: modifiers, narrowing, lifts

TEST(FloatNodes, EveryValueChangingModifierIsPartOfTheNode) {
  Dag d;
  const ExprId rn = d.b.add(d.x(0), d.x(1), mods(FloatMode::Rn, kF32));
  const ExprId rz = d.b.add(d.x(0), d.x(1), mods(FloatMode::Rz, kF32));
  const ExprId plain = d.b.add(d.x(0), d.x(1), mods(FloatMode::Default, kF32));
  const ExprId ftz = d.b.add(d.x(0), d.x(1), mods(FloatMode::Rn, kF32, true));
  EXPECT_NE(rn, rz);
  EXPECT_NE(rn, plain); // a contractable add is not an explicit .rn
  EXPECT_NE(rn, ftz);
  EXPECT_EQ(rn, d.b.add(d.x(0), d.x(1), mods(FloatMode::Rn, kF32)));
  EXPECT_NE(d.b.narrow(d.x(0), mods(FloatMode::Rn, kF16)),
            d.b.narrow(d.x(0), mods(FloatMode::Rz, kF16)));
  EXPECT_NE(d.b.float_bits(rn, 2), d.b.float_bits(rz, 2));
}

TEST(FloatNodes, F64ConstantsThatDifferInTheSignBitAreTwoNodes) {
  // The constants' cache once packed the width into the low bits of bits * 4, which drops an
  // f64's sign bit: 1.0 and -1.0 were one node (found by the pair fuzzer, c23_f64_constant_sign).
  Dag d;
  const ExprId one = *d.store.float_bits(0x3FF0000000000000ull, 64);
  const ExprId minus_one = *d.store.float_bits(0xBFF0000000000000ull, 64);
  EXPECT_NE(one, minus_one);
  EXPECT_EQ(d.store.rational(minus_one), Rational(-1));
  EXPECT_EQ(*d.store.float_bits(0xBFF0000000000000ull, 64), minus_one);
  EXPECT_EQ(*d.store.float_bits(0x3F800000u, 32), one); // 1.0f is the same real
}

TEST(FloatNodes, TheBitsOfALiftedIdiomAreNeverTheSameTerm) {
  Dag d;
  const ExprId lifted = d.b.unary(Op::Exp, d.x(0), FloatMods::of(symbolic::kLiftedAux));
  EXPECT_TRUE(d.store.taint(lifted) & symbolic::kTaintIdealized);
  EXPECT_NE(d.b.float_bits(lifted, 2), d.b.float_bits(lifted, 2));
  EXPECT_NE(d.b.real_to_int(lifted, symbolic::RoundKind::NearestEven, symbolic::IntType{2, true}),
            d.b.real_to_int(lifted, symbolic::RoundKind::NearestEven, symbolic::IntType{2, true}));
  // An instruction's exp2 is not lifted: its bits are its own.
  const ExprId ex2 = d.b.unary(Op::Ex2, d.x(0), mods(FloatMode::Approx, kF32));
  EXPECT_FALSE(d.store.taint(ex2) & symbolic::kTaintIdealized);
  EXPECT_EQ(d.b.float_bits(ex2, 2), d.b.float_bits(ex2, 2));
}

TEST(FloatNodes, IntegerDataReadAsAFloatStaysAReinterpretation) {
  Dag d;
  const ExprId f = d.f(0);
  ASSERT_EQ(d.store.op(f), Op::BitsFloat); // not the real symbol u[0]
  EXPECT_TRUE(d.store.taint(f) & symbolic::kTaintNaN);
  EXPECT_EQ(d.b.float_bits(f, 2), d.u(0)); // its bits are the integer again
  // max(-inf, f) is -inf where f is a NaN: not folded to f.
  EXPECT_NE(d.b.max(d.store.neg_inf(), f, mods(FloatMode::Default, kF32)), f);
  FloatMods nan = mods(FloatMode::Default, kF32);
  nan.nan_propagating = true;
  EXPECT_EQ(d.b.max(d.store.neg_inf(), f, nan), f); // max.NaN keeps the NaN
  // A float array's element: its float view is the real symbol.
  EXPECT_EQ(d.b.bits_float(d.b.float_bits(d.x(0), 2), 2), d.x(0));
}

TEST(FloatNodes, InfiniteConstantsAbsorbFiniteValues) {
  Dag d;
  const FloatMods f32 = mods(FloatMode::Default, kF32);
  // -inf - x and exp(-inf - x) as a masked softmax computes them.
  const ExprId masked = d.b.sub(d.store.neg_inf(), d.x(0), f32);
  EXPECT_EQ(masked, d.store.neg_inf());
  EXPECT_EQ(d.b.unary(Op::Ex2, d.b.mul(masked, d.f32(0x3FB8AA3B), f32)), d.c(0));
  EXPECT_EQ(d.b.fma(d.store.neg_inf(), d.f32(0x3FB8AA3B), d.x(1), f32), d.store.neg_inf());
  // Not where the finite side carries a domain condition (dropping it would drop the
  // condition), nor where it may itself be infinite.
  const ExprId root = d.b.unary(Op::Sqrt, d.x(0));
  EXPECT_NE(d.b.add(d.store.neg_inf(), root, f32), d.store.neg_inf());
  EXPECT_NE(d.b.add(d.store.neg_inf(), d.f(0), f32), d.store.neg_inf());
}

// ---- the sign analysis on values that may be infinite or a NaN

TEST(SpecialSigns, NothingIsDecidedOnAValueThatMayBeANaN) {
  Dag d;
  symbolic::SignAnalysis s(d.store);
  const ExprId f = d.f(0);
  EXPECT_TRUE(s.signs(f) & symbolic::kSignNaN);
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Ne, f, f, true)), std::nullopt);
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Ge, d.b.mul(f, f), d.c(0))), std::nullopt);
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Le, f, d.b.max(f, d.x(0)))), std::nullopt);
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Eq, d.b.sub(f, f), d.c(0))), std::nullopt);
  EXPECT_FALSE(s.nonzero(d.b.add(f, d.c(1))));
  // fmaxf(f, 0) drops a NaN: it is a number (>= 0).
  EXPECT_FALSE(s.signs(d.b.max(f, d.c(0))) & symbolic::kSignNaN);
  // Real data decides as before.
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Ge, d.b.mul(d.x(0), d.x(0)), d.c(0))), true);
  EXPECT_EQ(s.decide(d.b.cmp(CmpKind::Ne, d.x(0), d.x(0))), false);
}

TEST(SpecialSigns, AnIntegerConvertedToF16MayBeInfinite) {
  Dag d;
  symbolic::SignAnalysis s(d.store);
  const ExprId wide = d.b.int_to_real(d.u(0), symbolic::IntType{2, false}, 1 /* F16 */,
                                      symbolic::RoundKind::NearestEven);
  EXPECT_TRUE(s.signs(wide) & symbolic::kSignPosInf);
  EXPECT_TRUE(d.store.taint(wide) & symbolic::kTaintInfinity);
  const ExprId narrow_source =
      d.b.intop(symbolic::BitOpKind::Ext, symbolic::IntType{1, true}, d.u(0), 0, 0, 0, 32);
  const ExprId small = d.b.int_to_real(narrow_source, symbolic::IntType{1, true}, 1,
                                       symbolic::RoundKind::NearestEven);
  EXPECT_FALSE(s.signs(small) & symbolic::kSignPosInf); // s16 stays below 65520
  // 70000 converted: +inf exactly.
  EXPECT_EQ(d.b.int_to_real(d.b.int_const(70000, 2), symbolic::IntType{2, false}, 1,
                            symbolic::RoundKind::NearestEven),
            d.store.pos_inf());
}

// An operation on constants alone that is not folded (an approximation, a result that needs a
// rounding) may still leave its format: ex2.approx of 200, 2^100 * 2^100, and lg2 or 1/x of a
// product that underflows to 0. Its infinity is its own (taint and signs); small values stay
// finite.
TEST(SpecialSigns, ConstantOperationsThatMayOverflowAreInfinite) {
  Dag d;
  symbolic::SignAnalysis s(d.store);
  const FloatMods approx = mods(FloatMode::Approx, kF32);
  const ExprId big = d.b.unary(Op::Ex2, d.f32(0x43480000) /* 200 */, approx);
  EXPECT_TRUE(d.store.taint(big) & symbolic::kTaintInfinity);
  EXPECT_TRUE(s.signs(big) & symbolic::kSignPosInf);
  const ExprId e100 = d.b.unary(Op::Ex2, d.f32(0x42C80000) /* 100 */, approx);
  EXPECT_FALSE(d.store.taint(e100) & symbolic::kTaintInfinity);
  EXPECT_EQ(s.signs(e100), symbolic::kSignPos);
  const ExprId product = d.b.mul(e100, e100, mods(FloatMode::Rn, kF32));
  EXPECT_TRUE(s.signs(product) & symbolic::kSignPosInf);
  const ExprId tiny = d.b.mul(d.f32(0x0D800000), d.f32(0x0D800000), mods(FloatMode::Rn, kF32));
  EXPECT_FALSE(d.store.taint(tiny) & symbolic::kTaintInfinity); // 2^-200: a rounding, not inf
  const ExprId log = d.b.unary(Op::Lg2, tiny, approx);
  EXPECT_TRUE(s.signs(log) & symbolic::kSignNegInf); // lg2 of the flushed 0 is -inf
  const ExprId small = d.b.unary(Op::Ex2, d.f32(0x40400000) /* 3 */, approx);
  EXPECT_EQ(s.signs(small), symbolic::kSignPos);
  // Data below: no evaluation, the usual rules (over the reals, overflow of data is a rounding).
  EXPECT_FALSE(d.store.taint(d.b.unary(Op::Ex2, d.x(0), approx)) & symbolic::kTaintInfinity);
}

// ---- domain conditions of the NaN makers

exec::KernelRun with_partials(std::initializer_list<ExprId> nodes) {
  exec::KernelRun run;
  for (ExprId n : nodes)
    run.partial_sites[n] = exec::PartialSite{9, "k.cu", 4};
  return run;
}

TEST(SpecialDomains, InfMinusInfInTheOptimizedKernelIsRefuted) {
  Dag d;
  const FloatMods f32 = mods(FloatMode::Default, kF32);
  // m = x > 0 ? x : -inf; m - m is NaN for x <= 0.
  const ExprId m = d.b.select(d.b.cmp(CmpKind::Gt, d.x(0), d.c(0)), d.x(0), d.store.neg_inf());
  const ExprId diff = d.b.sub(m, m, f32);
  const exec::KernelRun ref_run, opt_run = with_partials({diff});
  const DomainSide spec{"reference", {{"out[0]", d.c(0)}}, &ref_run};
  const DomainSide checked{"optimized", {{"out[0]", diff}}, &opt_run};
  const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
  EXPECT_EQ(o.summary.obligations, 1u);
  ASSERT_TRUE(o.counterexample);
  EXPECT_NE(o.counterexample->optimized_value.find("inf - inf"), std::string::npos);
  // The same subtraction in the reference is an assumption that discharges it.
  const DomainOutcome same = check_refinement(
      d.store, DomainSide{"reference", {{"out[0]", diff}}, &opt_run}, checked, nullptr);
  EXPECT_FALSE(same.counterexample);
  EXPECT_EQ(same.summary.by_assumption, 1u);
}

TEST(SpecialDomains, ZeroTimesInfinityAndInfinityOverInfinity) {
  Dag d;
  const FloatMods f32 = mods(FloatMode::Default, kF32);
  const ExprId m = d.b.select(d.b.cmp(CmpKind::Gt, d.x(0), d.c(0)), d.x(0), d.store.pos_inf());
  const ExprId zero_times = d.b.mul(m, d.b.sub(d.x(1), d.x(1), f32), f32);
  const ExprId ratio = d.b.div(m, m, f32);
  const exec::KernelRun ref_run, opt_run = with_partials({zero_times, ratio});
  const DomainSide spec{"reference", {{"out[0]", d.c(0)}, {"out[1]", d.c(1)}}, &ref_run};
  const DomainSide checked{"optimized", {{"out[0]", zero_times}, {"out[1]", ratio}}, &opt_run};
  const DomainOutcome o = check_refinement(d.store, spec, checked, nullptr);
  EXPECT_GE(o.summary.obligations, 2u);
  ASSERT_TRUE(o.counterexample);
}

TEST(SpecialDomains, AnIntegerConvertedToF16MeetsItself) {
  Dag d;
  const FloatMods f32 = mods(FloatMode::Default, kF32);
  const ExprId h =
      d.b.int_to_real(d.u(0), symbolic::IntType{2, false}, 1, symbolic::RoundKind::NearestEven);
  const ExprId diff = d.b.sub(h, h, f32);
  const exec::KernelRun ref_run, opt_run = with_partials({diff});
  const DomainOutcome o =
      check_refinement(d.store, DomainSide{"reference", {{"out[0]", d.c(0)}}, &ref_run},
                       DomainSide{"optimized", {{"out[0]", diff}}, &opt_run}, nullptr);
  ASSERT_TRUE(o.counterexample); // u = 65520 or 70000: +inf - +inf
}

TEST(SpecialDomains, FiniteOperandsMakeNoCondition) {
  Dag d;
  const FloatMods f32 = mods(FloatMode::Default, kF32);
  const ExprId diff = d.b.sub(d.x(0), d.x(0), f32);
  const exec::KernelRun ref_run, opt_run = with_partials({diff});
  const DomainOutcome o =
      check_refinement(d.store, DomainSide{"reference", {{"out[0]", d.c(0)}}, &ref_run},
                       DomainSide{"optimized", {{"out[0]", diff}}, &opt_run}, nullptr);
  EXPECT_EQ(o.summary.obligations, 0u);
  EXPECT_FALSE(o.counterexample);
}

} // namespace
} // namespace volta::prove
