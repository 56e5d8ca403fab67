// IndexRanges (engine/index_ranges.hpp): the exactly computed elements of an output, as ranges.
#include <gtest/gtest.h>
#include <random>
#include <set>

#include "engine/index_ranges.hpp"

namespace volta {
namespace {

TEST(IndexRanges, IncreasingInsertsMakeOneRangePerRun) {
  IndexRanges r;
  for (uint64_t i = 0; i < 1'000'000; ++i)
    r.insert(i);
  for (uint64_t i = 2'000'000; i < 2'000'010; ++i)
    r.insert(i);
  EXPECT_EQ(r.range_count(), 2u);
  EXPECT_EQ(r.count(), 1'000'010u);
  EXPECT_TRUE(r.contains(0));
  EXPECT_TRUE(r.contains(999'999));
  EXPECT_FALSE(r.contains(1'000'000));
  EXPECT_TRUE(r.contains(2'000'009));
  EXPECT_FALSE(r.contains(2'000'010));
}

// Any order, duplicates, and the union of two sets agree with std::set.
TEST(IndexRanges, AgreesWithASetInAnyOrder) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 50; ++round) {
    IndexRanges a, b;
    std::set<uint64_t> sa, sb;
    for (int k = 0; k < 200; ++k) {
      const uint64_t i = random() % 120, j = random() % 120;
      a.insert(i);
      sa.insert(i);
      b.insert(j);
      sb.insert(j);
    }
    for (uint64_t i = 0; i < 130; ++i)
      ASSERT_EQ(a.contains(i), sa.count(i) == 1) << "round " << round << " index " << i;
    EXPECT_EQ(a.count(), sa.size());
    a.merge(b);
    sa.insert(sb.begin(), sb.end());
    for (uint64_t i = 0; i < 130; ++i)
      ASSERT_EQ(a.contains(i), sa.count(i) == 1) << "merged, round " << round << " index " << i;
    EXPECT_EQ(a.count(), sa.size());
  }
  EXPECT_EQ((IndexRanges{3, 1, 2}), (IndexRanges{1, 2, 3}));
  EXPECT_EQ((IndexRanges{1, 2, 3}).range_count(), 1u);
}

} // namespace
} // namespace volta
