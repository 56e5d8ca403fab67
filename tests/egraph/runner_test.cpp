// The runner: stop reasons, limits, hooks, reports; the backoff scheduler.

#include <atomic>
#include <thread>

#include "egraph/runner.hpp"
#include "test_util.hpp"

namespace volta::egraph {
namespace {

// x -> (f x) grows forever: a rule set that never saturates.
struct Growing {
  Language lang;
  std::vector<Rewrite> rules;
  Growing() {
    lang.set_symbol_op(lang.add_op("sym", 0, false, PayloadKind::Symbol));
    lang.add_op("f", 1);
    lang.add_op("g", 1);
    rules.push_back(Rewrite::parse(lang, "grow", "(f ?x)", "(f (g ?x))"));
  }
};

TEST(Runner, SaturatesAndReports) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const Id e = g.add_expr("(- x x)");
  std::vector<Rewrite> rules{Rewrite::parse(a.lang, "sub-self", "(- ?a ?a)", "0")};
  const RunReport rep = Runner(g).run(rules);
  EXPECT_EQ(rep.stop_reason, StopReason::Saturated);
  EXPECT_TRUE(g.is_equal(e, g.add_expr("0")));
  ASSERT_EQ(rep.iterations.size(), 2u); // one that applies, one that finds nothing new
  EXPECT_EQ(rep.iterations[0].applied, 1u);
  EXPECT_EQ(rep.iterations[0].rules[0].matches, 1u);
  EXPECT_EQ(rep.iterations[1].applied, 0u);
  EXPECT_EQ(rep.rules[0].name, "sub-self");
  EXPECT_EQ(rep.rules[0].applied, 1u);
  EXPECT_EQ(rep.rules[0].searches, 2u);
  EXPECT_NE(rep.summary().find("Saturated"), std::string::npos);
  EXPECT_EQ(to_string(StopReason::MemoryLimit), "MemoryLimit");
}

TEST(Runner, IterationLimit) {
  Growing G;
  EGraph g(G.lang);
  g.add_expr("(f x)");
  RunnerOptions o;
  o.limits.iterations = 4;
  const RunReport rep = Runner(g, o).run(G.rules);
  EXPECT_EQ(rep.stop_reason, StopReason::IterationLimit);
  EXPECT_EQ(rep.iterations.size(), 4u);
}

TEST(Runner, NodeLimit) {
  Growing G;
  EGraph g(G.lang);
  for (int i = 0; i < 50; ++i)
    g.add_expr(testing::cat("(f x", i, ")"));
  RunnerOptions o;
  o.limits.nodes = 300;
  o.limits.iterations = 1000;
  const RunReport rep = Runner(g, o).run(G.rules);
  EXPECT_EQ(rep.stop_reason, StopReason::NodeLimit);
  EXPECT_GT(g.num_nodes(), 300u);
  EXPECT_LT(g.num_nodes(), 300u + 64u * 2 + 200u); // stopped mid-apply, not a whole iteration late
}

TEST(Runner, MemoryLimit) {
  Growing G;
  EGraph g(G.lang);
  g.add_expr("(f x)");
  RunnerOptions o;
  o.limits.memory_bytes = g.approx_bytes() + 4096;
  o.limits.iterations = 100000;
  o.limits.nodes = 1u << 30;
  const RunReport rep = Runner(g, o).run(G.rules);
  EXPECT_EQ(rep.stop_reason, StopReason::MemoryLimit);
  EXPECT_GT(g.approx_bytes(), o.limits.memory_bytes);
}

TEST(Runner, TimeLimit) {
  Growing G;
  EGraph g(G.lang);
  g.add_expr("(f x)");
  RunnerOptions o;
  o.limits.seconds = 0.05;
  o.limits.iterations = 1u << 30;
  o.limits.nodes = 1u << 30;
  Runner r(g, o);
  r.add_hook([](EGraph&, std::size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return std::optional<std::string>{};
  });
  const RunReport rep = r.run(G.rules);
  EXPECT_EQ(rep.stop_reason, StopReason::TimeLimit);
  EXPECT_GE(rep.total_seconds, 0.05);
}

// The cancel flag (an entry's time limit, SIGTERM) is read before every match: a run whose
// flag is set inside a rule's condition applies nothing more, in the same iteration.
TEST(Runner, CancelStopsWithinOneMatch) {
  Growing G;
  EGraph g(G.lang);
  for (int i = 0; i < 200; ++i)
    g.add_expr(testing::cat("(f x", i, ")"));
  std::atomic<bool> cancel{false};
  std::size_t conditions = 0;
  std::vector<Rewrite> rules = G.rules;
  rules[0].condition = [&](const EGraph&, Id, const Subst&) {
    if (++conditions == 3)
      cancel = true; // as the watchdog would, from another thread
    return true;
  };
  RunnerOptions o;
  o.limits.iterations = 1u << 30;
  o.limits.nodes = 1u << 30;
  o.limits.seconds = 600;
  o.cancel = &cancel;
  const RunReport rep = Runner(g, o).run(rules);
  EXPECT_EQ(rep.stop_reason, StopReason::Cancelled);
  EXPECT_EQ(conditions, 3u) << "a match after the flag was set still ran its condition";
  EXPECT_EQ(rep.rules[0].applied, 3u);
  EXPECT_EQ(to_string(StopReason::Cancelled), "Cancelled");
  EXPECT_TRUE(g.is_clean());

  // Set before the run: nothing is searched.
  const RunReport again = Runner(g, o).run(rules);
  EXPECT_EQ(again.stop_reason, StopReason::Cancelled);
  EXPECT_TRUE(again.iterations.empty());
}

TEST(Runner, HooksRunBetweenIterationsAndCanStop) {
  Growing G;
  EGraph g(G.lang);
  g.add_expr("(f x)");
  std::vector<std::size_t> seen;
  Runner r(g);
  r.add_hook([&](EGraph& eg, std::size_t iter) -> std::optional<std::string> {
    seen.push_back(iter);
    eg.add_expr(testing::cat("(g extra", iter, ")")); // hooks may change the e-graph
    if (iter == 3)
      return "enough";
    return std::nullopt;
  });
  const RunReport rep = r.run(G.rules);
  EXPECT_EQ(rep.stop_reason, StopReason::Other);
  EXPECT_EQ(rep.stop_message, "enough");
  EXPECT_EQ(seen, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(rep.iterations.size(), 3u);
  EXPECT_TRUE(g.is_clean());
}

TEST(Runner, RejectsDuplicateRuleNames) {
  Arith a = make_arith();
  EGraph g(a.lang);
  std::vector<Rewrite> rules{Rewrite::parse(a.lang, "r", "(- ?a ?a)", "0"),
                             Rewrite::parse(a.lang, "r", "(neg ?a)", "(* -1 ?a)")};
  EXPECT_THROW(Runner(g).run(rules), std::invalid_argument);
}

TEST(BackoffScheduler, BansRulesOverBudgetAndDoubles) {
  BackoffScheduler s(10, 2);
  s.start(2);
  EXPECT_EQ(s.match_budget(0, 0), 10u);
  EXPECT_TRUE(s.accept(0, 0, 10));
  EXPECT_FALSE(s.accept(0, 0, 11)); // banned for 2 iterations
  EXPECT_TRUE(s.is_banned(0, 1));
  EXPECT_FALSE(s.match_budget(0, 1).has_value());
  EXPECT_EQ(s.match_budget(0, 2), 20u); // the limit doubled
  EXPECT_FALSE(s.accept(0, 2, 21));     // banned again, now for 4
  EXPECT_EQ(s.banned_until(0), 6u);
  EXPECT_EQ(s.times_banned(0), 2u);
  EXPECT_EQ(s.match_budget(0, 6), 40u);
  EXPECT_EQ(s.match_budget(1, 0), 10u);
  // Nothing changed at iteration 3 while rule 0 is banned: the ban is moved forward so that it
  // runs in iteration 4, and the runner must continue.
  EXPECT_FALSE(s.can_stop(3));
  EXPECT_EQ(s.banned_until(0), 3u);
  EXPECT_FALSE(s.is_banned(0, 4));
  EXPECT_TRUE(s.can_stop(4));
}

TEST(BackoffScheduler, RunnerBansAnExplosiveRule) {
  // Commutativity over 40 distinct applications: 40 matches, over a limit of 30, so the rule is
  // banned for 3 iterations while a chain of other rules keeps the e-graph changing; then it
  // runs again with a doubled limit.
  Language l;
  l.set_symbol_op(l.add_op("sym", 0, false, PayloadKind::Symbol));
  l.add_op("p", 2);
  for (const char* op : {"s0", "s1", "s2", "s3"})
    l.add_op(op, 1);
  std::vector<Rewrite> rules{Rewrite::parse(l, "comm", "(p ?a ?b)", "(p ?b ?a)"),
                             Rewrite::parse(l, "step1", "(s0 ?x)", "(s1 ?x)"),
                             Rewrite::parse(l, "step2", "(s1 ?x)", "(s2 ?x)"),
                             Rewrite::parse(l, "step3", "(s2 ?x)", "(s3 ?x)")};
  EGraph g(l);
  for (int i = 0; i < 40; ++i)
    g.add_expr(testing::cat("(p a", i, " b)"));
  g.add_expr("(s0 c)");
  Runner r(g);
  r.set_scheduler(std::make_unique<BackoffScheduler>(30, 3));
  const RunReport rep = r.run(rules);
  EXPECT_EQ(rep.stop_reason, StopReason::Saturated) << rep.summary();
  ASSERT_GE(rep.iterations.size(), 5u);
  EXPECT_TRUE(rep.iterations[0].rules[0].dropped);
  EXPECT_EQ(rep.iterations[0].rules[0].matches, 31u); // budget + 1
  EXPECT_EQ(rep.iterations[0].rules[0].applied, 0u);
  EXPECT_FALSE(rep.iterations[1].rules[0].searched);
  EXPECT_FALSE(rep.iterations[2].rules[0].searched);
  EXPECT_TRUE(rep.iterations[3].rules[0].searched);
  EXPECT_EQ(rep.iterations[3].rules[0].matches, 40u); // within the doubled limit of 60
  EXPECT_EQ(rep.iterations[3].rules[0].applied, 40u);
  EXPECT_GE(rep.rules[0].times_banned, 1u);
  EXPECT_TRUE(g.is_equal(g.add_expr("(p b a0)"), g.add_expr("(p a0 b)")));
  EXPECT_TRUE(g.is_equal(g.add_expr("(s3 c)"), g.add_expr("(s0 c)")));
}

} // namespace
} // namespace volta::egraph
