// symbolic::RoundingErrorBound: the bound holds against bit-exact IEEE arithmetic (the
// emulator's) on random inputs within the ranges, for sums, products, fmas, quotients, square
// roots and narrowings in every rounding mode; and terms it cannot bound say why.
#include <cmath>
#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <random>

#include "engine/emulate/float_semantics.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/rounding_error_bound.hpp"

namespace volta::symbolic {
namespace {

FloatMods mods(uint8_t format, FloatMode mode = FloatMode::Rn, bool ftz = false) {
  return FloatMods{mode, ftz, format, false};
}

emulate::FloatFormat emulated(uint8_t format) {
  switch (format) {
  case kFormatF16:
    return emulate::FloatFormat::F16;
  case kFormatF64:
    return emulate::FloatFormat::F64;
  case kFormatBF16:
    return emulate::FloatFormat::BF16;
  default:
    return emulate::FloatFormat::F32;
  }
}

emulate::RoundMode emulated(FloatMode m) {
  switch (m) {
  case FloatMode::Rz:
    return emulate::RoundMode::TowardZero;
  case FloatMode::Rm:
    return emulate::RoundMode::Down;
  case FloatMode::Rp:
    return emulate::RoundMode::Up;
  default:
    return emulate::RoundMode::NearestEven;
  }
}

class RoundingErrorBoundTest : public ::testing::Test {
protected:
  RoundingErrorBoundTest() : b(store) {
    xs = store.add_array_name("x");
    ys = store.add_array_name("y");
  }
  ExprId x(uint32_t i) { return store.input(xs, i); }
  ExprId y(uint32_t i) { return store.input(ys, i); }

  // The device's value of `id` (f32 inputs), computed with the emulator's IEEE arithmetic in
  // each node's format and mode, as a double.
  double device(ExprId id, const std::vector<float>& xv, const std::vector<float>& yv,
                uint8_t& format) {
    const Node n = store.node(id);
    if (n.op == Op::Input) {
      format = kFormatF32;
      return n.a == xs ? xv[n.b] : yv[n.b];
    }
    if (n.op == Op::Const) {
      format = 0;
      return to_double(store.rational(id));
    }
    const FloatMods m = FloatMods::of(n.aux);
    const emulate::FloatFormat f = emulated(m.format);
    auto bits = [&](ExprId k) {
      uint8_t kf = 0;
      const double v = device(k, xv, yv, kf);
      // Exact (a widening); .ftz flushes a subnormal operand, as the emulator's exec_float does.
      const uint64_t x = emulate::encode(f, v, emulate::RoundMode::NearestEven);
      return m.ftz ? emulate::flush(f, x) : x;
    };
    uint64_t r = 0;
    const auto mode = emulated(m.mode);
    switch (n.op) {
    case Op::Add:
      r = emulate::arith(emulate::Arith::Add, f, mode, bits(n.a), bits(n.b), 0, m.ftz);
      break;
    case Op::Sub:
      r = emulate::arith(emulate::Arith::Sub, f, mode, bits(n.a), bits(n.b), 0, m.ftz);
      break;
    case Op::Mul:
      r = emulate::arith(emulate::Arith::Mul, f, mode, bits(n.a), bits(n.b), 0, m.ftz);
      break;
    case Op::Div:
      r = emulate::arith(emulate::Arith::Div, f, mode, bits(n.a), bits(n.b), 0, m.ftz);
      break;
    case Op::Fma:
      r = emulate::arith(emulate::Arith::Fma, f, mode, bits(n.a), bits(n.b), bits(n.c), m.ftz);
      break;
    case Op::Sqrt:
      r = emulate::arith(emulate::Arith::Sqrt, f, mode, bits(n.a), 0, 0, m.ftz);
      break;
    case Op::Narrow: {
      uint8_t kf = 0;
      r = emulate::encode(f, device(n.a, xv, yv, kf), mode);
      break;
    }
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max: {
      uint8_t kf = 0;
      const double a = device(n.a, xv, yv, kf);
      const double b2 = n.op == Op::Min || n.op == Op::Max ? device(n.b, xv, yv, kf) : 0;
      format = m.format;
      return n.op == Op::Neg   ? -a
             : n.op == Op::Abs ? std::fabs(a)
             : n.op == Op::Min ? std::min(a, b2)
                               : std::max(a, b2); // exact: no rounding
    }
    case Op::Select: {
      // Conditions are comparisons of two inputs (x < y), decided exactly.
      const Node c = store.node(n.a);
      uint8_t kf = 0;
      const bool lt = device(c.a, xv, yv, kf) < device(c.b, xv, yv, kf);
      return device(lt ? n.b : n.c, xv, yv, format);
    }
    default:
      ADD_FAILURE() << "no device evaluation for " << op_info(n.op).noun;
    }
    format = m.format;
    return emulate::decode(f, r);
  }

  // Checks the bound of `term` against the device on random inputs in [lo, hi] (x and y).
  void holds(ExprId term, double lo, double hi, bool tight = true, int samples = 2000) {
    RoundingErrorBound analysis(store, [&](uint32_t) -> std::optional<ValueRange> {
      return ValueRange{lo, hi};
    });
    const auto r = analysis.bound(term);
    ASSERT_TRUE(r.bound.has_value()) << r.why;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(static_cast<float>(lo), static_cast<float>(hi));
    double worst = 0;
    for (int s = 0; s < samples; ++s) {
      std::vector<float> xv(16), yv(16);
      Assignment point;
      for (uint32_t i = 0; i < 16; ++i) {
        // The ends of the range too: extremes make the largest errors.
        xv[i] = s % 7 == 0 ? static_cast<float>(hi) : dist(rng);
        yv[i] = s % 11 == 0 ? static_cast<float>(lo) : dist(rng);
        point.values[Assignment::input_key(xs, i)] = Rational(static_cast<double>(xv[i]));
        point.values[Assignment::input_key(ys, i)] = Rational(static_cast<double>(yv[i]));
      }
      Evaluator exact(store, point);
      const EvalValue v = exact.eval(term);
      const Interval real = v.interval();
      uint8_t f = 0;
      const double dev = device(term, xv, yv, f);
      const double apart = std::max(std::fabs(dev - static_cast<double>(real.lo)),
                                    std::fabs(dev - static_cast<double>(real.hi)));
      worst = std::max(worst, apart);
      ASSERT_LE(apart, r.bound->error)
          << "sample " << s << ": device " << dev << ", real in [" << static_cast<double>(real.lo)
          << ", " << static_cast<double>(real.hi) << "]";
      ASSERT_GE(static_cast<double>(real.lo), r.bound->value.lo);
      ASSERT_LE(static_cast<double>(real.hi), r.bound->value.hi);
    }
    // Sound and not absurdly loose: the worst error seen is a fair share of the bound.
    if (tight) {
      EXPECT_GT(worst * 1e4, r.bound->error) << "bound " << r.bound->error << ", worst " << worst;
    }
  }

  ExprStore store;
  Builder b;
  uint32_t xs = 0, ys = 0;
};

TEST_F(RoundingErrorBoundTest, ADotProductInEveryMode) {
  for (FloatMode mode : {FloatMode::Rn, FloatMode::Rz, FloatMode::Rm, FloatMode::Rp}) {
    ExprId acc = b.mul(x(0), y(0), mods(kFormatF32, mode));
    for (uint32_t i = 1; i < 16; ++i)
      acc = b.add(acc, b.mul(x(i), y(i), mods(kFormatF32, mode)), mods(kFormatF32, mode));
    holds(acc, -3, 3);
  }
}

TEST_F(RoundingErrorBoundTest, AnFmaChainAndASubtraction) {
  ExprId acc = b.mul(x(0), y(0), mods(kFormatF32));
  for (uint32_t i = 1; i < 16; ++i)
    acc = b.fma(x(i), y(i), acc, mods(kFormatF32));
  holds(b.sub(acc, x(3), mods(kFormatF32)), -100, 100);
}

TEST_F(RoundingErrorBoundTest, QuotientsAndSquareRoots) {
  const ExprId num = b.add(x(0), x(1), mods(kFormatF32));
  const ExprId den = b.add(y(0), y(1), mods(kFormatF32));
  holds(b.div(num, den, mods(kFormatF32)), 0.5, 8);
  const ExprId sq = b.fma(x(0), x(0), b.mul(y(0), y(0), mods(kFormatF32)), mods(kFormatF32));
  holds(b.unary(Op::Sqrt, sq, mods(kFormatF32)), 0.25, 4);
}

TEST_F(RoundingErrorBoundTest, NarrowingToHalfAndTinyResults) {
  const ExprId s = b.add(x(0), y(0), mods(kFormatF32));
  holds(b.narrow(s, mods(kFormatF16)), -30000, 30000);
  // Products of tiny values underflow: the absolute term of the bound covers them.
  holds(b.mul(b.mul(x(0), y(0), mods(kFormatF32)), x(1), mods(kFormatF32)), -1e-14, 1e-14, false);
  holds(b.mul(b.mul(x(0), y(0), mods(kFormatF32, FloatMode::Rn, true)), x(1),
              mods(kFormatF32, FloatMode::Rn, true)),
        -1e-14, 1e-14, false);
}

TEST_F(RoundingErrorBoundTest, HalfPrecisionArithmetic) {
  // f16 and bf16 dot products of inputs narrowed first (as a kernel converts them), the
  // accumulator rounded to the half format at every step, in every mode.
  for (uint8_t format : {kFormatF16, kFormatBF16}) {
    for (FloatMode mode : {FloatMode::Rn, FloatMode::Rz, FloatMode::Rm}) {
      const FloatMods m = mods(format, mode);
      ExprId acc = b.mul(b.narrow(x(0), m), b.narrow(y(0), m), m);
      for (uint32_t i = 1; i < 8; ++i)
        acc = b.fma(b.narrow(x(i), m), b.narrow(y(i), m), acc, m);
      holds(acc, -2, 2);
    }
  }
}

TEST_F(RoundingErrorBoundTest, ApproximateFunctionsCarryTheirDocumentedError) {
  auto bound_of = [&](ExprId term, double lo, double hi) {
    RoundingErrorBound analysis(store, [&](uint32_t) -> std::optional<ValueRange> {
      return ValueRange{lo, hi};
    });
    const auto r = analysis.bound(term);
    EXPECT_TRUE(r.bound.has_value()) << r.why;
    return r.bound ? r.bound->error : 0.0;
  };
  const FloatMods approx = mods(kFormatF32, FloatMode::Approx);
  const ExprId sum = b.add(x(0), y(0), mods(kFormatF32));
  // ex2.approx.f32 of a sum in [0, 8]: the result reaches 2^8; 2 ulp of 256 is 2^-14, and the
  // sum's rounding (2^-21 at 8) moves 2^8 by about 2^8 ln2 2^-21.
  const double ex2 = bound_of(b.unary(Op::Ex2, sum, approx), 0, 4);
  EXPECT_GE(ex2, std::ldexp(1.0, -14));
  EXPECT_LT(ex2, std::ldexp(1.0, -10));
  // rsqrt.approx.f32 over [1, 4]: at most 1, 2^-22.9 relative.
  const double rs = bound_of(b.unary(Op::Rsqrt, sum, approx), 0.5, 2);
  EXPECT_GE(rs, std::ldexp(1.0, -23));
  EXPECT_LT(rs, std::ldexp(1.0, -19));
  // lg2.approx.f32: 2^-22 absolute near 1; sin and cos: 2^-20.5 absolute within 2 pi.
  EXPECT_GE(bound_of(b.unary(Op::Lg2, sum, approx), 0.3, 0.9), std::ldexp(1.0, -22));
  EXPECT_GE(bound_of(b.unary(Op::Sin, sum, approx), -3, 3), std::ldexp(1.0, -21));
  // tanh.approx.f32: 2^-11 relative.
  EXPECT_GE(bound_of(b.unary(Op::Tanh, sum, approx), 1, 2), 0.99 * std::ldexp(1.0, -11));
  // sin.approx beyond [-100 pi, 100 pi] has no documented error; rsqrt near 0 no bound.
  RoundingErrorBound wide(store, [&](uint32_t) -> std::optional<ValueRange> {
    return ValueRange{-1000, 1000};
  });
  EXPECT_NE(wide.bound(b.unary(Op::Sin, sum, approx)).why.find("100 pi"), std::string::npos);
  EXPECT_NE(wide.bound(b.unary(Op::Rsqrt, sum, approx)).why.find("0 or negative"),
            std::string::npos);
}

// Random terms over every operation the analysis bounds, in f32 with f16 and bf16 parts below
// narrowings, every rounding mode: wherever the analysis gives a bound, the emulator's IEEE
// arithmetic on inputs drawn from the ranges stays within it.
TEST_F(RoundingErrorBoundTest, RandomTermsAgainstTheEmulator) {
  // VOLTA_BOUND_TERMS=N (and VOLTA_BOUND_SEED) hunt longer by hand; CI runs 300 terms.
  const char* terms_env = std::getenv("VOLTA_BOUND_TERMS");
  const char* seed_env = std::getenv("VOLTA_BOUND_SEED");
  const int terms = terms_env ? std::atoi(terms_env) : 300;
  std::mt19937 rng(seed_env ? static_cast<uint32_t>(std::atoi(seed_env)) : 35);
  const FloatMode modes[] = {FloatMode::Rn, FloatMode::Default, FloatMode::Rz, FloatMode::Rm,
                             FloatMode::Rp};
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  // A term and its format: an operation's format is its widest operand's (a narrower operand
  // is widened exactly, as cvt does), so no operation reads a wider value unconverted.
  std::function<std::pair<ExprId, uint8_t>(int)> gen =
      [&](int depth) -> std::pair<ExprId, uint8_t> {
    if (depth == 0 || pick(5) == 0) {
      const int leaf = pick(6);
      if (leaf == 0)
        return {store.constant(Rational(pick(9) - 4, 1 + pick(4))), kFormatF32};
      const ExprId in =
          pick(2) ? x(static_cast<uint32_t>(pick(16))) : y(static_cast<uint32_t>(pick(16)));
      if (leaf == 1) {
        const uint8_t half = pick(2) ? kFormatF16 : kFormatBF16;
        return {b.narrow(in, mods(half, modes[pick(5) % 4 == 1 ? 0 : pick(5)])), half};
      }
      return {in, kFormatF32};
    }
    const auto [a, fa] = gen(depth - 1);
    const auto [c, fc] = gen(depth - 1);
    const uint8_t f = fa == fc ? fa : kFormatF32;
    // .ftz (f32 only) on a fifth of the arithmetic.
    const FloatMods m = mods(f, modes[pick(5)], f == kFormatF32 && pick(5) == 0);
    switch (pick(11)) {
    case 0:
      return {b.add(a, c, m), f};
    case 1:
      return {b.sub(a, c, m), f};
    case 2:
      return {b.mul(a, c, m), f};
    case 3: {
      const auto [d, fd] = gen(depth - 1);
      return {b.fma(a, c, d, mods(fd == f ? f : kFormatF32, m.mode)), fd == f ? f : kFormatF32};
    }
    case 4:
      return {b.div(a, c, m), f};
    case 5:
      return {b.unary(Op::Sqrt, b.abs(a, mods(fa)), mods(fa, modes[pick(5)])), fa};
    case 6:
      return {b.narrow(a, mods(kFormatF16, m.mode == FloatMode::Default ? FloatMode::Rn : m.mode)),
              kFormatF16};
    case 7:
      return {b.min(a, c, mods(f)), f};
    case 8:
      return {b.max(a, c, mods(f)), f};
    case 9:
      return {b.neg(a, mods(fa)), fa};
    default: {
      const ExprId cond = b.cmp(CmpKind::Lt, x(static_cast<uint32_t>(pick(16))),
                                y(static_cast<uint32_t>(pick(16))));
      return {b.select(cond, a, c), f};
    }
    }
  };
  const ValueRange ranges[] = {{-1, 1}, {0.5, 2}, {-100, 100}, {1e-3, 1e-2}, {-4, -0.25}};
  int bounded = 0;
  for (int t = 0; t < terms; ++t) {
    const auto [term, format] = gen(1 + pick(4));
    if (store.op(term) == Op::Const || store.op(term) == Op::Input)
      continue;
    const ValueRange range = ranges[pick(5)];
    RoundingErrorBound analysis(store,
                                [&](uint32_t) -> std::optional<ValueRange> { return range; });
    const auto r = analysis.bound(term);
    if (!r.bound)
      continue; // a divisor near 0, an overflow, ...: no claim to check
    ++bounded;
    std::uniform_real_distribution<float> dist(static_cast<float>(range.lo),
                                               static_cast<float>(range.hi));
    for (int s = 0; s < 100; ++s) {
      std::vector<float> xv(16), yv(16);
      Assignment point;
      for (uint32_t i = 0; i < 16; ++i) {
        xv[i] = s % 5 == 0 ? static_cast<float>(s % 10 == 0 ? range.hi : range.lo) : dist(rng);
        yv[i] = s % 7 == 0 ? static_cast<float>(range.hi) : dist(rng);
        point.values[Assignment::input_key(xs, i)] = Rational(static_cast<double>(xv[i]));
        point.values[Assignment::input_key(ys, i)] = Rational(static_cast<double>(yv[i]));
      }
      Evaluator exact(store, point);
      const Interval real = exact.eval(term).interval();
      uint8_t f = 0;
      const double dev = device(term, xv, yv, f);
      // The distance to the real value's enclosure (an exact value is a point; sqrt's is a
      // tight interval of long doubles).
      const double apart =
          std::max({0.0, static_cast<double>(real.lo) - dev, dev - static_cast<double>(real.hi)});
      ASSERT_LE(apart, r.bound->error)
          << "term " << t << " sample " << s << ": device " << dev << ", real in ["
          << static_cast<double>(real.lo) << ", " << static_cast<double>(real.hi) << "] over ["
          << range.lo << ", " << range.hi << "]";
    }
  }
  EXPECT_GT(bounded, terms / 3) << "most random terms get a bound";
}

TEST_F(RoundingErrorBoundTest, WhatItDoesNotBoundSaysWhy) {
  RoundingErrorBound analysis(store, [&](uint32_t array) -> std::optional<ValueRange> {
    if (array == xs)
      return ValueRange{-1, 1};
    return std::nullopt;
  });
  EXPECT_NE(analysis.bound(b.add(x(0), y(0), mods(kFormatF32))).why.find("y has no range"),
            std::string::npos);
  // A divisor whose range holds 0, and an overflow.
  EXPECT_NE(analysis.bound(b.div(x(1), x(2), mods(kFormatF32))).why.find("holds 0"),
            std::string::npos);
  const ExprId big = store.constant(Rational(std::ldexp(1.0, 127)));
  EXPECT_NE(
      analysis
          .bound(b.mul(b.add(x(3), store.constant(2L), mods(kFormatF32)), big, mods(kFormatF32)))
          .why.find("overflow"),
      std::string::npos);
  // A select on a comparison of a rounded sum: a rounding may flip it.
  const ExprId sum = b.add(x(0), x(1), mods(kFormatF32));
  const ExprId c = b.cmp(CmpKind::Lt, sum, x(2));
  EXPECT_NE(analysis.bound(b.select(c, x(0), x(1))).why.find("a rounding may flip it"),
            std::string::npos);
  // ... but not on a comparison of inputs.
  const ExprId exact_c = b.cmp(CmpKind::Lt, x(0), x(2));
  const auto sel = analysis.bound(b.select(exact_c, sum, x(1)));
  ASSERT_TRUE(sel.bound.has_value()) << sel.why;
  EXPECT_GT(sel.bound->error, 0.0);
}

} // namespace
} // namespace volta::symbolic
