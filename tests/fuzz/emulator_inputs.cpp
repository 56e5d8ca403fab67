#include "emulator_inputs.hpp"

#include <bit>
#include <cmath>
#include <cstring>

#include "engine/emulate/elem_type.hpp"

namespace volta::pair_fuzz {

std::string_view to_string(InputClass c) {
  switch (c) {
  case InputClass::Exact:
    return "exact";
  case InputClass::Moderate:
    return "moderate";
  case InputClass::Special:
    return "special";
  }
  return "?";
}

namespace {

double small_dyadic(Rng& r) {
  if (r.chance(0.12))
    return 0.0;
  return static_cast<double>(r.range(-12, 12)) / 4.0;
}

double special_float(Rng& r, emulate::ElemType t) {
  const bool half = t == emulate::ElemType::F16;
  const double values[] = {
      -0.0,
      0.0,
      half ? 6e-8 : 1e-40,                   // subnormal
      half ? 3e-5 : 1e-30,                   // tiny (a subnormal in f16)
      half ? 6.1035156e-05 : 1.17549435e-38, // smallest normal
      half ? 60000.0 : 1e30,
      half ? -65504.0 : -3.4e38,
      INFINITY,
      -INFINITY,
      NAN,
  };
  return values[r.below(std::size(values))];
}

// The bits of a float of `bits` width holding a small dyadic value.
uint64_t float_bits_of(double v, int bits, Rng& r) {
  switch (bits) {
  case 16: {
    uint8_t b[2];
    emulate::write_element(r.chance(0.7) ? emulate::ElemType::F16 : emulate::ElemType::BF16, v, b);
    return b[0] | (b[1] << 8);
  }
  case 32:
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  case 64:
    return std::bit_cast<uint64_t>(v);
  default:
    return r.below(256);
  }
}

uint64_t special_bits(int bits, Rng& r) {
  static const uint32_t f32[] = {0x7fc00000u, 0x7f800001u, 0xffc00000u, 0x7f800000u, 0xff800000u,
                                 0x80000000u, 0x00000001u, 0x007fffffu, 0x7f7fffffu, 0x00800000u};
  static const uint16_t f16[] = {0x7e00, 0x7c01, 0xfe00, 0x7c00, 0xfc00,
                                 0x8000, 0x0001, 0x03ff, 0x7bff, 0x7f80};
  static const uint64_t f64[] = {0x7ff8000000000000ull, 0x7ff0000000000000ull,
                                 0xfff0000000000000ull, 0x8000000000000000ull,
                                 0x0000000000000001ull, 0x7fefffffffffffffull};
  switch (bits) {
  case 16:
    return f16[r.below(std::size(f16))];
  case 32:
    return f32[r.below(std::size(f32))];
  case 64:
    return f64[r.below(std::size(f64))];
  default:
    return r.chance(0.5) ? 0x80 : 0xff;
  }
}

uint64_t boundary(int bits, Rng& r) {
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t top = uint64_t{1} << (bits - 1);
  const uint64_t b[] = {0, mask, top, top - 1, top + 1, 1, 2, 0x80, 0xff, 0x7fff, 0x8000, 0xffff};
  return b[r.below(std::size(b))] & mask;
}

uint64_t int_element(int bits, bool is_signed, InputClass c, Rng& r) {
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  switch (c) {
  case InputClass::Exact:
    switch (r.weighted({5, 2, 2, 1})) {
    case 0:
      return static_cast<uint64_t>(is_signed ? r.range(-8, 8) : r.range(0, 16)) & mask;
    case 1:
      return boundary(bits, r);
    case 2:
      return float_bits_of(small_dyadic(r), bits, r) & mask;
    default:
      return r.next() & mask;
    }
  case InputClass::Moderate:
    switch (r.weighted({4, 3, 2, 1})) {
    case 0:
      return r.next() & mask;
    case 1:
      return static_cast<uint64_t>(r.range(-100, 100)) & mask;
    case 2:
      return boundary(bits, r);
    default:
      return float_bits_of(r.real(-4, 4), bits, r) & mask;
    }
  case InputClass::Special:
    if (r.chance(0.4))
      return special_bits(bits, r) & mask;
    return int_element(bits, is_signed, InputClass::Exact, r);
  }
  return 0;
}

double float_element(emulate::ElemType t, InputClass c, Rng& r) {
  switch (c) {
  case InputClass::Exact:
    return small_dyadic(r);
  case InputClass::Moderate:
    return r.chance(0.1) ? small_dyadic(r) : r.real(-4, 4);
  case InputClass::Special:
    return r.chance(0.4) ? special_float(r, t) : small_dyadic(r);
  }
  return 0;
}

} // namespace

emulate::Inputs make_inputs(const launch::KernelConfig& config, InputClass c, Rng& rng) {
  emulate::Inputs in;
  for (const auto& a : config.arrays) {
    const auto type = a.type != launch::ElemType::Unknown
                          ? launch::elem_type_from(launch::to_string(a.type))
                          : std::optional<emulate::ElemType>(emulate::default_elem_type(a));
    in.types[a.name] = *type;
    if (a.kind != launch::ArrayKind::In && a.kind != launch::ArrayKind::InOut)
      continue;
    std::vector<uint8_t> bytes(a.size_bytes(), 0);
    const int bits = static_cast<int>(a.elem_width) * 8;
    for (uint64_t i = 0; i < a.len; ++i) {
      uint8_t* at = bytes.data() + i * a.elem_width;
      if (emulate::is_float(*type)) {
        emulate::write_element(*type, float_element(*type, c, rng), at);
      } else {
        const uint64_t v = int_element(bits, emulate::is_signed_int(*type), c, rng);
        std::memcpy(at, &v, a.elem_width);
      }
    }
    in.arrays[a.name] = std::move(bytes);
  }
  return in;
}

} // namespace volta::pair_fuzz
