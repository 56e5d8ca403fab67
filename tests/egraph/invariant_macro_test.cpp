// support/invariant.hpp: VOLTA_UNREACHABLE aborts with its message in every build; VOLTA_ASSERT
// aborts in checked builds (Debug, VOLTA_CHECK_INVARIANTS) and evaluates nothing otherwise.
#include <gtest/gtest.h>

#include "support/invariant.hpp"

namespace {

int g_evaluations = 0;
bool counted_false() {
  ++g_evaluations;
  return false;
}

TEST(InvariantMacro, UnreachableAbortsWithItsMessageInEveryBuild) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(VOLTA_UNREACHABLE("operator 77 outside the enum"),
               "internal error: unreachable: operator 77 outside the enum");
}

TEST(InvariantMacro, AssertAbortsOnlyInCheckedBuildsAndCostsNothingOtherwise) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  if (volta::support::kCheckInvariants) {
    EXPECT_DEATH(VOLTA_ASSERT(counted_false(), "children precede their node"),
                 "invariant violated: children precede their node \\(counted_false\\(\\)\\)");
  } else {
    g_evaluations = 0;
    VOLTA_ASSERT(counted_false(), "never evaluated");
    EXPECT_EQ(g_evaluations, 0) << "a release build must not evaluate an assert's condition";
  }
  VOLTA_ASSERT(1 + 1 == 2, "a true condition passes");
}

} // namespace
