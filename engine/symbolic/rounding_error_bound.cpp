#include "engine/symbolic/rounding_error_bound.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "engine/symbolic/exact_terms.hpp"
#include "engine/symbolic/float_fold.hpp"
#include "engine/symbolic/post_order.hpp"
#include "engine/symbolic/printer.hpp"
#include "support/invariant.hpp"

namespace volta::symbolic {

namespace {

constexpr double kInf = HUGE_VAL;

// One ulp outward: a double computed with one rounding, moved past the exact value it stands for.
double up(double x) {
  return std::nextafter(x, kInf);
}
double down(double x) {
  return std::nextafter(x, -kInf);
}
double mag(const ValueRange& r) {
  return std::max(std::fabs(r.lo), std::fabs(r.hi));
}
// The smallest |x| over the range (0 when it holds 0).
double min_mag(const ValueRange& r) {
  if (r.lo <= 0 && r.hi >= 0)
    return 0;
  return std::min(std::fabs(r.lo), std::fabs(r.hi));
}
ValueRange hull(const ValueRange& a, const ValueRange& b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}
ValueRange product(const ValueRange& a, const ValueRange& b) {
  const double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {down(*std::min_element(p, p + 4)), up(*std::max_element(p, p + 4))};
}
ValueRange sum(const ValueRange& a, const ValueRange& b) {
  return {down(a.lo + b.lo), up(a.hi + b.hi)};
}
ValueRange negated(const ValueRange& a) {
  return {-a.hi, -a.lo};
}

// What a float format's roundings may cost.
struct FormatErrors {
  double nearest_u = 0; // 2^-p: the relative error of a rounding to nearest
  double smallest_normal = 0;
  double smallest_subnormal = 0;
  double max_finite = 0;
};
std::optional<FormatErrors> format_errors(uint8_t format) {
  const auto layout = layout_of_format(format);
  if (!layout)
    return std::nullopt;
  const int emin = 2 - (1 << (layout->exp_bits - 1));
  const int emax = (1 << (layout->exp_bits - 1)) - 1;
  FormatErrors f;
  f.nearest_u = std::ldexp(1.0, -(layout->frac_bits + 1));
  f.smallest_normal = std::ldexp(1.0, emin);
  f.smallest_subnormal = std::ldexp(1.0, emin - layout->frac_bits);
  f.max_finite = std::ldexp(2.0 - std::ldexp(1.0, -layout->frac_bits), emax);
  return f;
}

} // namespace

RoundingErrorBound::RoundingErrorBound(const ExprStore& store, InputRange ranges,
                                       std::optional<ValueRange> params, uint64_t node_budget)
    : store_(store), exact_(store), ranges_(std::move(ranges)), params_(params),
      budget_(node_budget) {}

RoundingErrorBound::Entry RoundingErrorBound::fail(std::string why) {
  why_.push_back(std::move(why));
  Entry e;
  e.why = static_cast<int32_t>(why_.size() - 1);
  return e;
}

RoundingErrorBound::Entry RoundingErrorBound::operand(ExprId id, uint8_t format, bool ftz) {
  Entry e;
  if (store_.op(id) == Op::Const) {
    // A constant is the device's value in its own format (float_fold.hpp); an operation of
    // another format reads it rounded to nearest (a wider constant in a narrower operation).
    const double c = to_double(store_.rational(id));
    e.bound.value = {down(c), up(c)};
    const auto layout = layout_of_format(format);
    const auto f = format_errors(format);
    if (!layout || !f)
      return fail("an operation of no known float format reads a constant");
    if (!exact_ieee_bits(store_.rational(id), *layout)) {
      if (std::fabs(c) >= f->max_finite)
        return fail("a constant beyond the format's range");
      e.bound.error = up(up(f->nearest_u * up(std::fabs(c))) + f->smallest_subnormal);
    }
  } else {
    const Entry* known = memo(id);
    VOLTA_ASSERT(known != nullptr, "an operand is bounded before its user");
    e = *known;
    if (e.why >= 0)
      return e;
  }
  if (ftz) {
    const auto f = format_errors(format);
    if (!f)
      return fail("an operation of no known float format");
    e.bound.error = up(e.bound.error + f->smallest_normal); // a subnormal operand flushed
  }
  return e;
}

RoundingErrorBound::Result RoundingErrorBound::bound(ExprId root) {
  post_order(
      store_, root, [&](ExprId id) { return index_.find(id) != nullptr; },
      [&](ExprId, const Node&) { return visited_ < budget_; },
      [&](ExprId id) {
        ++visited_;
        if ((visited_ & 4095) == 0 && cancel_ != nullptr &&
            cancel_->load(std::memory_order_relaxed))
          budget_ = 0; // cancelled: every node from here on is past the budget
        if (visited_ > budget_) {
          index_.set(id, static_cast<uint32_t>(entries_.size()));
          entries_.push_back(fail("the term is over the analysis's budget of nodes"));
          return;
        }
        const Node& n = store_.node(id);
        const size_t reasons = why_.size();
        Entry e = compute(id, n);
        // The first node without a bound names itself; above it, its reason is handed on.
        if (e.why >= 0 && static_cast<size_t>(e.why) >= reasons)
          why_[static_cast<size_t>(e.why)] += fmt::format(": {}", to_sexpr(store_, id, 80));
        index_.set(id, static_cast<uint32_t>(entries_.size()));
        entries_.push_back(e);
      });
  const Entry& e = *memo(root);
  if (e.why >= 0)
    return Result{std::nullopt, why_[static_cast<size_t>(e.why)]};
  return Result{e.bound, ""};
}

RoundingErrorBound::Entry RoundingErrorBound::compute(ExprId id, const Node& n) {
  // (An operand without a bound hands its reason on: operand() returns its entry.)
  const ExprId kids[3] = {n.a, n.b, n.c};
  const FloatMods mods = has_float_mods(n.op) ? FloatMods::of(n.aux) : FloatMods{};
  // The operation's own error in its format (with_own_error).
  auto rounded = [&](ErrorBound b, double m, double ulps, double rel = 0, double abs = 0) {
    return with_own_error(b, mods, m, ulps, rel, abs);
  };
  // The error of a rounding by the instruction's mode, in ulps; nullopt when the mode's error is
  // not modelled.
  auto mode_ulps = [&]() -> std::optional<double> {
    switch (mods.mode) {
    case FloatMode::Default:
    case FloatMode::Rn:
      return 0.5;
    case FloatMode::Rz:
    case FloatMode::Rm:
    case FloatMode::Rp:
      return 1.0;
    case FloatMode::Approx:
    case FloatMode::Full:
    case FloatMode::Unspecified:
      return std::nullopt;
    }
    return std::nullopt;
  };
  auto arg = [&](int i) { return operand(kids[i], mods.format, mods.ftz); };
  // The operand of an operation that does not round (neg, abs, min, max), which a .ftz form may
  // still flush.
  auto exact_arg = [&](int i) {
    return operand(kids[i], mods.format != 0 ? mods.format : kFormatF64,
                   mods.format != 0 && mods.ftz);
  };

  switch (n.op) {
  case Op::Const: {
    const double c = to_double(store_.rational(id));
    Entry e;
    e.bound.value = {down(c), up(c)};
    return e; // as a root: the device's value itself (float_fold.hpp)
  }
  case Op::Input: {
    const auto r = ranges_ ? ranges_(n.a) : std::nullopt;
    if (!r)
      return fail(fmt::format("the input array {} has no range", store_.array_name(n.a)));
    Entry e;
    e.bound.value = *r;
    return e; // an element is its own value
  }
  case Op::Param: {
    if (!params_)
      return fail("a symbolic parameter has no range");
    Entry e;
    e.bound.value = *params_;
    return e;
  }
  case Op::Add:
  case Op::Sub: {
    const auto ulps = mode_ulps();
    if (!ulps)
      return fail("an addition of an unmodelled rounding mode");
    const Entry a = arg(0), b = arg(1);
    if (a.why >= 0)
      return a;
    if (b.why >= 0)
      return b;
    const ValueRange bv = n.op == Op::Add ? b.bound.value : negated(b.bound.value);
    ErrorBound r;
    r.value = sum(a.bound.value, bv);
    r.error = up(a.bound.error + b.bound.error);
    return rounded(r, up(mag(r.value) + r.error), *ulps);
  }
  case Op::Mul:
  case Op::Fma: {
    const auto ulps = mode_ulps();
    if (!ulps)
      return fail("a multiplication of an unmodelled rounding mode");
    const Entry a = arg(0), b = arg(1);
    if (a.why >= 0)
      return a;
    if (b.why >= 0)
      return b;
    ErrorBound r;
    r.value = product(a.bound.value, b.bound.value);
    const double ea = a.bound.error, eb = b.bound.error;
    r.error = up(up(up(mag(a.bound.value) * eb) + up(mag(b.bound.value) * ea)) + up(ea * eb));
    if (n.op == Op::Fma) {
      const Entry c = arg(2);
      if (c.why >= 0)
        return c;
      r.value = sum(r.value, c.bound.value);
      r.error = up(r.error + c.bound.error);
    }
    return rounded(r, up(mag(r.value) + r.error), *ulps);
  }
  case Op::Div:
  case Op::Rcp: {
    // div.full.f32 and div.approx.f32: 2 ulp (PTX ISA 9.1; div.approx only for a divisor of
    // magnitude at most 2^126, beyond which it returns 0); rcp.approx.f32: 1 ulp. Read as ulps
    // from the correctly rounded result, half an ulp more from the exact one.
    std::optional<double> ulps = mode_ulps();
    if (!ulps && mods.format == kFormatF32 &&
        (mods.mode == FloatMode::Full || mods.mode == FloatMode::Approx))
      ulps = n.op == Op::Div ? 2.5 : 1.5;
    if (!ulps)
      return fail("a division of an unmodelled rounding mode");
    Entry a;
    a.bound.value = {1, 1};
    if (n.op == Op::Div)
      a = arg(0);
    const Entry b = arg(n.op == Op::Div ? 1 : 0);
    if (a.why >= 0)
      return a;
    if (b.why >= 0)
      return b;
    const double bmin = min_mag(b.bound.value), eb = b.bound.error;
    if (!(bmin > eb))
      return fail("a divisor whose range, with its rounding error, holds 0");
    if (mods.mode == FloatMode::Approx && up(mag(b.bound.value) + eb) > std::ldexp(1.0, 126))
      return fail("div.approx of a divisor that may exceed 2^126");
    const double margin = down(bmin - eb); // |b'| >= margin > 0
    ErrorBound r;
    // a / b over the ranges: b keeps one sign.
    const ValueRange inv = {down(1 / b.bound.value.hi), up(1 / b.bound.value.lo)};
    r.value = product(a.bound.value, inv);
    // |a'/b' - a/b| = |e_a b - a e_b| / |b b'|.
    r.error = up(up(up(a.bound.error * mag(b.bound.value)) + up(mag(a.bound.value) * eb)) /
                 down(bmin * margin));
    return rounded(r, up(mag(r.value) + r.error), *ulps);
  }
  case Op::Sqrt: {
    // sqrt.approx.f32: a relative error of 2^-23 (PTX ISA 9.1).
    const bool approx = mods.mode == FloatMode::Approx && mods.format == kFormatF32;
    const auto ulps = approx ? std::optional<double>(0.0) : mode_ulps();
    if (!ulps)
      return fail("a square root of an unmodelled rounding mode");
    const Entry a = arg(0);
    if (a.why >= 0)
      return a;
    const double lo = a.bound.value.lo, ea = a.bound.error;
    if (!(lo >= 0) || (ea > 0 && !(lo > ea)))
      return fail("a square root of a value that rounding may make negative");
    ErrorBound r;
    r.value = {down(std::sqrt(lo)), up(std::sqrt(a.bound.value.hi))};
    // |sqrt(a') - sqrt(a)| = |e_a| / (sqrt(a') + sqrt(a)) <= E_a / (sqrt(lo - E_a) + sqrt(lo)).
    r.error = ea == 0 ? 0.0 : up(ea / down(down(std::sqrt(down(lo - ea))) + down(std::sqrt(lo))));
    return rounded(r, up(mag(r.value) + r.error), *ulps, approx ? std::ldexp(1.0, -23) : 0.0);
  }
  case Op::Narrow: {
    const auto ulps = mode_ulps();
    if (!ulps)
      return fail("a conversion of an unmodelled rounding mode");
    // The operand is read in its own format; the conversion rounds it to the narrower one.
    // .ftz flushes an f32 source (not the result of another format).
    Entry a = operand(kids[0], mods.format, false);
    if (a.why >= 0)
      return a;
    if (mods.ftz)
      a.bound.error = up(a.bound.error + std::ldexp(1.0, -126));
    return rounded(a.bound, up(mag(a.bound.value) + a.bound.error), *ulps);
  }
  case Op::Neg:
  case Op::Abs: {
    if (n.op == Op::Neg && store_.is_neg_zero(id)) {
      Entry e;
      return e; // -0: the real 0
    }
    const Entry a = exact_arg(0); // no rounding of its own
    if (a.why >= 0)
      return a;
    Entry e = a;
    if (n.op == Op::Neg) {
      e.bound.value = negated(a.bound.value);
    } else {
      const double lo = min_mag(a.bound.value);
      e.bound.value = {lo, mag(a.bound.value)};
    }
    return e;
  }
  case Op::Min:
  case Op::Max: {
    // 1-Lipschitz in each operand: the error of the larger of the two errors.
    const Entry a = exact_arg(0), b = exact_arg(1);
    if (a.why >= 0)
      return a;
    if (b.why >= 0)
      return b;
    Entry e;
    const ValueRange &x = a.bound.value, &y = b.bound.value;
    e.bound.value = n.op == Op::Min ? ValueRange{std::min(x.lo, y.lo), std::min(x.hi, y.hi)}
                                    : ValueRange{std::max(x.lo, y.lo), std::max(x.hi, y.hi)};
    e.bound.error = std::max(a.bound.error, b.bound.error);
    return e;
  }
  case Op::Select: {
    if (n.aux & kLiftedAux)
      return fail("a lifted idiom (its instruction sequences round differently)");
    // The device takes the branch the reals take only where nothing below the condition rounds.
    if (!exact_.exact(kids[0]))
      return fail("a select on a comparison of rounded values (a rounding may flip it)");
    const Entry a = operand(kids[1], kFormatF64, false), b = operand(kids[2], kFormatF64, false);
    if (a.why >= 0)
      return a;
    if (b.why >= 0)
      return b;
    Entry e;
    e.bound.value = hull(a.bound.value, b.bound.value);
    e.bound.error = std::max(a.bound.error, b.bound.error);
    return e;
  }
  case Op::Rsqrt:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
    return approximate(n);
  case Op::Exp:
  case Op::Ln2:
    return fail(fmt::format("a lifted idiom ({}): its instruction sequences round differently",
                            op_info(n.op).noun));
  case Op::PosInf:
  case Op::NegInf:
    return fail("an infinity");
  case Op::IntToReal:
    return fail("an integer converted to a float (integers have no range here)");
  case Op::RoundReal:
  case Op::RealToInt:
    return fail("a rounding to an integer (not continuous)");
  case Op::Undef:
  case Op::RawBits:
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return fail(fmt::format("a value that is not a real number ({})", op_info(n.op).noun));
  }
  unknown_op(n.op);
}

// The approximate instructions, each with the error the PTX ISA (9.1) documents for it, and the
// error of its operand carried through the function by its slope over the operand's range.
RoundingErrorBound::Entry RoundingErrorBound::approximate(const Node& n) {
  const FloatMods mods = FloatMods::of(n.aux);
  if (mods.mode != FloatMode::Approx || (n.aux & kLiftedAux))
    return fail(fmt::format("{} of an unmodelled form", op_info(n.op).noun));
  const auto f = format_errors(mods.format);
  if (!f)
    return fail("an operation of no known float format");
  const bool f32 = mods.format == kFormatF32, f16 = mods.format == kFormatF16,
             bf16 = mods.format == kFormatBF16;
  const Entry a = operand(n.a, mods.format, mods.ftz);
  if (a.why >= 0)
    return a;
  const double lo = a.bound.value.lo, hi = a.bound.value.hi, ea = a.bound.error;
  // The computed operand lies in [lo - ea, hi + ea].
  const double clo = down(lo - ea), chi = up(hi + ea);
  ErrorBound r;
  double rel = 0, abs = 0, ulps = 0;
  switch (n.op) {
  case Op::Rsqrt: {
    if (!f32)
      return fail("rsqrt.approx of a format whose error is not documented");
    if (!(clo > 0))
      return fail("rsqrt of a value that rounding may make 0 or negative");
    r.value = {down(1 / std::sqrt(hi)), up(1 / std::sqrt(lo))};
    // |x^-1/2 - y^-1/2| <= |x - y| max 1/2 t^-3/2 over t >= clo.
    r.error = up(ea * up(0.5 / down(clo * down(std::sqrt(clo)))));
    rel = std::ldexp(1.0, -22) / 1.8; // 2^-22.9 < 2^-22 / 1.8
    break;
  }
  case Op::Ex2: {
    if (!f32 && !f16 && !bf16)
      return fail("ex2.approx of a format whose error is not documented");
    if (!(chi < 1024))
      return fail("the result may overflow");
    r.value = {down(std::exp2(lo)), up(std::exp2(hi))};
    // |2^x' - 2^x| = 2^x |2^e - 1| <= 2^hi (2^ea - 1).
    r.error = up(up(std::exp2(hi)) * up(std::expm1(up(ea * 0.6931471805599454))));
    if (f32)
      ulps = 2.5; // 2 ulp from the correctly rounded result
    else
      rel = f16 ? std::ldexp(1.0, -9) / 1.8 : std::ldexp(1.0, -7); // 2^-9.9, 2^-7
    break;
  }
  case Op::Lg2: {
    if (!f32)
      return fail("lg2.approx of a format whose error is not documented");
    if (!(clo > 0))
      return fail("the logarithm of a value that rounding may make 0 or negative");
    r.value = {down(std::log2(lo)), up(std::log2(hi))};
    // |log2 x' - log2 x| <= |x' - x| / (min x' ln 2).
    r.error = up(ea / down(clo * 0.6931471805599453));
    // 2^-22 absolute on (0.5, 2), 2^-22 relative outside it.
    const double largest = std::max({1.0, std::fabs(std::log2(clo)), std::fabs(std::log2(chi))});
    abs = up(std::ldexp(1.0, -22) * up(largest * 1.0000001));
    break;
  }
  case Op::Sin:
  case Op::Cos: {
    if (!f32)
      return fail("sin/cos.approx of a format whose error is not documented");
    const double reach = std::max(std::fabs(clo), std::fabs(chi));
    const double pi = 3.1415926535897936; // above pi
    if (reach <= 2 * pi)
      abs = std::ldexp(1.0, -20); // 2^-20.5
    else if (reach <= 100 * pi)
      abs = std::ldexp(1.0, -14); // 2^-14.7
    else
      return fail("sin/cos.approx beyond [-100 pi, 100 pi], where its error is not documented");
    r.value = {-1, 1};
    r.error = ea; // 1-Lipschitz
    break;
  }
  case Op::Tanh: {
    r.value = {down(std::tanh(lo)), up(std::tanh(hi))};
    r.error = ea; // 1-Lipschitz
    if (f32)
      rel = std::ldexp(1.0, -11);
    else if (f16 || bf16)
      abs = f16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -8); // 2^-10.987, 2^-8
    else
      return fail("tanh.approx of a format whose error is not documented");
    break;
  }
  default:
    VOLTA_ASSERT(false, "approximate() takes the approximate functions only");
  }
  // The instruction's own error, against the exact function of the computed operand.
  return with_own_error(r, mods, up(mag(r.value) + r.error), ulps, rel, abs);
}

RoundingErrorBound::Entry RoundingErrorBound::with_own_error(ErrorBound b, FloatMods mods, double m,
                                                             double ulps, double rel, double abs) {
  const auto f = format_errors(mods.format);
  if (!f)
    return fail("an operation of no known float format");
  if (!(m < f->max_finite))
    return fail("the result may overflow");
  // An ulp of x is at most 2^(1-p) |x| where x is normal, the smallest subnormal below.
  // (k ulp of the rounded result is at most k 2^(1-p) (1 + 2^-p) |x|: the 2^-10 covers it.)
  const double relative = up(up(2 * ulps * f->nearest_u + rel) * (1 + 0x1p-10));
  double eta = up(std::max(ulps, 1.0) * f->smallest_subnormal + abs);
  if (mods.ftz)
    eta = up(eta + f->smallest_normal); // a tiny result flushed to zero
  b.error = up(up(b.error + up(relative * m)) + eta);
  Entry e;
  e.bound = b;
  return e;
}

} // namespace volta::symbolic
