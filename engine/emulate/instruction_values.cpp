// Per-thread value semantics of the emulator: integers (exact two's complement), floats
// (float_semantics.hpp), comparisons, selection, moves and conversions.
#include <bit>
#include <cmath>
#include <fmt/format.h>

#include "engine/emulate/machine.hpp"
#include "engine/exec/address_map.hpp"
#include "engine/exec/cluster_address.hpp"
#include "engine/exec/instruction_family.hpp"
#include "engine/exec/special_registers.hpp"
#include "ptx/ast.hpp"
#include "support/invariant.hpp"

namespace volta::emulate {

using exec::Family;
using exec::Inst;
using exec::ValType;
using exec::XOp;

FloatFormat float_format(ValType t) {
  switch (t) {
  case ValType::F16:
  case ValType::F16x2:
    return FloatFormat::F16;
  case ValType::BF16:
  case ValType::BF16x2:
    return FloatFormat::BF16;
  case ValType::F64:
    return FloatFormat::F64;
  default:
    return FloatFormat::F32;
  }
}

RoundMode round_mode(exec::Rounding r) {
  switch (r) {
  case exec::Rounding::Rz:
  case exec::Rounding::Rzi:
    return RoundMode::TowardZero;
  case exec::Rounding::Rm:
  case exec::Rounding::Rmi:
    return RoundMode::Down;
  case exec::Rounding::Rp:
  case exec::Rounding::Rpi:
    return RoundMode::Up;
  default:
    return RoundMode::NearestEven;
  }
}

namespace {

using u128 = unsigned __int128;
using s128 = __int128;

uint64_t saturate_signed(s128 v, uint32_t w) {
  const s128 hi = (s128{1} << (w - 1)) - 1;
  const s128 lo = -(s128{1} << (w - 1));
  return static_cast<uint64_t>(v > hi ? hi : v < lo ? lo : v);
}

uint64_t bit_reverse(uint64_t v, uint32_t w) {
  uint64_t r = 0;
  for (uint32_t i = 0; i < w; ++i)
    r |= ((v >> i) & 1u) << (w - 1 - i);
  return r;
}

bool packed(ValType t) {
  return t == ValType::F16x2 || t == ValType::BF16x2;
}

} // namespace

void Cta::exec_selp(const Inst& in, uint32_t t) {
  const bool c = (read(in.srcs[2], t, ValType::Pred) & 1u) != 0;
  write(in.dsts[0], t, read(in.srcs[c ? 0 : 1], t, in.type));
}

void Cta::exec_cvta(const Inst& in, uint32_t t) {
  if (in.op == XOp::Mapa) {
    const exec::MappedAddress r = exec::map_shared_address(
        read(in.srcs[0], t, in.type), read(in.srcs[1], t, ValType::U32) & 0xffffffffu,
        *exec::launch_special_value(exec::Special::ClusterCtaRank, launch_.config, ctaid_, t),
        *exec::launch_special_value(exec::Special::ClusterNCtaRank, launch_.config, ctaid_, t));
    if (!r.address)
      throw Trouble(r.outside_cluster ? "out of bounds" : "unsupported", r.why);
    write(in.dsts[0], t, *r.address);
    return;
  }
  uint64_t window = 0;
  if (in.space == exec::Space::Shared)
    window = exec::kSharedWindow;
  else if (in.space == exec::Space::Local)
    window = exec::kLocalWindow;
  else if (in.space == exec::Space::Const)
    window = exec::kConstWindow;
  const uint64_t a = read(in.srcs[0], t, in.type);
  write(in.dsts[0], t, low_bits(in.sub == 1 ? a - window : a + window, exec::width_of(in.type)));
}

template <size_t N, class Value>
bool Cta::values_warp(const Inst& in, uint32_t w, uint32_t mask, const ValType (&as)[N],
                      Value value) {
  if (in.dsts.size() != 1 || in.dsts[0].kind != exec::OpKind::Reg || in.srcs.size() > N)
    return false;
  const uint32_t base = w * 32;
  // Each source: a register's column of this warp (a predicate possibly negated), or one
  // immediate for every lane; anything else goes lane by lane.
  const uint64_t* column[N] = {};
  bool negated[N] = {};
  uint64_t immediate[N] = {};
  for (size_t i = 0; i < in.srcs.size(); ++i) {
    const exec::Operand& o = in.srcs[i];
    if (o.kind == exec::OpKind::Reg) {
      column[i] = &reg(o.reg, base);
      negated[i] = o.negated;
    } else if (o.kind == exec::OpKind::Imm) {
      immediate[i] = read(o, base, as[i]); // an immediate reads the same in every lane
    } else {
      return false;
    }
  }
  const uint32_t dst = in.dsts[0].reg;
  const uint32_t out_width = reg_width_[dst];
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const auto l = static_cast<uint32_t>(std::countr_zero(m));
    thread_now_ = base + l; // the thread of an error the value throws
    uint64_t x[N] = {};
    for (size_t i = 0; i < N; ++i) {
      if (column[i] == nullptr)
        x[i] = immediate[i];
      else
        x[i] = negated[i] ? (~column[i][l] & 1u) : column[i][l]; // read()'s rule
    }
    // Computed before the store: the destination may be a source.
    const uint64_t r = value(x);
    reg(dst, base + l) = low_bits(r, out_width);
  }
  return true;
}

bool Cta::values_warp_applies(const Inst& in, uint32_t pc) const {
  switch (exec::family_of(in.op)) {
  case Family::Integer:
    return in.srcs.size() <= 4;
  case Family::Float:
    return (launch_.flags[pc] & kFlagXorSign) == 0 && in.srcs.size() <= 3;
  case Family::Compare: // setp with one destination; set
    return !packed(in.op == XOp::Set ? in.type2 : in.type) && in.dsts.size() == 1;
  case Family::Select:
    return in.srcs.size() == 3;
  case Family::Move:
    return in.sub == 0 && in.srcs.size() == 1;
  default:
    return false;
  }
}

bool Cta::generic_warp(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  if (!values_warp_applies(in, pc))
    return false;
  switch (exec::family_of(in.op)) {
  case Family::Integer: {
    const ValType t = in.type;
    return values_warp(in, w, mask, {t, t, t, t},
                       [&](const uint64_t(&x)[4]) { return integer_result(in, x); });
  }
  case Family::Float: {
    const ValType t = in.type;
    return values_warp(in, w, mask, {t, t, t},
                       [&](const uint64_t(&x)[3]) { return float_result(in, x); });
  }
  case Family::Compare: {
    const ValType t = in.op == XOp::Set ? in.type2 : in.type;
    return values_warp(in, w, mask, {t, t, ValType::Pred},
                       [&](const uint64_t(&x)[3]) { return compare_result(in, x); });
  }
  case Family::Select: {
    const ValType t = in.type;
    return values_warp(in, w, mask, {t, t, ValType::Pred},
                       [&](const uint64_t(&x)[3]) { return (x[2] & 1u) != 0 ? x[0] : x[1]; });
  }
  case Family::Move: {
    const uint32_t width = in.type == ValType::Pred ? 1 : exec::width_of(in.type);
    return values_warp(in, w, mask, {in.type},
                       [&](const uint64_t(&x)[1]) { return low_bits(x[0], width); });
  }
  default:
    return false;
  }
}

uint64_t Cta::integer_result(const Inst& in, const uint64_t (&x)[4]) {
  const ValType type = in.type;
  const uint32_t w = type == ValType::Pred ? 1 : exec::width_of(type);
  const bool sgn = exec::is_signed(type);
  auto src = [&](size_t i) { return low_bits(x[i], w); };
  auto sx = [&](uint64_t v) { return sign_extend(v, w); };
  auto out = [&](uint64_t v) { return low_bits(v, w); };
  switch (in.op) {
  case XOp::IAdd:
  case XOp::ISub: {
    const uint64_t a = src(0), b = src(1);
    if (in.sat && sgn) {
      const s128 r = in.op == XOp::IAdd ? s128{sx(a)} + sx(b) : s128{sx(a)} - sx(b);
      return out(saturate_signed(r, w));
    }
    return out(in.op == XOp::IAdd ? a + b : a - b);
  }
  case XOp::IMulLo:
  case XOp::IMadLo:
    return out(src(0) * src(1) + (in.op == XOp::IMadLo ? src(2) : 0));
  case XOp::IMulHi:
  case XOp::IMadHi: {
    const s128 p =
        sgn ? s128{sx(src(0))} * sx(src(1)) : static_cast<s128>(u128{src(0)} * u128{src(1)});
    uint64_t hi = static_cast<uint64_t>(static_cast<u128>(p) >> w);
    if (in.op == XOp::IMadHi) {
      if (in.sat && sgn)
        return out(saturate_signed(s128{sign_extend(hi, w)} + sx(src(2)), w));
      hi += src(2);
    }
    return out(hi);
  }
  case XOp::IMulWide:
  case XOp::IMadWide: {
    const uint64_t a = src(0), b = src(1);
    uint64_t p = sgn ? static_cast<uint64_t>(sx(a) * sx(b)) : a * b; // w <= 32
    if (w > 32)
      throw Trouble("unsupported", "mul.wide of 64-bit operands");
    if (in.op == XOp::IMadWide)
      p += x[2];
    return low_bits(p, 2 * w);
  }
  case XOp::IMul24Lo:
  case XOp::IMad24Lo: {
    const uint64_t a = src(0) & 0xffffff, b = src(1) & 0xffffff;
    const uint64_t p = sgn ? static_cast<uint64_t>(sign_extend(a, 24) * sign_extend(b, 24)) : a * b;
    return out(p + (in.op == XOp::IMad24Lo ? src(2) : 0));
  }
  case XOp::IDiv:
  case XOp::IRem: {
    const uint64_t a = src(0), b = src(1);
    if (b == 0)
      throw Trouble("undefined", "integer division by zero (the result is unspecified)");
    if (sgn) {
      const s128 x = sx(a), y = sx(b);
      return out(static_cast<uint64_t>(in.op == XOp::IDiv ? x / y : x % y));
    }
    return out(in.op == XOp::IDiv ? a / b : a % b);
  }
  case XOp::IAbs:
    return out(sx(src(0)) < 0 ? 0 - src(0) : src(0));
  case XOp::INeg:
    return out(0 - src(0));
  case XOp::IMin:
  case XOp::IMax: {
    const uint64_t a = src(0), b = src(1);
    const bool a_less = sgn ? sx(a) < sx(b) : a < b;
    uint64_t r = (in.op == XOp::IMin) == a_less ? a : b;
    if (in.relu && sx(r) < 0)
      r = 0;
    return out(r);
  }
  case XOp::And:
    return out(src(0) & src(1));
  case XOp::Or:
    return out(src(0) | src(1));
  case XOp::Xor:
    return out(src(0) ^ src(1));
  case XOp::Not:
    return out(~src(0));
  case XOp::CNot:
    return out(src(0) == 0 ? 1 : 0);
  case XOp::Shl:
  case XOp::Shr: {
    const uint64_t a = src(0);
    const uint64_t n = low_bits(x[1], 32);
    if (in.op == XOp::Shl)
      return out(n >= w ? 0 : a << n);
    if (sgn)
      return out(static_cast<uint64_t>(sx(a) >> std::min<uint64_t>(n, 63)));
    return out(n >= w ? 0 : a >> n);
  }
  case XOp::Popc:
    return static_cast<uint64_t>(std::popcount(src(0)));
  case XOp::Clz:
    return std::countl_zero(src(0)) - (64 - w);
  case XOp::Brev:
    return out(bit_reverse(src(0), w));
  case XOp::Bfind: {
    // PTX ISA, bfind: the position of the most significant non-sign bit (of a negative signed
    // operand, its most significant 0), 0xffffffff where there is none; with .shiftamt the left
    // shift that brings it to the top, w - 1 - position, instead. A u32 whatever the width.
    uint64_t a = src(0);
    if (sgn && sx(a) < 0)
      a = low_bits(~a, w);
    if (a == 0)
      return 0xffffffffu;
    const uint32_t position = 63 - static_cast<uint32_t>(std::countl_zero(a));
    return in.sub == 1 ? w - 1 - position : position;
  }
  case XOp::Bfe: {
    const uint64_t a = src(0);
    const uint32_t pos = x[1] & 0xff;
    const uint32_t len = x[2] & 0xff;
    const uint32_t msb = w - 1;
    uint64_t sbit = 0;
    if (sgn && len != 0)
      sbit = (a >> std::min(pos + len - 1, msb)) & 1u;
    uint64_t r = 0;
    for (uint32_t i = 0; i <= msb; ++i) {
      const uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1u : sbit;
      r |= bit << i;
    }
    return out(r);
  }
  case XOp::Bfi: {
    const uint64_t a = src(0);
    uint64_t r = src(1);
    const uint32_t pos = x[2] & 0xff;
    const uint32_t len = x[3] & 0xff;
    for (uint32_t i = 0; i < len && pos + i < w; ++i)
      r = (r & ~(uint64_t{1} << (pos + i))) | (((a >> i) & 1u) << (pos + i));
    return out(r);
  }
  case XOp::Prmt: {
    if (launch_.flags[pc_now_] & kFlagPrmtMode)
      throw Trouble("unsupported", "prmt with a mode is not supported by the emulator");
    const uint64_t bytes = (src(1) << 32) | src(0);
    const uint32_t sel = static_cast<uint32_t>(src(2));
    uint64_t r = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t s = (sel >> (4 * i)) & 0xf;
      uint64_t byte = (bytes >> (8 * (s & 7))) & 0xff;
      if (s & 8)
        byte = (byte & 0x80) ? 0xff : 0;
      r |= byte << (8 * i);
    }
    return out(r);
  }
  case XOp::Lop3: {
    const uint64_t a = src(0), b = src(1), c = src(2);
    const uint32_t lut = static_cast<uint32_t>(x[3]) & 0xff;
    uint64_t r = 0;
    for (uint32_t i = 0; i < w; ++i) {
      const uint32_t idx =
          static_cast<uint32_t>(((a >> i) & 1u) << 2 | ((b >> i) & 1u) << 1 | ((c >> i) & 1u));
      r |= uint64_t{(lut >> idx) & 1u} << i;
    }
    return out(r);
  }
  case XOp::ShfL:
  case XOp::ShfR: {
    const uint64_t a = src(0) & 0xffffffffu, b = src(1) & 0xffffffffu;
    const uint32_t c = static_cast<uint32_t>(x[2]);
    const uint32_t n = (launch_.flags[pc_now_] & kFlagWrap) ? (c & 31) : std::min<uint32_t>(c, 32);
    const uint64_t both = (b << 32) | a;
    if (in.op == XOp::ShfL)
      return out(n == 0 ? b : (both << n) >> 32);
    return out(n == 32 ? b : both >> n);
  }
  case XOp::Sad: {
    const uint64_t a = src(0), b = src(1);
    const bool a_less = sgn ? sx(a) < sx(b) : a < b;
    return out(src(2) + (a_less ? b - a : a - b));
  }
  default:
    throw Trouble("unsupported", "this instruction is not supported by the emulator");
  }
}

void Cta::exec_integer(const Inst& in, uint32_t t) {
  // Each source read as the operation's type: an integer operand's bits whatever the type (the
  // shift counts, bfe/bfi positions and prmt/lop3 selectors are read as u32 alike).
  uint64_t x[4] = {};
  for (size_t i = 0; i < in.srcs.size() && i < 4; ++i)
    x[i] = read(in.srcs[i], t, in.type);
  write(in.dsts[0], t, integer_result(in, x));
}

bool Cta::float_warp(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  Arith op = Arith::Add;
  switch (in.op) {
  case XOp::FAdd:
    op = Arith::Add;
    break;
  case XOp::FSub:
    op = Arith::Sub;
    break;
  case XOp::FMul:
    op = Arith::Mul;
    break;
  case XOp::FFma:
    op = Arith::Fma;
    break;
  default:
    return false;
  }
  const bool half = in.type == ValType::F16 || in.type == ValType::BF16;
  if ((in.type != ValType::F32 && !half) || round_mode(in.rounding) != RoundMode::NearestEven ||
      in.ftz || in.sat || in.relu || (launch_.flags[pc] & (kFlagNaN | kFlagXorSign)) != 0 ||
      in.dsts.empty() || in.dsts[0].kind != exec::OpKind::Reg || in.srcs.size() > 3)
    return false;
  const uint32_t base = w * 32;
  // Each source: a register's column of this warp, or one immediate for every lane.
  F32Operands x;
  for (size_t i = 0; i < in.srcs.size(); ++i) {
    const exec::Operand& o = in.srcs[i];
    if (o.kind == exec::OpKind::Reg && !o.negated)
      x.column[i] = &reg(o.reg, base);
    else if (o.kind == exec::OpKind::Imm)
      x.immediate[i] = read(o, base, in.type);
    else
      return false;
  }
  uint64_t* out = &reg(in.dsts[0].reg, base);
  const uint32_t out_width = reg_width_[in.dsts[0].reg];
  if (half)
    return arith_half_lanes(op, float_format(in.type), x, mask, out, out_width);
  return arith_f32_lanes(op, x, mask, out, out_width);
}

uint64_t Cta::float_result(const Inst& in, const uint64_t (&srcs)[3]) {
  const ValType type = in.type;
  const FloatFormat f = float_format(type);
  const uint32_t lanes = packed(type) ? 2 : 1;
  const uint32_t lw = format_bits(f);
  const RoundMode mode = round_mode(in.rounding);
  const bool propagate_nan = (launch_.flags[pc_now_] & kFlagNaN) != 0;
  uint64_t result = 0;
  for (uint32_t k = 0; k < lanes; ++k) {
    uint64_t x[3];
    for (int i = 0; i < 3; ++i) {
      x[i] = low_bits(srcs[i] >> (k * lw), lw);
      if (in.ftz)
        x[i] = flush(f, x[i]);
    }
    uint64_t r = 0;
    switch (in.op) {
    case XOp::FAdd:
      r = arith(Arith::Add, f, mode, x[0], x[1], 0, in.ftz);
      break;
    case XOp::FSub:
      r = arith(Arith::Sub, f, mode, x[0], x[1], 0, in.ftz);
      break;
    case XOp::FMul:
      r = arith(Arith::Mul, f, mode, x[0], x[1], 0, in.ftz);
      break;
    case XOp::FFma:
      r = arith(Arith::Fma, f, mode, x[0], x[1], x[2], in.ftz);
      break;
    case XOp::FDiv:
      if (in.approx || (f == FloatFormat::F32 && in.rounding == exec::Rounding::None)) {
        // div.approx.f32 returns 0 (NaN for an infinite dividend) when 2^126 < |b| < 2^128.
        const double b = std::fabs(decode(f, x[1]));
        if (in.approx && f == FloatFormat::F32 && b > 0x1p126 && std::isfinite(b)) {
          r = std::isinf(decode(f, x[0])) ? canonical_nan(f) : 0;
          if (decode(f, x[0]) != 0 && !std::isinf(decode(f, x[0])) && !is_nan(f, x[0]))
            ++real_arithmetic_events().underflow; // a nonzero quotient read as 0
          break;
        }
        r = divide_nearest(f, x[0], x[1]);
      } else {
        r = arith(Arith::Div, f, mode, x[0], x[1], 0, in.ftz);
      }
      break;
    case XOp::FRcp:
      r = in.approx ? approx(Approx::Rcp, f, x[0]) : arith(Arith::Rcp, f, mode, x[0], 0, 0, in.ftz);
      break;
    case XOp::FSqrt:
      r = in.approx ? approx(Approx::Sqrt, f, x[0])
                    : arith(Arith::Sqrt, f, mode, x[0], 0, 0, in.ftz);
      break;
    case XOp::FRsqrt:
      r = approx(Approx::Rsqrt, f, x[0]);
      break;
    case XOp::FNeg:
      r = x[0] ^ (uint64_t{1} << (lw - 1));
      break;
    case XOp::FAbs:
      r = x[0] & ~(uint64_t{1} << (lw - 1));
      break;
    case XOp::FMin:
      r = fmin(f, x[0], x[1], propagate_nan);
      break;
    case XOp::FMax:
      r = fmax(f, x[0], x[1], propagate_nan);
      break;
    case XOp::FEx2:
      r = approx(Approx::Ex2, f, x[0]);
      break;
    case XOp::FLg2:
      r = approx(Approx::Lg2, f, x[0]);
      break;
    case XOp::FSin:
      r = approx(Approx::Sin, f, x[0]);
      break;
    case XOp::FCos:
      r = approx(Approx::Cos, f, x[0]);
      break;
    case XOp::FTanh:
      r = approx(Approx::Tanh, f, x[0]);
      break;
    case XOp::FCopysign: { // the bits of b with the sign bit of a (NaNs included)
      const uint64_t sign = uint64_t{1} << (lw - 1);
      r = (x[1] & ~sign) | (x[0] & sign);
      break;
    }
    default:
      throw Trouble("unsupported", "this float instruction is not supported by the emulator");
    }
    if (in.relu) {
      if (is_nan(f, r))
        r = canonical_nan(f);
      else if (decode(f, r) < 0 || (r >> (lw - 1)) != 0)
        r = 0;
    }
    if (in.sat)
      r = saturate(f, r);
    if (in.ftz)
      r = flush(f, r);
    result |= low_bits(r, lw) << (k * lw);
  }
  return result;
}

void Cta::exec_float(const Inst& in, uint32_t t) {
  if (launch_.flags[pc_now_] & kFlagXorSign)
    throw Trouble("unsupported", ".xorsign is not supported by the emulator");
  uint64_t srcs[3] = {};
  for (size_t i = 0; i < in.srcs.size() && i < 3; ++i)
    srcs[i] = read(in.srcs[i], t, in.type);
  write(in.dsts[0], t, float_result(in, srcs));
}

namespace {

bool compare(uint8_t cmp, ValType type, uint64_t a, uint64_t b, bool ftz) {
  using ptx::CmpOp;
  const auto op = static_cast<CmpOp>(cmp);
  if (exec::is_float(type)) {
    const FloatFormat f = float_format(type);
    if (ftz) {
      a = flush(f, a);
      b = flush(f, b);
    }
    const double x = decode(f, a), y = decode(f, b);
    const bool unordered = std::isnan(x) || std::isnan(y);
    switch (op) {
    case CmpOp::Eq:
      return !unordered && x == y;
    case CmpOp::Ne:
      return !unordered && x != y;
    case CmpOp::Lt:
      return !unordered && x < y;
    case CmpOp::Le:
      return !unordered && x <= y;
    case CmpOp::Gt:
      return !unordered && x > y;
    case CmpOp::Ge:
      return !unordered && x >= y;
    case CmpOp::Equ:
      return unordered || x == y;
    case CmpOp::Neu:
      return unordered || x != y;
    case CmpOp::Ltu:
      return unordered || x < y;
    case CmpOp::Leu:
      return unordered || x <= y;
    case CmpOp::Gtu:
      return unordered || x > y;
    case CmpOp::Geu:
      return unordered || x >= y;
    case CmpOp::Num:
      return !unordered;
    case CmpOp::Nan:
      return unordered;
    default:
      throw Trouble("unsupported", "comparison not valid for floats");
    }
  }
  const uint32_t w = type == ValType::Pred ? 1 : exec::width_of(type);
  a = low_bits(a, w);
  b = low_bits(b, w);
  const bool sgn = exec::is_signed(type);
  const bool lt = sgn ? sign_extend(a, w) < sign_extend(b, w) : a < b;
  switch (op) {
  case CmpOp::Eq:
    return a == b;
  case CmpOp::Ne:
    return a != b;
  case CmpOp::Lt:
    return lt;
  case CmpOp::Le:
    return lt || a == b;
  case CmpOp::Gt:
    return !lt && a != b;
  case CmpOp::Ge:
    return !lt;
  case CmpOp::Lo:
    return a < b;
  case CmpOp::Ls:
    return a <= b;
  case CmpOp::Hi:
    return a > b;
  case CmpOp::Hs:
    return a >= b;
  default:
    throw Trouble("unsupported", "comparison not valid for integers");
  }
}

bool combine(uint8_t bool_op, bool r, bool c) {
  switch (static_cast<ptx::BoolOp>(bool_op)) {
  case ptx::BoolOp::And:
    return r && c;
  case ptx::BoolOp::Or:
    return r || c;
  case ptx::BoolOp::Xor:
    return r != c;
  default:
    return r;
  }
}

} // namespace

uint64_t Cta::compare_result(const Inst& in, const uint64_t (&x)[3]) {
  const ValType stype = in.op == XOp::Set ? in.type2 : in.type;
  const bool r = compare(in.cmp, stype, x[0], x[1], in.ftz);
  const bool has_c = in.srcs.size() > 2;
  const bool c = has_c && (x[2] & 1u) != 0;
  const bool p = has_c ? combine(in.bool_op, r, c) : r;
  if (in.op == XOp::Setp)
    return p ? 1 : 0;
  uint64_t v = 0;
  if (exec::is_float(in.type))
    v = p ? encode(float_format(in.type), 1.0, RoundMode::NearestEven) : 0;
  else
    v = p ? ~uint64_t{0} : 0;
  return low_bits(v, exec::width_of(in.type));
}

void Cta::exec_setp(const Inst& in, uint32_t t) {
  const ValType stype = in.op == XOp::Set ? in.type2 : in.type;
  if (packed(stype))
    throw Trouble("unsupported", "packed comparisons are not supported by the emulator");
  const bool has_c = in.srcs.size() > 2;
  const uint64_t x[3] = {read(in.srcs[0], t, stype), read(in.srcs[1], t, stype),
                         has_c ? read(in.srcs[2], t, ValType::Pred) : 0};
  write(in.dsts[0], t, compare_result(in, x));
  if (in.op == XOp::Setp && in.dsts.size() > 1) {
    const bool r = compare(in.cmp, stype, x[0], x[1], in.ftz);
    const bool c = has_c && (x[2] & 1u) != 0;
    write(in.dsts[1], t, (has_c ? combine(in.bool_op, !r, c) : !r) ? 1 : 0);
  }
}

void Cta::exec_mov(const Inst& in, uint32_t t) {
  const uint32_t w = in.type == ValType::Pred ? 1 : exec::width_of(in.type);
  if (in.sub == 1) { // pack: element 0 in the low bits
    const uint32_t part = w / static_cast<uint32_t>(in.srcs.size());
    uint64_t v = 0;
    for (size_t i = 0; i < in.srcs.size(); ++i)
      v |= low_bits(read(in.srcs[i], t, ValType::None), part) << (i * part);
    return write(in.dsts[0], t, v);
  }
  if (in.sub == 2) { // unpack
    const uint32_t part = w / static_cast<uint32_t>(in.dsts.size());
    const uint64_t v = read(in.srcs[0], t, ValType::None);
    for (size_t i = 0; i < in.dsts.size(); ++i)
      write(in.dsts[i], t, low_bits(v >> (i * part), part));
    return;
  }
  write(in.dsts[0], t, low_bits(read(in.srcs[0], t, in.type), w));
}

bool Cta::convert_warp(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  if (in.srcs.size() != 1 || packed(in.type) || in.type == ValType::TF32 ||
      in.type2 == ValType::TF32 || (launch_.flags[pc] & kFlagRna) != 0)
    return false; // exec_cvt's refusals and its packed form
  const bool narrow_register = in.srcs[0].kind == exec::OpKind::Reg && !in.srcs[0].negated &&
                               in.dsts.size() == 1 && in.dsts[0].kind == exec::OpKind::Reg &&
                               exec::width_of(in.type2) <= 16 && exec::width_of(in.type2) != 0;
  if (in.srcs[0].kind == exec::OpKind::Reg && !in.srcs[0].negated && in.dsts.size() == 1 &&
      in.dsts[0].kind == exec::OpKind::Reg && in.type2 == ValType::F32 &&
      (in.type == ValType::F16 || in.type == ValType::BF16) && !in.ftz && !in.sat && !in.relu &&
      in.rounding < exec::Rounding::Rni && round_mode(in.rounding) == RoundMode::NearestEven) {
    // The narrowing of every f32 result an f16/bf16 kernel stores (convert_result's path, in
    // one loop): its events make it no memo's.
    const FloatFormat to = float_format(in.type);
    const uint32_t src = in.srcs[0].reg, dst = in.dsts[0].reg;
    const uint32_t base = w * 32;
    const uint32_t width = reg_width_[dst];
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t t = base + static_cast<uint32_t>(std::countr_zero(m));
      reg(dst, t) = low_bits(narrow_f32_nearest(to, static_cast<uint32_t>(reg(src, t))), width);
    }
    return true;
  }
  ConversionMemo::Table* table =
      narrow_register
          ? launch_.conversions.table(
                ConversionMemo::shape_of(in, launch_.flags[pc], reg_width_[in.dsts[0].reg]),
                static_cast<uint32_t>(std::popcount(mask)))
          : nullptr;
  if (table == nullptr) {
    return values_warp(in, w, mask, {in.type2},
                       [&](const uint64_t(&x)[1]) { return convert_result(in, x[0]); });
  }
  ConversionMemo::Table& memo = *table;
  const uint32_t source_width = exec::width_of(in.type2);
  const uint32_t src = in.srcs[0].reg, dst = in.dsts[0].reg;
  const RealArithmeticEvents& events = real_arithmetic_events();
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + static_cast<uint32_t>(std::countr_zero(m));
    const auto s = static_cast<uint32_t>(low_bits(reg(src, t), source_width));
    if (memo.known[s] != 0) {
      reg(dst, t) = memo.result[s];
      continue;
    }
    thread_now_ = t;
    const uint64_t before = events.count();
    exec_cvt(in, t);
    if (events.count() == before) {
      memo.result[s] = reg(dst, t);
      memo.known[s] = 1;
    }
  }
  return true;
}

void Cta::exec_cvt(const Inst& in, uint32_t t) {
  const ValType dt = in.type, st = in.type2;
  if (dt == ValType::TF32 || st == ValType::TF32 || (launch_.flags[pc_now_] & kFlagRna))
    throw Trouble("unsupported", "tf32 / .rna conversions are not supported by the emulator");
  const RoundMode mode = round_mode(in.rounding);
  if (packed(dt)) { // cvt.rn.f16x2.f32 d, a, b: a in the upper half
    if (in.srcs.size() != 2 || st != ValType::F32)
      throw Trouble("unsupported", "this packed conversion is not supported by the emulator");
    const FloatFormat f = float_format(dt);
    uint64_t halves[2];
    for (int i = 0; i < 2; ++i) {
      uint64_t s = read(in.srcs[i], t, ValType::F32);
      if (in.ftz)
        s = flush(FloatFormat::F32, s);
      uint64_t h = convert(f, decode(FloatFormat::F32, s), mode);
      if (in.relu && (decode(f, h) < 0 || (h & 0x8000)))
        h = is_nan(f, h) ? canonical_nan(f) : 0;
      if (in.sat)
        h = saturate(f, h);
      halves[i] = h;
    }
    return write(in.dsts[0], t, halves[0] << 16 | halves[1]);
  }
  write(in.dsts[0], t, convert_result(in, read(in.srcs[0], t, st)));
}

uint64_t Cta::convert_result(const Inst& in, uint64_t source) {
  const ValType dt = in.type, st = in.type2;
  const RoundMode mode = round_mode(in.rounding);
  const uint32_t dw = exec::width_of(dt), sw = exec::width_of(st);
  uint64_t s = low_bits(source, sw);
  const bool dfloat = exec::is_float(dt), sfloat = exec::is_float(st);
  uint64_t r = 0;
  if (sfloat) {
    const FloatFormat sf = float_format(st);
    // The widening and narrowing every f16/bf16 kernel makes per element, from the bits.
    const bool plain =
        dfloat && !in.ftz && !in.sat && !in.relu && in.rounding < exec::Rounding::Rni;
    if (plain && dt == ValType::F32 && (st == ValType::F16 || st == ValType::BF16))
      return widen_to_f32(sf, static_cast<uint16_t>(s));
    if (plain && st == ValType::F32 && (dt == ValType::F16 || dt == ValType::BF16) &&
        mode == RoundMode::NearestEven)
      return narrow_f32_nearest(float_format(dt), static_cast<uint32_t>(s));
    if (in.ftz && sf == FloatFormat::F32)
      s = flush(sf, s);
    double x = decode(sf, s);
    if (dfloat) {
      const FloatFormat df = float_format(dt);
      const bool integral = in.rounding >= exec::Rounding::Rni;
      if (integral)
        x = round_integral(x, mode);
      r = convert(df, x, integral ? RoundMode::NearestEven : mode);
      if (in.relu && !std::isnan(x) && (x < 0 || std::signbit(x)))
        r = 0;
      if (in.sat)
        r = saturate(df, r);
      if (in.ftz && df == FloatFormat::F32)
        r = flush(df, r);
    } else { // float -> integer: round, then clamp to the destination range; NaN gives 0
      if (std::isnan(x)) {
        r = 0;
      } else {
        x = round_integral(x, mode);
        const bool dsgn = exec::is_signed(dt);
        const double lo = dsgn ? -std::ldexp(1.0, dw - 1) : 0.0;
        const double hi = dsgn ? std::ldexp(1.0, dw - 1) - 1 : std::ldexp(1.0, dw) - 1;
        if (x <= lo)
          r = dsgn ? static_cast<uint64_t>(static_cast<int64_t>(lo)) : 0;
        else if (x >= hi)
          r = dsgn ? (uint64_t{1} << (dw - 1)) - 1 // the largest signed value, in unsigned
                                                   // arithmetic (2^63 - 1 overflows int64_t)
                   : low_bits(~uint64_t{0}, dw);
        else
          r = dsgn ? static_cast<uint64_t>(static_cast<int64_t>(x)) : static_cast<uint64_t>(x);
      }
    }
  } else {
    const bool ssgn = exec::is_signed(st);
    const uint64_t wide = ssgn ? static_cast<uint64_t>(sign_extend(s, sw)) : s;
    if (dfloat) {
      r = from_integer(float_format(dt), wide, ssgn, mode);
      if (in.sat)
        r = saturate(float_format(dt), r);
    } else if (in.sat) { // integer saturation to the destination range
      const bool dsgn = exec::is_signed(dt);
      const s128 v = ssgn ? s128{static_cast<int64_t>(wide)} : s128{static_cast<int64_t>(0)} + wide;
      const s128 lo = dsgn ? -(s128{1} << (dw - 1)) : 0;
      const s128 hi = dsgn ? (s128{1} << (dw - 1)) - 1 : (s128{1} << dw) - 1;
      r = static_cast<uint64_t>(v < lo ? lo : v > hi ? hi : v);
    } else {
      r = wide;
      // A narrowing or same-width conversion to a signed type sign-extends into the register.
      if (exec::is_signed(dt))
        r = static_cast<uint64_t>(sign_extend(r, dw));
    }
  }
  // cvt produces the destination type's width; a register wider than that type is filled by
  // the type's extension (PTX ISA, cvt): an integer signed type sign-extends (cvt.s8.s32 into a
  // .b32 register), every other type zero-extends. write() cuts the value to the register.
  r = low_bits(r, dw);
  if (!dfloat && exec::is_signed(dt))
    r = static_cast<uint64_t>(sign_extend(r, dw));
  return r;
}

} // namespace volta::emulate
