// The Z3-only baseline: the same translation, no ground laws, no domain conditions.
#include "engine/smt/z3_baseline.hpp"
#include "smt_fixture.hpp"

namespace volta::smt::testing {
namespace {

using BaselineTest = SmtTest;

TEST_F(BaselineTest, ProvesPolynomialIdentities) {
  const ExprId x = A(0), y = A(1), z = B(0);
  const BaselineResult r =
      z3_baseline(store, b.mul(x, b.add(y, z)), b.add(b.mul(x, y), b.mul(x, z)), "O[0]");
  EXPECT_EQ(r.verdict, Kind::Equivalent);
  EXPECT_EQ(r.z3_status, Status::Unsat);
  EXPECT_TRUE(r.translated);
  EXPECT_GT(r.seconds, 0.0);
}

TEST_F(BaselineTest, ConfirmsItsCounterexamples) {
  const ExprId x = A(0), y = A(1);
  const BaselineResult r = z3_baseline(store, b.mul(x, y), b.add(x, y), "O[0]");
  EXPECT_EQ(r.verdict, Kind::NotEquivalent);
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_TRUE(r.counterexample->confirmed);
}

TEST_F(BaselineTest, CannotFuseExponentialsWithoutTheLaws) {
  const ExprId x = A(0), y = A(1);
  const ExprId ref = b.mul(exp(x), exp(y)), opt = exp(b.add(x, y));
  const BaselineResult r = z3_baseline(store, ref, opt, "O[0]");
  EXPECT_EQ(r.z3_status, Status::Sat);                // exp is just some function to Z3
  EXPECT_EQ(r.verdict, Kind::Unknown);                // and its model is not a real counterexample
  EXPECT_EQ(decide(ref, opt).kind, Kind::Equivalent); // the fallback's ground law does it
}

TEST_F(BaselineTest, RefusesWhatTheTranslationRefuses) {
  const BaselineResult r = z3_baseline(store, b.add(A(0), store.pos_inf()), A(0), "O[0]");
  EXPECT_FALSE(r.translated);
  EXPECT_EQ(r.verdict, Kind::Unknown);
  EXPECT_NE(r.reason.find("unsupported"), std::string::npos);
}

} // namespace
} // namespace volta::smt::testing
