// IdMap against std::unordered_map: random inserts, assignments and erases over a small key
// range (long probe runs, wrap-around at the end of the table, erases inside runs), every key
// looked up after every step.
#include <gtest/gtest.h>
#include <random>
#include <unordered_map>

#include "engine/symbolic/id_map.hpp"

namespace volta::symbolic {
namespace {

TEST(IdMap, AgreesWithAStandardMapUnderRandomUpdates) {
  std::mt19937 random(7);
  IdMap map;
  std::unordered_map<ExprId, uint32_t> expected;
  for (int step = 0; step < 20000; ++step) {
    const ExprId key = 1 + random() % 300;
    const uint32_t value = random();
    switch (random() % 4) {
    case 0:
      map.set(key, value);
      expected[key] = value;
      break;
    case 1:
      map.insert(key, value);
      expected.emplace(key, value);
      break;
    default:
      map.erase(key);
      expected.erase(key);
      break;
    }
    ASSERT_EQ(map.size(), expected.size()) << "step " << step;
    if (step % 97 == 0) {
      for (ExprId k = 1; k <= 300; ++k) {
        const uint32_t* found = map.find(k);
        const auto it = expected.find(k);
        ASSERT_EQ(found != nullptr, it != expected.end()) << "key " << k << " step " << step;
        if (found != nullptr) {
          ASSERT_EQ(*found, it->second) << "key " << k << " step " << step;
        }
      }
    }
  }
  map.clear();
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.find(1 + random() % 300), nullptr);
}

TEST(IdMap, AnEmptyMapFindsAndErasesNothing) {
  IdMap map;
  EXPECT_EQ(map.find(5), nullptr);
  map.erase(5);
  EXPECT_EQ(map.size(), 0u);
}

} // namespace
} // namespace volta::symbolic
