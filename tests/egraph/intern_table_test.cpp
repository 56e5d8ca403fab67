// egraph::InternTable: one id per distinct value, in first-interned order, whatever the hash's
// quality (the canonical forms pass a weak mix; equal hashes of different values must not merge).
#include <deque>
#include <gtest/gtest.h>
#include <string>

#include "egraph/interner.hpp"

namespace volta::egraph {
namespace {

bool same(const std::string& a, const std::string& b) {
  return a == b;
}

TEST(InternTable, EqualValuesShareAnIdAndDifferentOnesDoNotEvenUnderOneHash) {
  InternTable<std::string> table;
  // Every value under the same hash: only the equality tells them apart.
  const auto a = table.intern(42, std::string("a"), same);
  const auto b = table.intern(42, std::string("b"), same);
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 1u);
  EXPECT_EQ(table.intern(42, std::string("a"), same), a);
  EXPECT_EQ(table.intern(42, std::string("b"), same), b);
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table[b], "b");
  EXPECT_FALSE(table.find(42, [](const std::string& s) { return s == "c"; }).has_value());
}

TEST(InternTable, ManyValuesKeepTheirIdsAcrossGrowth) {
  InternTable<std::string, std::deque<std::string>> table;
  const std::string& first = table[table.intern(0, std::string("v0"), same)];
  for (int i = 1; i < 5000; ++i)
    ASSERT_EQ(table.intern(static_cast<std::uint64_t>(i), "v" + std::to_string(i), same),
              static_cast<std::uint32_t>(i));
  for (int i = 0; i < 5000; ++i)
    ASSERT_EQ(table.intern(static_cast<std::uint64_t>(i), "v" + std::to_string(i), same),
              static_cast<std::uint32_t>(i));
  EXPECT_EQ(first, "v0") << "a deque-backed table keeps references valid";
}

} // namespace
} // namespace volta::egraph
