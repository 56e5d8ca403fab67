// The box of a tiled TMA copy (engine/exec/tma_box.hpp): layout in shared memory with and
// without swizzle, bounds and fill, traversal strides, and what is refused. The expected
// addresses are written out from the documented meaning (cuda.h, the PTX ISA), not computed by
// the function under test.
#include <gtest/gtest.h>

#include "engine/exec/tma_box.hpp"

namespace volta::exec {
namespace {

constexpr uint32_t kFloat16 = 6, kFloat32 = 7, kUint8 = 0;

launch::TensorMap map2d(uint32_t type, uint64_t cols, uint64_t rows, uint64_t row_stride,
                        uint32_t box_cols, uint32_t box_rows, uint32_t swizzle) {
  launch::TensorMap m;
  m.data_type = type;
  m.rank = 2;
  m.array = "A";
  m.global_dim = {cols, rows, 0, 0, 0};
  m.global_strides = {row_stride, 0, 0, 0};
  m.box_dim = {box_cols, box_rows, 0, 0, 0};
  m.element_strides = {1, 1, 0, 0, 0};
  m.swizzle = swizzle;
  return m;
}

TmaBox box_of(const std::variant<TmaBox, std::string>& r) {
  if (const auto* why = std::get_if<std::string>(&r)) {
    ADD_FAILURE() << "refused: " << *why;
    return {};
  }
  return std::get<TmaBox>(r);
}

TEST(TmaBox, UnswizzledBoxIsDenseWithDimensionZeroInnermost) {
  // f32 matrix of 40 columns (row stride 160 bytes), box 8 x 4 at (column 16, row 2).
  const auto m = map2d(kFloat32, 40, 10, 160, 8, 4, 0);
  const int32_t at[] = {16, 2};
  const TmaBox b = box_of(tma_box(m, at, 0x400));
  ASSERT_EQ(b.elements.size(), 32u);
  EXPECT_EQ(b.bytes, 128u);
  EXPECT_EQ(b.element_bytes, 4u);
  for (uint32_t r = 0; r < 4; ++r) {
    for (uint32_t c = 0; c < 8; ++c) {
      const TmaBoxElement& e = b.elements[r * 8 + c];
      EXPECT_EQ(e.shared_address, 0x400u + (r * 8 + c) * 4);
      ASSERT_TRUE(e.global_offset);
      EXPECT_EQ(*e.global_offset, (2 + r) * 160u + (16 + c) * 4u);
    }
  }
}

TEST(TmaBox, Swizzle128BXorsTheChunkWithTheRowModuloEight) {
  // f16, 64 columns = one 128-byte row per box row, 16 rows, at a 1024-aligned address: the
  // 16-byte chunk k of row r lands at chunk k ^ (r % 8).
  const auto m = map2d(kFloat16, 64, 16, 128, 64, 16, 3);
  const int32_t at[] = {0, 0};
  const TmaBox b = box_of(tma_box(m, at, 0x800));
  ASSERT_EQ(b.elements.size(), 64u * 16u);
  for (uint32_t r = 0; r < 16; ++r) {
    for (uint32_t c = 0; c < 64; ++c) {
      const uint32_t chunk = (c * 2) / 16, within = (c * 2) % 16;
      const uint64_t want = 0x800 + r * 128 + ((chunk ^ (r % 8)) * 16) + within;
      ASSERT_EQ(b.elements[r * 64 + c].shared_address, want) << "row " << r << " col " << c;
    }
  }
}

TEST(TmaBox, SwizzleFollowsTheAddressNotTheOffset) {
  // A 128B-swizzled box placed at 0x880 (128 past a 1024 boundary): its row 0 is address row 1
  // of the pattern, so its chunk 0 lands at chunk 1.
  const auto m = map2d(kFloat16, 64, 8, 128, 64, 2, 3);
  const int32_t at[] = {0, 0};
  const TmaBox b = box_of(tma_box(m, at, 0x880));
  EXPECT_EQ(b.elements[0].shared_address, 0x880u + 16);
  EXPECT_EQ(b.elements[8].shared_address, 0x880u);           // chunk 1 of row 0 -> chunk 0
  EXPECT_EQ(b.elements[64].shared_address, 0x900u + 2 * 16); // row 1 (address row 2): chunk 2
}

TEST(TmaBox, Swizzle32BAnd64BUseOneAndTwoBits) {
  EXPECT_EQ(tma_swizzle(1, 0x80), 0x90u);   // bit 7 flips bit 4
  EXPECT_EQ(tma_swizzle(1, 0x100), 0x100u); // bit 8 is outside the 32B pattern
  EXPECT_EQ(tma_swizzle(2, 0x180), 0x1B0u); // bits 7-8 flip bits 4-5
  EXPECT_EQ(tma_swizzle(2, 0x200), 0x200u); // the 64B pattern repeats every 512 bytes
  EXPECT_EQ(tma_swizzle(3, 0x3F5), 0x3F5u ^ 0x70u);
  EXPECT_EQ(tma_swizzle(0, 0x3F5), 0x3F5u);
  // A swizzle is a permutation of each repeating block (applied twice it is the identity).
  for (uint64_t a = 0; a < 4096; ++a)
    ASSERT_EQ(tma_swizzle(3, tma_swizzle(3, a)), a);
}

TEST(TmaBox, ElementsOutsideTheGlobalDimsAreFilledAndStillCounted) {
  // A ragged tail: 36 columns, box of 8 at column 32: columns 36..39 are out of bounds; a
  // negative row coordinate too. The transaction count is the whole box.
  const auto m = map2d(kFloat32, 36, 4, 160, 8, 2, 0);
  const int32_t at[] = {32, -1};
  const TmaBox b = box_of(tma_box(m, at, 0));
  EXPECT_EQ(b.bytes, 64u);
  for (uint32_t c = 0; c < 8; ++c) {
    EXPECT_FALSE(b.elements[c].global_offset) << "row -1";
    EXPECT_EQ(b.elements[8 + c].global_offset.has_value(), c < 4) << "column " << 32 + c;
  }
  EXPECT_FALSE(b.nan_fill);
  auto nan = m;
  nan.oob_fill = 1;
  EXPECT_TRUE(box_of(tma_box(nan, at, 0)).nan_fill);
  auto bytes = nan;
  bytes.data_type = kUint8;
  bytes.box_dim[0] = 16;
  EXPECT_FALSE(box_of(tma_box(bytes, at, 0)).nan_fill) << "integer data is filled with zero";
}

TEST(TmaBox, TraversalStridesSkipElementsExceptAlongDimensionZero) {
  // Rows stepped by 2 with a box of 8 rows: rows 0, 2, 4, 6 are loaded, densely. The stride of
  // dimension 0 is ignored.
  auto m = map2d(kFloat32, 8, 16, 32, 8, 8, 0);
  m.element_strides = {3, 2, 0, 0, 0};
  const int32_t at[] = {0, 0};
  const TmaBox b = box_of(tma_box(m, at, 0));
  ASSERT_EQ(b.elements.size(), 32u);
  for (uint32_t r = 0; r < 4; ++r) {
    for (uint32_t c = 0; c < 8; ++c)
      EXPECT_EQ(*b.elements[r * 8 + c].global_offset, (2 * r) * 32u + c * 4u);
  }
  m.box_dim[1] = 7; // ceil(7 / 2) = 4 rows
  EXPECT_EQ(box_of(tma_box(m, at, 0)).elements.size(), 32u);
}

TEST(TmaBox, WhatIsNotModelledIsRefusedWithAReason) {
  const int32_t at[] = {0, 0};
  auto m = map2d(kFloat16, 64, 16, 128, 64, 16, 3);
  m.interleave = 1;
  EXPECT_TRUE(std::holds_alternative<std::string>(tma_box(m, at, 0)));
  m = map2d(kFloat16, 64, 16, 128, 64, 16, 4); // 128B_ATOM_32B
  EXPECT_TRUE(std::holds_alternative<std::string>(tma_box(m, at, 0)));
  m = map2d(kFloat16, 64, 16, 128, 32, 16, 3); // a 64-byte row under the 128-byte swizzle
  const auto r = tma_box(m, at, 0);
  ASSERT_TRUE(std::holds_alternative<std::string>(r));
  EXPECT_NE(std::get<std::string>(r).find("64 bytes"), std::string::npos);
  m = map2d(kFloat16, 64, 16, 128, 64, 16, 0);
  const int32_t one[] = {0};
  EXPECT_TRUE(std::holds_alternative<std::string>(tma_box(m, one, 0)));
}

} // namespace
} // namespace volta::exec
