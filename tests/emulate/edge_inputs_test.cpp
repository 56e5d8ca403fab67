// The input sets of the emulator cross-check (engine/emulate/edge_inputs.hpp): deterministic,
// the same bytes for two kernels that name an array alike, floats always moderate numbers,
// integers carrying the special bit patterns the sets promise.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <set>

#include "engine/emulate/edge_inputs.hpp"
#include "engine/emulate/float_semantics.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::emulate {
namespace {

launch::KernelConfig config_of(const std::vector<std::string>& arrays,
                               const std::vector<std::string>& params = {}) {
  launch::KernelConfig c;
  c.entry = "k";
  for (const auto& a : arrays) {
    auto spec = launch::parse_array_flag(a);
    EXPECT_TRUE(spec) << (spec ? "" : spec.error());
    if (spec)
      c.arrays.push_back(*spec);
  }
  for (const auto& p : params) {
    auto spec = launch::parse_param(p);
    EXPECT_TRUE(spec) << (spec ? "" : spec.error());
    if (spec)
      c.params.push_back(*spec);
  }
  return c;
}

uint64_t bits_at(const std::vector<uint8_t>& bytes, uint64_t i, uint32_t width) {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + i * width, width);
  return v;
}

TEST(EdgeInputs, AreAFunctionOfSetArrayAndIndex) {
  // Two kernels with the array at different bases and of different lengths read the same values.
  const auto a = config_of({"x:0x100000:4:64:in:f32", "n:0x200000:4:64:in:s32"});
  const auto b = config_of({"x:0x400000:4:32:in:f32", "n:0x800000:4:64:in:s32"});
  for (uint32_t set = 0; set < kEdgeInputSets; ++set) {
    const Inputs ia = edge_inputs(a, set), ib = edge_inputs(b, set), again = edge_inputs(a, set);
    EXPECT_EQ(ia.arrays.at("x"), again.arrays.at("x"));
    EXPECT_TRUE(
        std::equal(ib.arrays.at("x").begin(), ib.arrays.at("x").end(), ia.arrays.at("x").begin()));
    EXPECT_EQ(ia.arrays.at("n"), ib.arrays.at("n"));
    EXPECT_EQ(bits_at(ia.arrays.at("x"), 7, 4), edge_element_bits(set, "x", 7, ElemType::F32));
  }
  // Different sets and different arrays differ.
  EXPECT_NE(edge_inputs(a, 0).arrays.at("x"), edge_inputs(a, 1).arrays.at("x"));
  EXPECT_NE(edge_element_bits(1, "x", 3, ElemType::F32),
            edge_element_bits(1, "y", 3, ElemType::F32));
  EXPECT_EQ(edge_input_name(0), "specials");
  EXPECT_EQ(edge_input_name(1), "moderate");
  EXPECT_EQ(edge_input_name(2), "wide");
}

TEST(EdgeInputs, MadeOnDemandTheyAreTheSameBytes) {
  // The cross-check makes its inputs page by page (Inputs::generated); every byte range, even
  // one that starts inside an element, reads what edge_inputs() makes, for every width.
  const auto c = config_of({"x:0x100000:4:40000:in:f32", "h:0x400000:2:100:in:f16",
                            "d:0x800000:8:33:inout:f64", "b:0x900000:1:77:in:u8"});
  for (uint32_t set = 0; set < kEdgeInputSets; ++set) {
    const Inputs dense = edge_inputs(c, set), made = generated_edge_inputs(c, set);
    EXPECT_TRUE(made.arrays.empty());
    for (const auto& [name, bytes] : dense.arrays) {
      ASSERT_TRUE(made.generated.count(name)) << name;
      std::vector<uint8_t> whole(bytes.size());
      made.generated.at(name)(0, whole.data(), whole.size());
      EXPECT_EQ(whole, bytes) << name << " set " << set;
      for (uint64_t offset : {uint64_t{1}, uint64_t{3}, uint64_t{5}}) { // unaligned slices
        uint8_t slice[7];
        const uint64_t n = std::min<uint64_t>(sizeof slice, bytes.size() - offset);
        made.generated.at(name)(offset, slice, n);
        EXPECT_TRUE(std::equal(slice, slice + n, bytes.begin() + offset)) << name << offset;
      }
    }
  }
}

TEST(PagedBytes, PagesAreMadeOnFirstTouchAndReadBackWithoutMaking) {
  // A 1 MiB region filled with its offsets' low bytes: reading back makes no page, a store
  // makes its page and its written flags, and the dense copy holds both.
  const uint64_t size = 16 * kPageBytes;
  PagedBytes m(
      size,
      [](uint64_t offset, uint8_t* out, uint64_t n) {
        for (uint64_t k = 0; k < n; ++k)
          out[k] = static_cast<uint8_t>(offset + k);
      },
      true);
  EXPECT_EQ(m.byte(kPageBytes * 3 + 7), 7);
  EXPECT_EQ(m.resident_bytes(), 0u);
  EXPECT_TRUE(m.written_pages().empty());
  *m.bytes_at(kPageBytes * 5 + 1) = 0xab;
  *m.written_at(kPageBytes * 5 + 1) = 1;
  EXPECT_EQ(m.resident_bytes(), 2 * kPageBytes);
  EXPECT_EQ(m.written_pages(), std::vector<uint64_t>{5});
  EXPECT_TRUE(m.written(kPageBytes * 5 + 1));
  EXPECT_FALSE(m.written(kPageBytes * 5 + 2));
  EXPECT_EQ(m.byte(kPageBytes * 5 + 1), 0xab);
  EXPECT_EQ(m.byte(kPageBytes * 5 + 2), 2); // the fill's byte, kept by the page
  const std::vector<uint8_t> dense = m.dense_bytes();
  ASSERT_EQ(dense.size(), size);
  EXPECT_EQ(dense[kPageBytes * 5 + 1], 0xab);
  EXPECT_EQ(dense[kPageBytes * 9 + 200], 200);
  EXPECT_TRUE(PagedBytes::in_one_page(kPageBytes - 16, 16));
  EXPECT_FALSE(PagedBytes::in_one_page(kPageBytes - 8, 12));
}

TEST(EdgeInputs, FloatArraysHoldModerateNumbersOnly) {
  struct Range {
    double lo, hi;
  };
  const Range ranges[kEdgeInputSets] = {{0.25, 4}, {0.125, 2}, {0x1p-10, 0x1p10}};
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32, ElemType::F64}) {
    const FloatFormat f = t == ElemType::F16    ? FloatFormat::F16
                          : t == ElemType::BF16 ? FloatFormat::BF16
                          : t == ElemType::F64  ? FloatFormat::F64
                                                : FloatFormat::F32;
    for (uint32_t set = 0; set < kEdgeInputSets; ++set) {
      size_t zeros = 0, negative = 0;
      for (uint64_t i = 0; i < 4096; ++i) {
        const uint64_t bits = edge_element_bits(set, "x", i, t);
        const double v = decode(f, bits);
        ASSERT_TRUE(std::isfinite(v)) << to_string(t) << " set " << set;
        ASSERT_FALSE(is_subnormal(f, bits));
        if (v == 0) {
          ASSERT_FALSE(std::signbit(v)) << "a -0 is not a real input";
          ++zeros;
          continue;
        }
        negative += v < 0;
        ASSERT_GE(std::fabs(v), ranges[set].lo) << to_string(t) << " set " << set;
        ASSERT_LT(std::fabs(v), ranges[set].hi) << to_string(t) << " set " << set;
      }
      // Only the specials set has zeros (1 in 16); both signs everywhere.
      if (set == 0)
        EXPECT_GT(zeros, 4096u / 32);
      else
        EXPECT_EQ(zeros, 0u);
      EXPECT_GT(negative, 4096u / 4);
    }
  }
}

TEST(EdgeInputs, IntegerArraysCarryTheSpecialBitPatterns) {
  std::set<uint64_t> seen32, seen16;
  size_t small = 0;
  for (uint64_t i = 0; i < 4096; ++i) {
    const uint64_t m = edge_element_bits(1, "n", i, ElemType::S32);
    small += static_cast<int32_t>(m) >= -8 && static_cast<int32_t>(m) <= 8;
    seen32.insert(edge_element_bits(0, "u", i, ElemType::U32));
    seen16.insert(edge_element_bits(0, "h", i, ElemType::U16));
  }
  EXPECT_EQ(small, 4096u) << "the moderate set has small integers only";
  for (uint64_t pattern :
       {0x7fc00000ull, 0x7f800001ull, 0xffc00001ull, 0x7f800000ull, 0xff800000ull, 0x80000000ull,
        0x00000001ull, 0x807fffffull, 65520ull, 70000ull, 0x01000001ull})
    EXPECT_TRUE(seen32.count(pattern)) << std::hex << pattern;
  for (uint64_t pattern :
       {0x7e00ull, 0x7c00ull, 0xfc00ull, 0x8000ull, 0x0001ull, 0x7fc0ull, 0x7f80ull, 0xffffull})
    EXPECT_TRUE(seen16.count(pattern)) << std::hex << pattern;
  // The wide set draws over the whole width too.
  bool high = false;
  for (uint64_t i = 0; i < 256; ++i)
    high = high || edge_element_bits(2, "u", i, ElemType::U64) > (uint64_t{1} << 62);
  EXPECT_TRUE(high);
}

TEST(EdgeInputs, ReferenceTypesMakeTheValuesAndIndexArraysStay) {
  // The optimized kernel declares x as u32 where the reference reads f32: it gets the bytes made
  // for f32 (the same input), and its own declared type to read them.
  const auto opt =
      config_of({"x:0x100000:4:16:in:u32", "i:0x200000:4:16:index", "o:0x300000:4:16:out"},
                {"ptr:x", "ptr:i", "ptr:o", "sym:alpha"});
  const Inputs in = edge_inputs(opt, 1, {{"x", ElemType::F32}});
  EXPECT_EQ(bits_at(in.arrays.at("x"), 5, 4), edge_element_bits(1, "x", 5, ElemType::F32));
  EXPECT_EQ(in.types.at("x"), ElemType::U32);
  EXPECT_FALSE(in.arrays.count("i"));
  EXPECT_FALSE(in.arrays.count("o"));
  // A symbolic parameter is m/16: exact in f16, of magnitude in [1/8, 2].
  const double alpha = in.symbols.at("alpha");
  EXPECT_GE(std::fabs(alpha), 0.125);
  EXPECT_LE(std::fabs(alpha), 2.0);
  EXPECT_EQ(decode(FloatFormat::F16, encode(FloatFormat::F16, alpha, RoundMode::NearestEven)),
            alpha);
}

} // namespace
} // namespace volta::emulate
