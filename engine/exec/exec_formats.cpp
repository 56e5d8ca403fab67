// Memory formats of the CTA runner (docs/semantics.md, "Packed and narrow floats"): an array's
// declared element type is the meaning of its bits, and so is the format of the instruction that
// made a value. Here: which format 16-bit float data is in (f16 or bf16), what an instruction of
// the other format reads there (a reinterpretation, never the same real), the StoredAs of the
// bytes a store writes (float data of a format, whatever register or store type moved it), and
// the bf16 widening that hand-written code does with integer instructions.
#include "engine/exec/cta_runner.hpp"

namespace volta::exec {

using symbolic::Op;

namespace {
// The FloatBits / BitsFloat format code of 16-bit data.
uint8_t half_code(HalfFormat f) {
  return f == HalfFormat::BF16 ? symbolic::kFormatBF16 : 1;
}
} // namespace

const Region* CtaRunner::input_region(ExprId node) const {
  if (node == 0)
    return nullptr;
  const symbolic::Node& n = ctx_.store.node(node);
  return n.op == Op::Input ? ctx_.global.input_array(n.a) : nullptr;
}

HalfFormat CtaRunner::half_format(const Value& v, ExprId node) const {
  if (v.bf16)
    return HalfFormat::BF16;
  if (v.f16)
    return HalfFormat::F16;
  // An input element is what its array declares: bf16 only where the manifest says so (the
  // real view of an element of any other 2-byte array is its bytes read as an f16).
  if (const Region* r = input_region(node)) {
    if (r->elem_width != 2)
      return HalfFormat::Wider;
    return r->declared == launch::ElemType::BF16 ? HalfFormat::BF16 : HalfFormat::F16;
  }
  return HalfFormat::Unknown;
}

ExprId CtaRunner::read_half(const Value& v, ExprId x, ValType reader) {
  assert(reader == ValType::F16 || reader == ValType::BF16);
  if (!v.symbolic() || x == 0 || x == ctx_.undef)
    return x; // concrete bits are read in the reader's format already (real_of)
  const symbolic::ValueKind kind = symbolic::kind_of(ctx_.store, x);
  if (kind != symbolic::ValueKind::Real && ctx_.store.op(x) != Op::Const)
    return x; // integer data or bits: real_of read them as the reader's format already
  const HalfFormat have = half_format(v, x);
  const HalfFormat want = reader == ValType::BF16 ? HalfFormat::BF16 : HalfFormat::F16;
  if (have == HalfFormat::Unknown || have == want)
    return x;
  if (have == HalfFormat::Wider) { // an input element of 4 or 8 bytes: the low 16 of its bits
    const ExprId wide = b_.float_bits(x, input_region(x)->elem_width == 8 ? 3 : 2);
    return b_.bits_float(b_.extract(wide, 0, 16), half_code(want));
  }
  // The bits of one format read as the other: another number, opaque (bf16 1.0 = 0x3F80 is
  // f16 1.875; f16 1.0 = 0x3C00 is bf16 0.0078125).
  return b_.bits_float(b_.float_bits(x, half_code(have)), half_code(want));
}

ValType CtaRunner::half_view(const Value& a, const Value& b) const {
  const HalfFormat fa = half_format(a, a.node), fb = half_format(b, b.node);
  if (fa == HalfFormat::BF16 || fb == HalfFormat::BF16)
    return ValType::BF16;
  if (fa == HalfFormat::F16 || fb == HalfFormat::F16)
    return ValType::F16;
  return ValType::None;
}

uint8_t CtaRunner::half_int_format(const Value& v) const {
  return half_code(half_format(v, v.node));
}

uint8_t CtaRunner::stored_as_of(const Value& v, ValType type, uint32_t bytes) const {
  // (A whole input element moved by integer instructions is typed where the outputs are
  // collected, by its array's declaration: launch_execution.cpp.)
  const bool fl = is_float(type) || v.fl;
  if (!fl)
    return is_signed(type) ? kStoredSigned : kStoredUnsigned;
  if (type == ValType::BF16 || type == ValType::BF16x2)
    return kStoredBF16;
  if (type == ValType::F16 || type == ValType::F16x2)
    return kStoredF16;
  if (bytes != 2 && bytes != 4)
    return kStoredFloat;
  // 16-bit float data, or a packed pair of them in 4 bytes: their format (Value tags are of
  // both halves of a packed value).
  switch (half_format(v, bytes == 2 ? v.node : 0)) {
  case HalfFormat::BF16:
    return kStoredBF16;
  case HalfFormat::F16:
    return kStoredF16;
  default:
    return kStoredFloat;
  }
}

ExprId CtaRunner::packed_half(const Value& v, uint32_t h, ValType type) {
  if (v.node == ctx_.undef)
    return ctx_.undef;
  auto& s = ctx_.store;
  auto decode = [&](uint16_t bits) {
    return (type == ValType::BF16 ? s.bf16_bits(bits) : s.float_bits(bits, 16))
        .value_or(ctx_.undef);
  };
  if (!v.symbolic())
    return decode(static_cast<uint16_t>(v.bits >> (16 * h)));
  const ExprId part = b_.extract(v.node, static_cast<int>(16 * h), 16);
  const symbolic::Node& n = s.node(part);
  if (n.op == Op::RawBits)
    return decode(static_cast<uint16_t>(n.a));
  if (part == ctx_.undef || n.op == Op::Undef)
    return part;
  // A half that is not a number (integer data, bits) is read by its bits; a number of the other
  // format as a reinterpretation (read_half, the halves having the packed value's tags).
  const symbolic::ValueKind kind = symbolic::kind_of(s, part);
  if (kind == symbolic::ValueKind::Int || kind == symbolic::ValueKind::Bits)
    return b_.bits_float(part, type == ValType::BF16 ? symbolic::kFormatBF16 : 1);
  return read_half(v, part, type);
}

void CtaRunner::tag_loaded(Value& v, const ByteCell* cells, uint32_t bytes) const {
  const uint8_t first = cells[0].stored_as;
  if (first != kStoredF16 && first != kStoredBF16) [[likely]]
    return;
  // Every half of the loaded bytes in the one format (a 4-byte load of two halves stored apart
  // keeps a tag only when both were stored in the same format).
  for (uint32_t i = 1; i < bytes; ++i) {
    if (cells[i].stored_as != first)
      return;
  }
  v.bf16 = first == kStoredBF16;
  v.f16 = first == kStoredF16;
}

ExprId CtaRunner::bf16_widening(const Inst& in, const Value* v) const {
  // shl.b32 d, a, 16 where a is a 16-bit value extended to 32 bits (ld.global.u16 into a 32-bit
  // register, cvt.u32.u16): d's high half is a's 16 bits, its low half zero. When those 16 bits
  // are a bf16's (FloatBits(x, bf16): int_view makes it only for bf16 data — a value a bf16
  // instruction made, or an element of an array declared bf16), d is the f32 of the same value:
  // x. The extension's signedness does not matter: its high bits are shifted out.
  if (in.op != XOp::Shl || width_of(in.type) != 32 || !v[0].symbolic() || v[1].symbolic() ||
      (v[1].bits & 0xffffffffu) != 16)
    return 0;
  const auto& s = ctx_.store;
  const symbolic::Node& ext = s.node(v[0].node);
  if (ext.op != Op::BitOp ||
      static_cast<symbolic::BitOpKind>(ext.aux & 31) != symbolic::BitOpKind::Ext)
    return 0;
  if (symbolic::IntType::from_code(static_cast<uint8_t>(ext.aux >> 5)).width() != 32 ||
      ext.c == symbolic::kNoExpr || b_.int_value(ext.c, 3) != std::optional<uint64_t>(16))
    return 0;
  const symbolic::Node& bits = s.node(ext.a);
  if (bits.op != Op::FloatBits || bits.aux != symbolic::kFormatBF16)
    return 0;
  return bits.a;
}

} // namespace volta::exec
