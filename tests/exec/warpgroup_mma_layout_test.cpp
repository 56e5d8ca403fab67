// The wgmma layouts of engine/exec/warpgroup_mma_layout.hpp, which both CTA machines use, against
// worked examples of the PTX ISA ("Matrix Descriptor Format", "Shared Memory Matrix Layout" and
// its swizzle figures, "Register Fragments" of wgmma .m64nNk16) and CuTe's canonical GMMA layouts.
#include <gtest/gtest.h>
#include <set>
#include <utility>

#include "engine/exec/warpgroup_mma_layout.hpp"

namespace volta::exec::wgmma {
namespace {

uint64_t encode(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t base_offset, uint32_t mode) {
  return uint64_t{(start & 0x3ffff) >> 4} | uint64_t{lbo >> 4} << 16 | uint64_t{sbo >> 4} << 32 |
         uint64_t{base_offset} << 49 | uint64_t{mode} << 62;
}

TEST(WgmmaDescriptor, FieldsAreInUnitsOf16Bytes) {
  const MatrixDescriptor d = decode_descriptor(encode(0x2400, 16, 1024, 0, 1));
  EXPECT_EQ(d.start, 0x2400u);
  EXPECT_EQ(d.leading, 16u);
  EXPECT_EQ(d.stride, 1024u);
  EXPECT_EQ(d.base_offset, 0u);
  EXPECT_EQ(d.swizzle, Swizzle::B128);
  EXPECT_EQ(decode_descriptor(uint64_t{2} << 62).swizzle, Swizzle::B64);
  EXPECT_EQ(decode_descriptor(uint64_t{3} << 62).swizzle, Swizzle::B32);
  EXPECT_EQ(decode_descriptor(0).swizzle, Swizzle::None);
  EXPECT_EQ(decode_descriptor(uint64_t{5} << 49).base_offset, 5u);
  EXPECT_TRUE(unsupported_descriptor(decode_descriptor(uint64_t{5} << 49)).has_value());
  EXPECT_FALSE(unsupported_descriptor(d).has_value());
  // Bits 14-15, 30-31 and 46-48 are not part of the fields.
  EXPECT_EQ(decode_descriptor(uint64_t{0xc000c000}).start, 0u);
  EXPECT_EQ(decode_descriptor(uint64_t{0xc000c000}).leading, 0u);
}

TEST(WgmmaSwizzle, ChunksOfARowXorTheRowWithinThePattern) {
  // 128B: the 16-byte chunk c of row r (of 128 bytes) moves to chunk c ^ (r % 8).
  EXPECT_EQ(swizzle_address(Swizzle::B128, 0x080), 0x090u); // row 1, chunk 0 -> chunk 1
  EXPECT_EQ(swizzle_address(Swizzle::B128, 0x3f0), 0x380u); // row 7, chunk 7 -> chunk 0
  EXPECT_EQ(swizzle_address(Swizzle::B128, 0x400), 0x400u); // row 8 = row 0 of the next pattern
  EXPECT_EQ(swizzle_address(Swizzle::B128, 0x2a6), 0x2f6u); // row 5, chunk 2 -> 7, byte 6 kept
  // 64B: two chunk bits (4-5) XOR row bits 7-8.
  EXPECT_EQ(swizzle_address(Swizzle::B64, 0x100), 0x120u);
  EXPECT_EQ(swizzle_address(Swizzle::B64, 0x180), 0x1b0u);
  EXPECT_EQ(swizzle_address(Swizzle::B64, 0x200), 0x200u); // the 512-byte pattern repeats
  // 32B: bit 4 XOR bit 7.
  EXPECT_EQ(swizzle_address(Swizzle::B32, 0x080), 0x090u);
  EXPECT_EQ(swizzle_address(Swizzle::B32, 0x100), 0x100u);
  EXPECT_EQ(swizzle_address(Swizzle::None, 0x3f0), 0x3f0u);
  EXPECT_EQ(swizzle_row_bytes(Swizzle::None), 16u);
  EXPECT_EQ(swizzle_row_bytes(Swizzle::B128), 128u);
}

TEST(WgmmaOperand, KMajorNoSwizzleIsCoreMatricesOf8RowsBy16Bytes) {
  const MatrixDescriptor d = decode_descriptor(encode(0x1000, 128, 256, 0, 0));
  // A core matrix: 8 rows of 16 contiguous bytes (8 elements along K), 128 bytes in all.
  EXPECT_EQ(operand_address(d, false, 0, 0), 0x1000u);
  EXPECT_EQ(operand_address(d, false, 0, 7), 0x100eu);
  EXPECT_EQ(operand_address(d, false, 3, 5), 0x1000u + 3 * 16 + 5 * 2);
  EXPECT_EQ(operand_address(d, false, 0, 8), 0x1000u + 128); // the next along K: LBO
  EXPECT_EQ(operand_address(d, false, 8, 0), 0x1000u + 256); // the next along M/N: SBO
  EXPECT_EQ(operand_address(d, false, 17, 9), 0x1000u + 2 * 256 + 16 + 128 + 2);
}

TEST(WgmmaOperand, KMajor128BIsRowsOf128BytesSwizzled) {
  // The ISA's 128B-swizzle figure: row r of a 1024-byte-aligned pattern holds its K elements in
  // 16-byte chunks permuted by XOR with r % 8; SBO (1024 here) steps 8 rows.
  const MatrixDescriptor d = decode_descriptor(encode(0x2000, 16, 1024, 0, 1));
  for (uint32_t r = 0; r < 64; ++r) {
    for (uint32_t k = 0; k < 16; ++k) {
      const uint64_t expected =
          0x2000 + (r / 8) * 1024 + (r % 8) * 128 + (((k / 8) ^ (r % 8)) * 16) + (k % 8) * 2;
      ASSERT_EQ(operand_address(d, false, r, k), expected) << r << "," << k;
    }
  }
  // CUTLASS steps K inside a 64-element-wide tile by adding 32 bytes to the start address: the
  // swizzle is on the absolute address, so (r, k) then is (r, k + 16) of that tile.
  const MatrixDescriptor next = decode_descriptor(encode(0x2000 + 32, 16, 1024, 0, 1));
  for (uint32_t r = 0; r < 8; ++r) {
    for (uint32_t k = 0; k < 16; ++k) {
      const uint32_t kk = k + 16;
      const uint64_t expected = 0x2000 + r * 128 + (((kk / 8) ^ r) * 16) + (kk % 8) * 2;
      ASSERT_EQ(operand_address(next, false, r, k), expected) << r << "," << k;
    }
  }
}

TEST(WgmmaOperand, MNMajor128BIsOneKRowPer128Bytes) {
  // MN-major 128B: K row k holds 64 M/N-contiguous elements (its chunks swizzled by k % 8); SBO
  // steps 8 K rows, LBO steps the next 64 elements along M/N.
  const MatrixDescriptor d = decode_descriptor(encode(0x4000, 4096, 1024, 0, 1));
  for (uint32_t n = 0; n < 128; ++n) {
    for (uint32_t k = 0; k < 16; ++k) {
      const uint64_t expected = 0x4000 + (n / 64) * 4096 + (k / 8) * 1024 + (k % 8) * 128 +
                                ((((n % 64) / 8) ^ (k % 8)) * 16) + (n % 8) * 2;
      ASSERT_EQ(operand_address(d, true, n, k), expected) << n << "," << k;
    }
  }
}

TEST(WgmmaOperand, MNMajorNoSwizzleSwapsTheRolesOfTheCoreMatrix) {
  // Core matrix: 8 K rows of 16 bytes, each 8 M/N-contiguous elements; SBO along M/N, LBO along K.
  const MatrixDescriptor d = decode_descriptor(encode(0, 128, 256, 0, 0));
  EXPECT_EQ(operand_address(d, true, 5, 3), 3u * 16 + 5 * 2);
  EXPECT_EQ(operand_address(d, true, 8, 0), 256u);
  EXPECT_EQ(operand_address(d, true, 0, 8), 128u);
}

TEST(WgmmaOperand, EveryLayoutPlacesA64x16TileWithoutOverlap) {
  for (uint32_t mode = 0; mode < 4; ++mode) {
    for (bool mn_major : {false, true}) {
      const uint32_t w = swizzle_row_bytes(static_cast<Swizzle>(mode));
      // Strides that pack the tile: see the canonical layouts in the header.
      const uint32_t lbo = mode == 0 ? 128 : (mn_major ? 2 * 8 * w : 16);
      const uint32_t sbo = mode == 0 ? 256 : 8 * w;
      const MatrixDescriptor d = decode_descriptor(encode(0x8000, lbo, sbo, 0, mode));
      std::set<uint64_t> seen;
      for (uint32_t mn = 0; mn < 64; ++mn) {
        for (uint32_t k = 0; k < 16; ++k) {
          const uint64_t a = operand_address(d, mn_major, mn, k);
          EXPECT_EQ(a % 2, 0u);
          EXPECT_TRUE(seen.insert(a).second) << "mode " << mode << " mn_major " << mn_major;
        }
      }
    }
  }
}

TEST(WgmmaFragments, AccumulatorIsTheMmaLayoutRepeatedAlongNPerWarp) {
  // Thread 0: D[0][0], D[0][1], D[8][0], D[8][1], then the next 8 columns.
  const std::pair<uint32_t, uint32_t> t0[] = {{0, 0}, {0, 1}, {8, 0}, {8, 1}, {0, 8}, {0, 9}};
  for (uint32_t v = 0; v < 6; ++v) {
    EXPECT_EQ(accumulator_element(0, v).row, t0[v].first);
    EXPECT_EQ(accumulator_element(0, v).col, t0[v].second);
  }
  // Lane 5 (row group 1, column pair 1); warp 1 starts at row 16, warp 3 at 48.
  EXPECT_EQ(accumulator_element(5, 0).row, 1u);
  EXPECT_EQ(accumulator_element(5, 0).col, 2u);
  EXPECT_EQ(accumulator_element(32, 0).row, 16u);
  EXPECT_EQ(accumulator_element(96 + 31, 3).row, 48u + 7 + 8);
  EXPECT_EQ(accumulator_element(96 + 31, 3).col, 7u);
  // m64n32: every element of D exactly once, each warp within its 16 rows.
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (uint32_t t = 0; t < 128; ++t) {
    for (uint32_t v = 0; v < 16; ++v) {
      const Element e = accumulator_element(t, v);
      EXPECT_EQ(e.row / 16, t / 32);
      EXPECT_LT(e.col, 32u);
      EXPECT_TRUE(seen.insert({e.row, e.col}).second);
    }
  }
  EXPECT_EQ(seen.size(), 64u * 32);
}

TEST(WgmmaFragments, ARegistersAreTheMmaAFragmentPerWarp) {
  // Thread 0: a0,a1 = A[0][0..1], a2,a3 = A[8][0..1], a4,a5 = A[0][8..9], a6,a7 = A[8][8..9].
  const std::pair<uint32_t, uint32_t> t0[] = {{0, 0}, {0, 1}, {8, 0}, {8, 1},
                                              {0, 8}, {0, 9}, {8, 8}, {8, 9}};
  for (uint32_t v = 0; v < 8; ++v) {
    EXPECT_EQ(a_register_element(0, v).row, t0[v].first);
    EXPECT_EQ(a_register_element(0, v).col, t0[v].second);
  }
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (uint32_t t = 0; t < 128; ++t) {
    for (uint32_t v = 0; v < 8; ++v) {
      const Element e = a_register_element(t, v);
      EXPECT_EQ(e.row / 16, t / 32); // a warp holds its own rows of A: its quarter of D alone
      EXPECT_TRUE(seen.insert({e.row, e.col}).second);
    }
  }
  EXPECT_EQ(seen.size(), 64u * 16);
}

} // namespace
} // namespace volta::exec::wgmma
