// Memory formats of the CTA runner (docs/semantics.md, "Packed and narrow floats"): an array's
// declared element type is the meaning of its bits, and so is the format of the instruction that
// made a value. Here: which format 16-bit float data is in (f16 or bf16), what an instruction of
// the other format reads there (a reinterpretation, never the same real), the StoredAs of the
// bytes a store writes (float data of a format, whatever register or store type moved it), and
// the bf16 widening that hand-written code does with integer instructions.
#include <bit>

#include "engine/exec/cta_runner.hpp"
#include "support/invariant.hpp"

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

// Formats are the Value's tags, never guessed from its node: a width change is idealized, so
// the node of an element narrowed by a cvt is the element's own node in another format.
HalfFormat CtaRunner::half_format(const Value& v) const {
  return v.bf16 ? HalfFormat::BF16 : v.f16 ? HalfFormat::F16 : HalfFormat::Unknown;
}

void CtaRunner::tag_input(Value& v, const Region& r, uint32_t bytes) const {
  // An input element is what its array declares: bf16 only where the manifest says so (the
  // real view of an element of any other 2-byte array is its bytes read as an f16).
  if (r.elem_width != 2 || (bytes != 2 && bytes != 4))
    return;
  v.bf16 = r.declared == launch::ElemType::BF16;
  v.f16 = !v.bf16;
}

ExprId CtaRunner::read_half(const Value& v, ExprId x, ValType reader) {
  VOLTA_ASSERT(reader == ValType::F16 || reader == ValType::BF16, "a 16-bit float reader");
  if (!v.symbolic() || x == 0 || x == ctx_.undef)
    return x; // concrete bits are read in the reader's format already (real_of)
  const symbolic::ValueKind kind = symbolic::kind_of(ctx_.store, x);
  if (kind != symbolic::ValueKind::Real && ctx_.store.op(x) != Op::Const)
    return x; // integer data or bits: real_of read them as the reader's format already
  const HalfFormat have = half_format(v);
  const HalfFormat want = reader == ValType::BF16 ? HalfFormat::BF16 : HalfFormat::F16;
  if (have == HalfFormat::Unknown || have == want)
    return x;
  // The bits of one format read as the other: another number, opaque (bf16 1.0 = 0x3F80 is
  // f16 1.875; f16 1.0 = 0x3C00 is bf16 0.0078125).
  return b_.bits_float(b_.float_bits(x, half_code(have)), half_code(want));
}

ValType CtaRunner::half_view(const Value& a, const Value& b) const {
  const HalfFormat fa = half_format(a), fb = half_format(b);
  if (fa == HalfFormat::BF16 || fb == HalfFormat::BF16)
    return ValType::BF16;
  if (fa == HalfFormat::F16 || fb == HalfFormat::F16)
    return ValType::F16;
  return ValType::None;
}

HalfFormat CtaRunner::pack_formats(std::span<Value> parts) {
  const auto float_part = [&](const Value& v) {
    return v.symbolic() && v.node != ctx_.undef &&
           (v.fl || symbolic::kind_of(ctx_.store, v.node) == symbolic::ValueKind::Real);
  };
  // The packed value takes the format of its first float part; a part of the other format
  // becomes its bits. With a part of unknown format, no format is known for the others either.
  HalfFormat common = HalfFormat::Unknown;
  bool unknown = false;
  for (const Value& v : parts) {
    if (!float_part(v))
      continue;
    const HalfFormat f = half_format(v);
    unknown |= f == HalfFormat::Unknown;
    if (common == HalfFormat::Unknown)
      common = f;
  }
  if (unknown)
    common = HalfFormat::Unknown;
  for (Value& v : parts) {
    const HalfFormat f = half_format(v);
    if (float_part(v) && f != HalfFormat::Unknown && f != common)
      v = Value{0, b_.float_bits(v.node, half_code(f))};
  }
  return common;
}

Value CtaRunner::pack_parts(std::span<Value> parts, uint32_t part_width) {
  VOLTA_ASSERT(std::has_single_bit(parts.size()), "a register packs 1, 2 or 4 parts");
  const HalfFormat format = part_width == 16 ? pack_formats(parts) : HalfFormat::Unknown;
  bool symbolic = false, any_float = false;
  for (const Value& v : parts) {
    symbolic |= v.symbolic();
    any_float |= v.fl;
  }
  if (any_float && symbolic)
    pin_integer_parts(parts, part_width, format);
  if (!symbolic) {
    uint64_t bits = 0;
    for (size_t i = 0; i < parts.size(); ++i)
      bits |= (parts[i].bits & symbolic::width_mask(part_width)) << (i * part_width);
    return Value{bits, 0};
  }
  // A balanced tree of pieces.
  std::vector<ExprId> level(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    level[i] = parts[i].symbolic()
                   ? parts[i].node
                   : ctx_.store.raw_bits(parts[i].bits & symbolic::width_mask(part_width),
                                         static_cast<int>(part_width));
  }
  for (uint32_t pw = part_width; level.size() > 1; pw *= 2) {
    std::vector<ExprId> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2)
      next.push_back(b_.pack(level[i], level[i + 1], static_cast<int>(pw)));
    level = std::move(next);
  }
  return Value{0, level[0], any_float, format == HalfFormat::BF16, format == HalfFormat::F16};
}

void CtaRunner::pin_integer_parts(std::span<Value> parts, uint32_t part_width, HalfFormat format) {
  // The packed value's tags (fl, f16, bf16) are those of every part: an unpacking mov and a
  // packed instruction give them to each half. A part of integer data whose reading depends on
  // the fl tag (a constant, a select of constants: kind Any) would be read as the real integer
  // beside a float part (0x3C00 as 15360, not the f16 1.0): it is pinned to what it is. A constant
  // becomes concrete bits (read by the reader's format); a select of bit patterns becomes its
  // float view in the packed value's format. Integer data of kind Int is read by its kind
  // (real_of), whatever the tags.
  auto& s = ctx_.store;
  const uint8_t wc = symbolic::width_code(part_width);
  for (Value& v : parts) {
    if (!v.symbolic() || v.fl || v.node == ctx_.undef ||
        symbolic::kind_of(s, v.node) != symbolic::ValueKind::Any)
      continue;
    if (s.op(v.node) == Op::Const) {
      if (const auto bits = b_.int_value(v.node, wc)) {
        v = Value{*bits & symbolic::width_mask(part_width), 0};
        continue;
      }
    }
    const ValType view = part_width == 64             ? ValType::F64
                         : part_width == 32           ? ValType::F32
                         : format == HalfFormat::BF16 ? ValType::BF16
                                                      : ValType::F16;
    if (part_width == 16 && format == HalfFormat::Unknown) {
      fail_unsupported(prog_.insts[current_pc_], 0,
                       "packs integer bits beside a 16-bit float of unknown format: the format "
                       "they would be read in is not known");
      return;
    }
    if (part_width != 16 && part_width != 32 && part_width != 64) {
      fail_unsupported(prog_.insts[current_pc_], 0,
                       "packs integer bits beside float data in parts of a width no float has");
      return;
    }
    v = Value{0, float_view_of_bits_select(v.node, view), true, view == ValType::BF16,
              view == ValType::F16};
  }
}

Value CtaRunner::load_tagged(const ByteCell* cells, uint32_t bytes) {
  // Halves stored apart in different ways (an f16 beside a bf16, or beside integer bytes) are
  // loaded half by half, each with its own format, and packed as mov.b32 {lo, hi} packs them.
  // (Every load passes here: 2-byte loads, the f16 ones among them, skip the scan.)
  bool mixed = false, half_float = false;
  for (uint32_t i = 0; bytes >= 4 && i < bytes; ++i) {
    half_float |= cells[i].stored_as == kStoredF16 || cells[i].stored_as == kStoredBF16;
    mixed |= cells[i].stored_as != cells[0].stored_as;
  }
  if (half_float && mixed) {
    std::vector<Value> halves(bytes / 2);
    bool undefined = false;
    for (uint32_t h = 0; h < halves.size(); ++h) {
      halves[h] = load_value(cells + 2 * h, 2, ctx_.undef, b_);
      halves[h].fl = stored_float(cells[2 * h].stored_as);
      tag_loaded(halves[h], cells + 2 * h, 2);
      undefined |= halves[h].node == ctx_.undef;
    }
    if (!undefined)
      return pack_parts(halves, 16);
  }
  Value v = load_value(cells, bytes, ctx_.undef, b_);
  tag_loaded(v, cells, bytes);
  return v;
}

uint8_t CtaRunner::half_int_format(const Value& v) const {
  return half_code(half_format(v));
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
  switch (half_format(v)) {
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
  if (first == kStoredF16 || first == kStoredBF16) {
    // Every half of the loaded bytes in the one format (a 4-byte load of two halves stored
    // apart keeps a tag only when both were stored in the same format).
    for (uint32_t i = 1; i < bytes; ++i) {
      if (cells[i].stored_as != first)
        return;
    }
    v.bf16 = first == kStoredBF16;
    v.f16 = first == kStoredF16;
    return;
  }
  // The raw bytes of 2-byte input elements (never through a float store: copied by integer
  // loads and stores, a cp.async): in their array's declared format, when every half agrees.
  if (stored_float(first) || (cells[0].pos >> 4) != 1 || (bytes != 2 && bytes != 4)) [[likely]]
    return;
  const Region* format = nullptr;
  for (uint32_t half = 0; half < bytes; half += 2) {
    const ByteCell& c = cells[half];
    const Region* r = c.node != 0 && c.pos == (1u << 4) && cells[half + 1].node == c.node &&
                              cells[half + 1].pos == ((1u << 4) | 1u) &&
                              !stored_float(c.stored_as) && !stored_float(cells[half + 1].stored_as)
                          ? input_region(c.node)
                          : nullptr;
    if (r == nullptr || r->elem_width != 2 ||
        (format != nullptr &&
         (format->declared == launch::ElemType::BF16) != (r->declared == launch::ElemType::BF16)))
      return;
    format = r;
  }
  tag_input(v, *format, bytes);
}

ExprId CtaRunner::bf16_half_real(const Value& v, ExprId half) const {
  const symbolic::Node& n = ctx_.store.node(half);
  if (n.op == Op::FloatBits) // the bits of a real: int_view makes them bf16 only for bf16 data
    return n.aux == symbolic::kFormatBF16 ? n.a : 0;
  if (symbolic::kind_of(ctx_.store, half) != symbolic::ValueKind::Real)
    return 0;
  return half_format(v) == HalfFormat::BF16 ? half : 0;
}

ExprId CtaRunner::bf16_widening(const Inst& in, const Value* v) const {
  // A bf16 is the high half of the f32 of the same value (low half zero), so an f32 whose high
  // half is a bf16's 16 bits and whose low half is zero is that bf16's real. Two ways hand-written
  // code (`__uint_as_float((uint32_t)h << 16)`, `__uint_as_float(u & 0xffff0000)`) gets there:
  //   shl.b32 d, a, 16: a's low 16 bits become d's high half;
  //   and.b32 d, a, 0xffff0000: a's high half stays, the low one is cleared.
  // Only bf16 data qualifies (a value a bf16 instruction made, an element of an array declared
  // bf16: bf16_half_real); an f16's or an integer's bits there are another number.
  if (width_of(in.type) != 32 || !v[0].symbolic() || v[1].symbolic())
    return 0;
  const uint64_t b = v[1].bits & 0xffffffffu;
  const auto& s = ctx_.store;
  const symbolic::Node& a = s.node(v[0].node);
  if (in.op == XOp::Shl && b == 16) {
    // a is a 16-bit value extended to 32 bits (ld.global.u16 into a 32-bit register,
    // cvt.u32.u16; the extension's signedness does not matter, its high bits are shifted out),
    // or a pair of halves (a u32 load of two bf16 elements) whose low one is shifted up.
    if (a.op == Op::Pack && a.aux == 16)
      return bf16_half_real(v[0], a.a);
    if (a.op != Op::BitOp ||
        static_cast<symbolic::BitOpKind>(a.aux & 31) != symbolic::BitOpKind::Ext ||
        symbolic::IntType::from_code(static_cast<uint8_t>(a.aux >> 5)).width() != 32 ||
        a.c == symbolic::kNoExpr || b_.int_value(a.c, 3) != std::optional<uint64_t>(16))
      return 0;
    const symbolic::Node& bits = s.node(a.a);
    return bits.op == Op::FloatBits && bits.aux == symbolic::kFormatBF16 ? bits.a : 0;
  }
  if (in.op == XOp::And && b == 0xffff0000u && a.op == Op::Pack && a.aux == 16)
    return bf16_half_real(v[0], a.b);
  return 0;
}

} // namespace volta::exec
