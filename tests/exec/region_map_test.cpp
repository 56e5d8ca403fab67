// The region lookup both machines' global memories share (engine/exec/region_map.hpp).
#include <gtest/gtest.h>
#include <vector>

#include "engine/exec/region_map.hpp"

namespace volta::exec {
namespace {

struct R {
  uint64_t base;
  uint64_t size;
};
constexpr auto kSize = [](const R& r) { return r.size; };

TEST(RegionMap, AnAccessIsInTheRegionThatHoldsAllOfIt) {
  std::vector<R> regions{{0x300, 0x10}, {0x100, 0x40}, {0x200, 8}};
  sort_by_base(regions.begin(), regions.end());
  ASSERT_EQ(regions[0].base, 0x100u);
  auto at = [&](uint64_t a, uint64_t n) {
    const R* r = region_holding(regions.data(), regions.data() + regions.size(), a, n, kSize);
    return r == nullptr ? uint64_t{0} : r->base;
  };
  EXPECT_EQ(at(0x100, 4), 0x100u);
  EXPECT_EQ(at(0x13c, 4), 0x100u); // the last word
  EXPECT_EQ(at(0x13e, 4), 0u);     // straddles the end
  EXPECT_EQ(at(0x140, 1), 0u);     // the first byte past it
  EXPECT_EQ(at(0xff, 1), 0u);      // below every region
  EXPECT_EQ(at(0x204, 4), 0x200u);
  EXPECT_EQ(at(0x208, 4), 0u); // between two regions
  EXPECT_EQ(at(0x30f, 1), 0x300u);
  EXPECT_EQ(at(0x310, 1), 0u); // past the last one
}

TEST(RegionMap, NoSumWrapsAroundTheAddressSpace) {
  // A region that ends at 2^64 exactly, and accesses whose end would wrap.
  std::vector<R> regions{{0x100, 0x10}, {~uint64_t{0} - 0xf, 0x10}};
  auto found = [&](uint64_t a, uint64_t n) {
    return region_holding(regions.data(), regions.data() + regions.size(), a, n, kSize) != nullptr;
  };
  EXPECT_TRUE(found(~uint64_t{0} - 3, 4));  // the region's last word
  EXPECT_FALSE(found(~uint64_t{0} - 3, 8)); // past 2^64
  EXPECT_FALSE(found(0x108, ~uint64_t{0})); // a size that would wrap
}

TEST(RegionMap, HoldsAccessMeasuresFromTheBase) {
  EXPECT_TRUE(holds_access(0x100, 0x10, 0x100, 0x10));
  EXPECT_FALSE(holds_access(0x100, 0x10, 0x100, 0x11));
  EXPECT_FALSE(holds_access(0x100, 0x10, 0xfc, 4)); // below the base
  EXPECT_FALSE(holds_access(0x100, 0x10, 0xfc, 8)); // straddles the base
  EXPECT_FALSE(holds_access(0x100, 0, 0x100, 1));   // an empty region holds nothing
}

TEST(RegionMap, OverlapsAreFoundBetweenNeighbours) {
  std::vector<R> disjoint{{0x100, 0x100}, {0x200, 0x10}, {0x300, 1}};
  EXPECT_EQ(first_overlap(disjoint.begin(), disjoint.end(), kSize), 0u);
  std::vector<R> overlapping{{0x100, 0x100}, {0x200, 0x10}, {0x20f, 4}};
  EXPECT_EQ(first_overlap(overlapping.begin(), overlapping.end(), kSize), 2u);
  std::vector<R> one{{0x100, 0x100}};
  EXPECT_EQ(first_overlap(one.begin(), one.end(), kSize), 0u);
  std::vector<R> none;
  EXPECT_EQ(first_overlap(none.begin(), none.end(), kSize), 0u);
}

} // namespace
} // namespace volta::exec
