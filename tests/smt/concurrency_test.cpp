// Queries from several TBB tasks at once, each with its own Z3 context, answer like sequential
// ones.
#include <tbb/parallel_for.h>

#include "smt_fixture.hpp"

namespace volta::smt::testing {
namespace {

using ConcurrencyTest = SmtTest;

TEST_F(ConcurrencyTest, ParallelQueriesMatchSequentialOnes) {
  std::vector<std::pair<ExprId, ExprId>> pairs;
  for (int k = 0; k < 4; ++k) {
    const ExprId x = A(k), y = B(k), z = A(k + 10);
    pairs.emplace_back(b.mul(x, b.add(y, z)), b.add(b.mul(x, y), b.mul(x, z))); // equal
    pairs.emplace_back(b.mul(exp(x), exp(y)), k % 2 ? exp(b.add(x, y)) : exp(b.mul(x, y)));
  }
  ASSERT_EQ(pairs.size(), 8u);
  const auto fallback = make_z3_fallback(20'000);
  std::vector<prove::ElementOutcome> sequential(pairs.size()), parallel(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    sequential[i] =
        *fallback(store, pairs[i].first, pairs[i].second, "O[" + std::to_string(i) + "]", nullptr);
  }
  for (int round = 0; round < 2; ++round) {
    tbb::parallel_for(size_t{0}, pairs.size(), [&](size_t i) {
      parallel[i] = *fallback(store, pairs[i].first, pairs[i].second,
                              "O[" + std::to_string(i) + "]", nullptr);
    });
    for (size_t i = 0; i < pairs.size(); ++i) {
      EXPECT_EQ(parallel[i].kind, sequential[i].kind) << i << ": " << parallel[i].reason;
      EXPECT_EQ(parallel[i].counterexample.has_value(), sequential[i].counterexample.has_value());
    }
  }
  for (size_t i = 0; i < pairs.size(); i += 2)
    EXPECT_EQ(sequential[i].kind, Kind::Equivalent);
  EXPECT_EQ(sequential[3].kind, Kind::Equivalent);
  EXPECT_NE(sequential[1].kind, Kind::Equivalent);
}

} // namespace
} // namespace volta::smt::testing
