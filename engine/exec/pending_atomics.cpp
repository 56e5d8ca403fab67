#include "engine/exec/pending_atomics.hpp"

#include <algorithm>

#include "engine/symbolic/builder.hpp"

namespace volta::exec {
namespace {

ExprId as_real(const Value& v, ValType type, symbolic::ExprStore& s) {
  if (v.symbolic()) {
    // Integer data in the register of a float atomic (an f32 loaded from a u32 array): the
    // float its bits encode, not the integer (the operand sorts of real arithmetic; pair
    // fuzzer 1:346 under the assertions of the ASan build).
    const symbolic::ValueKind kind = symbolic::kind_of(s, v.node);
    const uint8_t format = type == ValType::F32   ? 2
                           : type == ValType::F64 ? 3
                           : type == ValType::F16 ? 1
                                                  : 0;
    if (format != 0 && (kind == symbolic::ValueKind::Int || kind == symbolic::ValueKind::Bits))
      return symbolic::Builder(s).bits_float(v.node, format);
    return v.node;
  }
  switch (type) {
  case ValType::F32:
    return s.float_bits(v.bits & 0xffffffffu, 32).value_or(s.constant(0));
  case ValType::F64:
    return s.float_bits(v.bits, 64).value_or(s.constant(0));
  case ValType::F16:
    return s.float_bits(v.bits & 0xffff, 16).value_or(s.constant(0));
  case ValType::S32:
    return s.constant(static_cast<long>(static_cast<int32_t>(v.bits)));
  case ValType::S64:
    return s.constant(symbolic::Rational(std::to_string(static_cast<int64_t>(v.bits))));
  case ValType::U64:
    return s.constant(symbolic::Rational(std::to_string(v.bits)));
  default:
    return s.constant(static_cast<long>(v.bits & 0xffffffffu));
  }
}

// n applications of atom.inc (dec: atom.dec) with limit L to x, as one term. Every contribution
// applies the same function f, so the final value is f^n(x) in every order (the return values
// are not: they are fresh unknowns). On [0, L] f is a rotation of the cycle 0..L (inc: v + 1,
// dec: v - 1, both modulo L + 1); a start above L first goes to 0 (inc) or L (dec) and then
// rotates n - 1 times. Computed in 64 bits (L + 1 and x + n do not wrap there) and truncated.
ExprId wrapped(symbolic::Builder& b, bool inc, ExprId x, ExprId limit, uint64_t n) {
  using symbolic::BitOpKind;
  constexpr uint8_t w32 = 2, w64 = 3; // width codes
  const symbolic::IntType u32{w32, false}, u64{w64, false};
  auto wide = [&](ExprId v) { return b.intop(BitOpKind::Ext, u64, v, 0, 0, 0, 32); };
  auto mod = [&](ExprId v, ExprId m) { return b.intop(BitOpKind::Rem, u64, v, m); };
  const ExprId m = b.iadd(wide(limit), b.int_const(1, w64), w64); // L + 1, in [1, 2^32]
  const ExprId in_cycle =
      mod(inc ? b.iadd(wide(x), b.int_const(n, w64), w64)
              : b.isub(b.iadd(wide(x), m, w64), mod(b.int_const(n, w64), m), w64),
          m);
  const ExprId first = inc ? b.int_const(0, w64) : wide(limit);
  const ExprId after_first =
      mod(inc ? b.iadd(first, b.int_const(n - 1, w64), w64)
              : b.isub(b.iadd(first, m, w64), mod(b.int_const(n - 1, w64), m), w64),
          m);
  const ExprId r = b.select(b.icmp(symbolic::CmpKind::Le, u32, x, limit), in_cycle, after_first);
  return b.intop(BitOpKind::Ext, u32, r, 0, 0, 0, 64);
}

} // namespace

Value materialize(PendingAtomic& p, symbolic::Builder& b, ExprId undef) {
  std::sort(p.contributions.begin(), p.contributions.end(), [](const auto& x, const auto& y) {
    if (x.cta != y.cta)
      return x.cta < y.cta;
    if (x.thread != y.thread)
      return x.thread < y.thread;
    return x.sequence < y.sequence;
  });
  if (p.base.node == undef)
    return Value{0, undef};
  bool concrete = !p.base.symbolic();
  for (const auto& c : p.contributions)
    concrete &= !c.value.symbolic();
  const bool is_float_type = is_float(p.type);
  if (concrete && !is_float_type) {
    const uint64_t mask = p.width >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * p.width)) - 1;
    const bool sign = is_signed(p.type);
    auto sx = [&](uint64_t v) {
      const int shift = 64 - 8 * static_cast<int>(p.width);
      return static_cast<int64_t>(v << shift) >> shift;
    };
    uint64_t acc = p.base.bits;
    for (const auto& c : p.contributions) {
      const uint64_t x = c.value.bits;
      switch (p.op) {
      case AtomOp::Add:
        acc += x;
        break;
      case AtomOp::And:
        acc &= x;
        break;
      case AtomOp::Or:
        acc |= x;
        break;
      case AtomOp::Xor:
        acc ^= x;
        break;
      case AtomOp::Min:
        acc = sign ? (sx(x) < sx(acc) ? x : acc) : std::min(acc & mask, x & mask);
        break;
      case AtomOp::Max:
        acc = sign ? (sx(x) > sx(acc) ? x : acc) : std::max(acc & mask, x & mask);
        break;
      case AtomOp::Inc: // PTX: old >= limit ? 0 : old + 1 (unsigned)
        acc = (acc & mask) >= (x & mask) ? 0 : acc + 1;
        break;
      case AtomOp::Dec: // PTX: old == 0 || old > limit ? limit : old - 1 (unsigned)
        acc = (acc & mask) == 0 || (acc & mask) > (x & mask) ? x : acc - 1;
        break;
      default:
        break;
      }
    }
    return Value{acc & mask, 0};
  }
  auto& s = b.store();
  if (!is_float_type) {
    // Integer atomics on data: exact two's-complement operations of the atomic's type (a sum
    // modulo 2^w, a signed or unsigned min/max), never real ones. atomicMax((int*)p,
    // __float_as_int(x)) orders float bit patterns as integers, which is not max over the
    // reals: its result is an integer operation on the bits, opaque unless both kernels
    // compute the same one.
    const uint8_t wc = symbolic::width_code(8 * p.width);
    const symbolic::IntType type{wc, is_signed(p.type)};
    auto as_int = [&](const Value& v) { return v.symbolic() ? v.node : b.int_const(v.bits, wc); };
    ExprId acc = as_int(p.base);
    if ((p.op == AtomOp::Inc || p.op == AtomOp::Dec) && !p.contributions.empty()) {
      // One limit for every contribution (exec_atom refuses different ones).
      const Value& limit = p.contributions.front().value;
      if (limit.node == undef)
        return Value{0, undef};
      return Value{0, wrapped(b, p.op == AtomOp::Inc, acc, as_int(limit), p.contributions.size())};
    }
    for (const auto& c : p.contributions) {
      if (c.value.node == undef)
        return Value{0, undef};
      const ExprId x = as_int(c.value);
      switch (p.op) {
      case AtomOp::Add:
        acc = b.iadd(acc, x, wc);
        break;
      case AtomOp::Min:
        acc = b.intop(symbolic::BitOpKind::Min, type, acc, x);
        break;
      case AtomOp::Max:
        acc = b.intop(symbolic::BitOpKind::Max, type, acc, x);
        break;
      default:
        return Value{0, undef}; // bitwise atomics on data are refused before this
      }
    }
    return Value{0, acc};
  }
  ExprId acc = as_real(p.base, p.type, s);
  for (const auto& c : p.contributions) {
    if (c.value.node == undef)
      return Value{0, undef};
    const ExprId x = as_real(c.value, p.type, s);
    switch (p.op) {
    case AtomOp::Add:
      acc = b.add(acc, x);
      break;
    case AtomOp::Min:
      acc = b.min(acc, x);
      break;
    case AtomOp::Max:
      acc = b.max(acc, x);
      break;
    default:
      return Value{0, undef}; // bitwise atomics on data are refused before this
    }
  }
  return Value{0, acc};
}

} // namespace volta::exec
