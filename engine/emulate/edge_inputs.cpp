#include "engine/emulate/edge_inputs.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "support/invariant.hpp"

namespace volta::emulate {

namespace {

// splitmix64's finalizer: a well-mixed 64-bit function of its argument.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t name_hash(std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ull; // FNV-1a
  for (char c : name) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

// The random bits of one element of (set, array, index): `seed` for the small choices, each
// taken from its own bit field, and further words (mixed again) for wide fields.
struct ElementRandom {
  uint64_t seed;
  uint64_t field(int shift, uint64_t range) const { return (seed >> shift) % range; }
  uint64_t word(uint32_t k) const { return mix(seed + 0x632be59bd9b4e019ull * k); }
};

// The key of one array in one set; its elements are a counter-based stream under it.
uint64_t array_key(uint32_t set, uint64_t array_hash) {
  return mix(array_hash ^ (uint64_t{set} << 56));
}

ElementRandom element_random(uint64_t key, uint64_t index) {
  return {mix(key + 0x9e3779b97f4a7c15ull * index)};
}

// The layout of a float format: exponent bits, fraction bits.
struct Layout {
  int exponent_bits;
  int fraction_bits;
};

Layout layout_of(ElemType t) {
  switch (t) {
  case ElemType::F16:
    return {5, 10};
  case ElemType::BF16:
    return {8, 7};
  case ElemType::F64:
    return {11, 52};
  default:
    return {8, 23};
  }
}

// ±1.f × 2^e with e uniform in [lo, hi], the fraction uniform: a normal number of every format
// here (the exponents used stay inside f16's range).
uint64_t float_bits(ElemType t, const ElementRandom& r, int lo, int hi) {
  const Layout l = layout_of(t);
  const int bias = (1 << (l.exponent_bits - 1)) - 1;
  const int e = lo + static_cast<int>(r.field(0, static_cast<uint64_t>(hi - lo + 1)));
  VOLTA_ASSERT(e + bias > 0 && e + bias < (1 << l.exponent_bits) - 1,
               "the exponent is a normal one of the format");
  const uint64_t fraction = r.word(1) & ((uint64_t{1} << l.fraction_bits) - 1);
  const uint64_t sign = r.field(8, 2);
  const int total = 1 + l.exponent_bits + l.fraction_bits;
  return sign << (total - 1) | static_cast<uint64_t>(e + bias) << l.fraction_bits | fraction;
}

// Bit patterns of each integer width that a kernel reading them as floats, or converting them
// to narrower floats, finds at the edges.
constexpr uint64_t kSpecial8[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0x7e, 0x7c, 0xfc, 0x78, 0x88};
constexpr uint64_t kSpecial16[] = {
    0x7e00, 0x7c01, 0xfe01, // f16 NaNs (quiet, signalling payload, negative)
    0x7c00, 0xfc00,         // f16 ±inf
    0x8000,                 // -0 (f16 and bf16)
    0x0001, 0x83ff,         // f16 subnormals (smallest, largest negative)
    0x7bff, 0xfbff,         // f16 ±max
    0x7fc0, 0x7f81, 0xffc1, // bf16 NaNs
    0x7f80, 0xff80,         // bf16 ±inf
    0x0001, 0x807f,         // bf16 subnormals
    0xffff, 0x7fff, 0xfff0, // all ones, the largest signed value
};
constexpr uint64_t kSpecial32[] = {
    0x7fc00000, 0x7f800001, 0xffc00001, // f32 NaNs: quiet, signalling with a payload, negative
    0x7f800000, 0xff800000,             // ±inf
    0x80000000,                         // -0
    0x00000001, 0x807fffff, 0x00800000, // subnormals and the smallest normal
    0x7f7fffff, 0xff7fffff,             // ±max
    0x7fffffff, 0xffffffff,             // the NaN PTX makes; all ones (-1)
    65504,      65520,      70000,      // f16 max, the first integer f16 rounds to inf, beyond
    0x01000001,                         // 2^24 + 1: not an f32
    0x3f800000, 0x7c007c00, 0x7e00fc00, // 1.0f; two f16 infinities, f16 NaN and -inf
};
constexpr uint64_t kSpecial64[] = {
    0x7ff8000000000000,
    0x7ff0000000000001,
    0xfff8000000000001, // f64 NaNs
    0x7ff0000000000000,
    0xfff0000000000000, // ±inf
    0x8000000000000000,
    0x0000000000000001,
    0x800fffffffffffff, // -0, subnormals
    0x7fefffffffffffff,
    0xffffffffffffffff,
    0x7fffffffffffffff, // max, all ones, max signed
    0x0020000000000001, // 2^53 + 1: not an f64
    0x7fc000007f800000,
    0x0000000180000000,
    70000,
    65520, // f32 pairs; f16 overflows
};

template <size_t N>
uint64_t pick(const uint64_t (&table)[N], uint64_t r) {
  return table[r % N];
}

uint64_t special_bits(uint32_t width, uint64_t r) {
  switch (width) {
  case 1:
    return pick(kSpecial8, r);
  case 2:
    return pick(kSpecial16, r);
  case 8:
    return pick(kSpecial64, r);
  default:
    return pick(kSpecial32, r);
  }
}

uint64_t small_integer(ElemType t, uint64_t r) {
  if (is_signed_int(t))
    return static_cast<uint64_t>(static_cast<int64_t>(r % 17) - 8);
  return r % 17;
}

uint64_t low_bits(uint64_t v, uint32_t bytes) {
  return bytes >= 8 ? v : v & ((uint64_t{1} << (8 * bytes)) - 1);
}

double symbol_value(uint32_t set, const std::string& name) {
  const ElementRandom r = element_random(array_key(set, name_hash(name)), 0);
  const double m = static_cast<double>(2 + r.field(0, 31));
  return (r.field(8, 2) != 0 ? -m : m) / 16.0;
}

uint64_t element_bits(uint32_t set, uint64_t key, uint64_t index, ElemType type) {
  const ElementRandom r = element_random(key, index);
  const uint32_t width = byte_width(type);
  if (is_float(type)) {
    switch (set) {
    case 0:
      return r.field(9, 16) == 0 ? 0 : float_bits(type, r, -2, 1);
    case 1:
      return float_bits(type, r, -3, 0);
    default:
      return float_bits(type, r, -10, 9);
    }
  }
  const uint64_t choice = r.field(9, 4);
  const uint64_t special = special_bits(width, r.field(13, 1u << 20));
  const uint64_t small = low_bits(small_integer(type, r.field(33, 1u << 20)), width);
  switch (set) {
  case 0:
    return choice == 0 ? special : small;
  case 1:
    return small;
  default:
    return choice == 0 ? special : choice == 3 ? small : low_bits(r.word(2), width);
  }
}

} // namespace

std::string_view edge_input_name(uint32_t set) {
  static constexpr std::string_view kNames[kEdgeInputSets] = {"specials", "moderate", "wide"};
  VOLTA_ASSERT(set < kEdgeInputSets, "an edge input set index");
  return kNames[set % kEdgeInputSets];
}

std::map<std::string, ElemType> declared_elem_types(const launch::KernelConfig& config) {
  std::map<std::string, ElemType> types;
  for (const auto& a : config.arrays) {
    if (a.type != ElemType::Unknown)
      types[a.name] = a.type;
  }
  return types;
}

uint64_t edge_element_bits(uint32_t set, std::string_view array, uint64_t index, ElemType type) {
  return element_bits(set, array_key(set, name_hash(array)), index, type);
}

namespace {

// The type whose values array `a` gets (edge_inputs' rule).
ElemType value_type_of(const launch::ArraySpec& a, const Inputs& in,
                       const std::map<std::string, ElemType>& value_types) {
  auto own = in.types.find(a.name);
  ElemType type = own != in.types.end() ? own->second : default_elem_type(a);
  if (auto v = value_types.find(a.name);
      v != value_types.end() && byte_width(v->second) == a.elem_width)
    type = v->second;
  return type;
}

} // namespace

Inputs generated_edge_inputs(const launch::KernelConfig& config, uint32_t set,
                             const std::map<std::string, ElemType>& value_types) {
  Inputs in;
  in.types = declared_elem_types(config);
  for (const auto& a : config.arrays) {
    if (a.kind != launch::ArrayKind::In && a.kind != launch::ArrayKind::InOut)
      continue;
    const ElemType type = value_type_of(a, in, value_types);
    const uint32_t width = byte_width(type);
    if (width != a.elem_width) { // edge_inputs() leaves such an array zero
      in.generated[a.name] = [](uint64_t, uint8_t* out, uint64_t n) { std::memset(out, 0, n); };
      continue;
    }
    const uint64_t key = array_key(set, name_hash(a.name));
    in.generated[a.name] = [set, key, type, width](uint64_t offset, uint8_t* out, uint64_t n) {
      uint64_t k = 0;
      while (k < n) {
        const uint64_t i = (offset + k) / width, within = (offset + k) % width;
        const uint64_t bits = element_bits(set, key, i, type);
        uint8_t raw[8];
        std::memcpy(raw, &bits, sizeof raw); // little-endian
        const uint64_t take = std::min<uint64_t>(width - within, n - k);
        std::memcpy(out + k, raw + within, take);
        k += take;
      }
    };
  }
  for (const auto& p : config.params) {
    if (p.kind == launch::ParamSpec::Kind::Sym)
      in.symbols[p.name] = symbol_value(set, p.name);
  }
  return in;
}

Inputs edge_inputs(const launch::KernelConfig& config, uint32_t set,
                   const std::map<std::string, ElemType>& value_types, const MadeInputs* made) {
  Inputs in;
  in.types = declared_elem_types(config);
  for (const auto& a : config.arrays) {
    if (a.kind != launch::ArrayKind::In && a.kind != launch::ArrayKind::InOut)
      continue;
    const ElemType type = value_type_of(a, in, value_types);
    const uint32_t width = byte_width(type);
    if (made) { // the other kernel's array of this name and shape: the same bytes
      const launch::ArraySpec* other = made->config->find_array(a.name);
      auto it = made->inputs->arrays.find(a.name);
      if (other && other->len == a.len && other->elem_width == a.elem_width &&
          value_types.count(a.name) && it != made->inputs->arrays.end()) {
        in.arrays[a.name] = it->second;
        continue;
      }
    }
    std::vector<uint8_t> bytes(a.size_bytes(), 0);
    if (width == a.elem_width) {
      const uint64_t key = array_key(set, name_hash(a.name));
      // Large arrays (a GEMM's 16M elements) are filled by every core.
      tbb::parallel_for(tbb::blocked_range<uint64_t>(0, a.len, uint64_t{1} << 15),
                        [&](const tbb::blocked_range<uint64_t>& range) {
                          for (uint64_t i = range.begin(); i != range.end(); ++i) {
                            const uint64_t bits = element_bits(set, key, i, type);
                            std::memcpy(bytes.data() + i * width, &bits, width); // little-endian
                          }
                        });
    }
    in.arrays[a.name] = std::move(bytes);
  }
  for (const auto& p : config.params) {
    if (p.kind == launch::ParamSpec::Kind::Sym)
      in.symbols[p.name] = symbol_value(set, p.name);
  }
  return in;
}

} // namespace volta::emulate
