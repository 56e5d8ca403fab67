// Queries through the pre-forked solver worker: the same answers, model values and limits as a
// fork per query (query_test.cpp), with the query travelling as SMT-LIB text. Each test starts
// the worker in its own process (ctest runs every test alone).
#include <chrono>
#include <fmt/format.h>
#include <string>
#include <thread>

#include "engine/smt/query.hpp"
#include "engine/smt/solver_worker.hpp"
#include "smt_fixture.hpp"

namespace volta::smt::testing {
namespace {

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

Budget isolated(unsigned timeout_ms = 0) {
  Budget budget;
  budget.isolate = true;
  budget.timeout_ms = timeout_ms;
  return budget;
}

TEST(SolverWorker, AnswersWithModelValues) {
  ASSERT_TRUE(start_solver_worker());
  ASSERT_TRUE(solver_worker_running());
  Query q(isolated());
  const z3::expr x = q.ctx().real_const("x");
  const z3::func_decl f = q.ctx().function("f", q.ctx().real_sort(), q.ctx().real_sort());
  z3::expr_vector negative_square(q.ctx());
  negative_square.push_back(x * x < 0);
  EXPECT_EQ(q.check(negative_square).status, Status::Unsat);
  z3::expr_vector root_two(q.ctx());
  root_two.push_back(x * x == 2 && x > 0 && f(x) > 3);
  const CheckResult r = q.check(root_two, {x, x > 1, x * x, f(x) > 3}, Procedure::WithFunctions);
  ASSERT_EQ(r.status, Status::Sat) << r.reason;
  ASSERT_EQ(r.values.size(), 4u);
  symbolic::Rational v(r.values[0]);
  v.canonicalize();
  EXPECT_LT(abs(v * v - 2), symbolic::Rational(1, 1000000));
  EXPECT_EQ(r.values[1], "true");
  EXPECT_EQ(r.values[2], "2");
  EXPECT_EQ(r.values[3], "true");
  // Bit-vectors travel too.
  const z3::expr w = q.ctx().bv_const("w", 32);
  z3::expr_vector wrap(q.ctx());
  wrap.push_back(w + 1 == 0);
  const CheckResult b = q.check(wrap, {w});
  ASSERT_EQ(b.status, Status::Sat) << b.reason;
  EXPECT_EQ(b.values[0], "4294967295");
}

// The smt core's nonlinear arithmetic ignores interrupts: the worker's child is killed at the
// deadline, as a forked child is.
TEST(SolverWorker, DeadlineKillsTheChild) {
  ASSERT_TRUE(start_solver_worker());
  Query q(isolated(500));
  z3::context& ctx = q.ctx();
  z3::expr aa = ctx.real_val(0), bb = aa, ab = aa;
  for (int i = 0; i < 6; ++i) {
    const z3::expr a = ctx.real_const(fmt::format("a{}", i).c_str());
    const z3::expr b = ctx.real_const(fmt::format("b{}", i).c_str());
    aa = aa + a * a;
    bb = bb + b * b;
    ab = ab + a * b;
  }
  z3::expr_vector violated(ctx);
  violated.push_back(aa * bb < ab * ab);
  const auto start = Clock::now();
  const CheckResult r = q.check(violated, {}, Procedure::WithFunctions);
  EXPECT_LT(seconds_since(start), 3.0);
  EXPECT_NE(r.status, Status::Sat);
  if (r.status == Status::Unknown) {
    EXPECT_NE(r.reason.find("timeout after 500 ms"), std::string::npos) << r.reason;
  }
  // The worker outlives a killed child: the next query is answered.
  Query next(isolated());
  const z3::expr y = next.ctx().real_const("y");
  z3::expr_vector trivial(next.ctx());
  trivial.push_back(y > 1);
  EXPECT_EQ(next.check(trivial).status, Status::Sat);
}

TEST(SolverWorker, ManyThreadsAtOnce) {
  ASSERT_TRUE(start_solver_worker());
  std::vector<std::thread> threads;
  std::atomic<int> right{0};
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([t, &right] {
      Query q(isolated(20'000));
      const z3::expr x = q.ctx().int_const("x");
      z3::expr_vector v(q.ctx());
      v.push_back(x * 2 == t * 2);
      const CheckResult r = q.check(v, {x});
      if (r.status == Status::Sat && r.values.size() == 1 && r.values[0] == std::to_string(t))
        ++right;
    });
  }
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(right.load(), 6);
}

TEST(SolverWorker, MemoryLimitEndsTheChildNotTheWorker) {
  ASSERT_TRUE(start_solver_worker());
  Budget budget = isolated(20'000);
  budget.memory_mb = 1; // far too little for Z3 to start
  Query q(budget);
  // Large enough that parsing alone needs far more than the free space left in the worker's
  // heap: a small query can be answered from memory the warmed-up context already holds.
  const z3::expr x = q.ctx().real_const("x");
  z3::expr_vector v(q.ctx());
  v.push_back(x * x == 2);
  for (int i = 0; i < 20'000; ++i)
    v.push_back(q.ctx().real_const(fmt::format("m{}", i).c_str()) * x > i);
  const CheckResult r = q.check(v, {x});
  EXPECT_EQ(r.status, Status::Unknown);
  EXPECT_TRUE(solver_worker_running());
  Query ok(isolated(20'000));
  const z3::expr y = ok.ctx().real_const("y");
  z3::expr_vector w(ok.ctx());
  w.push_back(y * y == 4 && y < 0);
  const CheckResult s = ok.check(w, {y});
  ASSERT_EQ(s.status, Status::Sat) << s.reason;
  EXPECT_EQ(s.values[0], "-2");
}

} // namespace
} // namespace volta::smt::testing
