// The query wrapper: answers with reasons, budgets, the watchdog, cancellation.
#include "engine/smt/query.hpp"
#include "smt_fixture.hpp"

#include <chrono>
#include <thread>

namespace volta::smt::testing {
namespace {

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Cauchy-Schwarz in n dimensions as an element pair: select((sum a_i^2)(sum b_i^2) <
// (sum a_i b_i)^2, 1, 0) against 0. It holds, but proving it takes Z3's nonlinear arithmetic a
// long time for n >= 4, so it is the hard query of these tests.
class HardQuery : public SmtTest {
protected:
  std::pair<ExprId, ExprId> cauchy_schwarz(int n) {
    ExprId aa = c(0), bb = c(0), ab = c(0);
    for (int i = 0; i < n; ++i) {
      aa = b.fma(A(i), A(i), aa);
      bb = b.fma(B(i), B(i), bb);
      ab = b.fma(A(i), B(i), ab);
    }
    const ExprId violated = b.cmp(symbolic::CmpKind::Lt, b.mul(aa, bb), b.mul(ab, ab));
    return {b.select(violated, c(1), c(0)), c(0)};
  }
};

TEST(Query, AnswersSatAndUnsat) {
  Query q(Budget{});
  z3::expr x = q.ctx().real_const("x");
  q.add(x * x < 0);
  EXPECT_EQ(q.check().status, Status::Unsat);
  Query q2(Budget{});
  z3::expr y = q2.ctx().real_const("y");
  q2.add(y * y == 2);
  const CheckResult r = q2.check();
  EXPECT_EQ(r.status, Status::Sat);
  EXPECT_TRUE(r.reason.empty());
  EXPECT_TRUE(q2.model().eval(y * y, true).is_numeral());
}

TEST_F(HardQuery, TinyTimeoutReturnsUnknownQuickly) {
  const auto [ref, opt] = cauchy_schwarz(6);
  const auto start = Clock::now();
  const auto out = decide(ref, opt, /*timeout_ms=*/200);
  const double took = seconds_since(start);
  EXPECT_NE(out.kind, Kind::NotEquivalent); // the inequality holds
  if (out.kind == Kind::Unknown) {
    EXPECT_NE(out.reason.find("timeout"), std::string::npos) << out.reason;
  }
  // A safety net against hangs, not a speed target.
  EXPECT_LT(took, 3.0);
}

TEST_F(HardQuery, ResourceLimitGivesAReproducibleUnknown) {
  const auto [ref, opt] = cauchy_schwarz(6);
  Z3Options o;
  o.budget.timeout_ms = 0;
  o.budget.rlimit = 2000;
  for (int run = 0; run < 2; ++run) {
    const auto out = decide_with_z3(store, ref, opt, "O[0]", o);
    EXPECT_EQ(out.kind, Kind::Unknown);
    EXPECT_NE(out.reason.find("resource"), std::string::npos) << out.reason;
  }
}

TEST_F(HardQuery, CancelFlagStopsTheQuery) {
  const auto [ref, opt] = cauchy_schwarz(6);
  std::atomic<bool> cancel{false};
  Z3Options o;
  o.budget.timeout_ms = 60'000;
  o.budget.cancel = &cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  const auto start = Clock::now();
  const auto out = decide_with_z3(store, ref, opt, "O[0]", o);
  canceller.join();
  EXPECT_LT(seconds_since(start), 3.0);
  if (out.kind == Kind::Unknown) {
    EXPECT_NE(out.reason.find("cancelled"), std::string::npos) << out.reason;
  }
  EXPECT_NE(out.kind, Kind::NotEquivalent);
}

TEST(Watchdog, InterruptsAtTheDeadlineAndNotAfterDestruction) {
  z3::context ctx;
  {
    Watchdog w(ctx, Clock::now() + std::chrono::milliseconds(5), nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(w.fired());
  }
  {
    Watchdog w(ctx, Clock::now() + std::chrono::hours(1), nullptr);
    EXPECT_FALSE(w.fired());
  } // returns at once: the thread is woken, not waited out
}

TEST(Query, AnInterruptedContextIsNotReused) {
  Budget budget;
  budget.timeout_ms = 1;
  Query q(budget);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  z3::expr x = q.ctx().real_const("x");
  q.add(x > 0);
  const CheckResult r = q.check();
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_NE(r.reason.find("timeout"), std::string::npos) << r.reason;
}

TEST(Query, ExceptionsBecomeReasons) {
  Query q(Budget{});
  try {
    z3::expr bad = q.ctx().real_const("x") + q.ctx().bool_val(true); // sort mismatch
    q.add(bad > 0);
    FAIL() << "Z3 accepted an ill-sorted term";
  } catch (const z3::exception& e) {
    const CheckResult r = q.unknown_from_exception(e.msg());
    EXPECT_EQ(r.status, Status::Unknown);
    EXPECT_NE(r.reason.find("Z3 error"), std::string::npos);
  }
}

} // namespace
} // namespace volta::smt::testing
