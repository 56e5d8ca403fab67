// Determinism: the same input gives the same classes, ids and statistics whatever the number of
// search threads (TBB runs the read-only search in parallel; everything else is sequential).

#include <random>
#include <tbb/global_control.h>

#include "egraph/runner.hpp"
#include "test_util.hpp"

namespace volta::egraph {
namespace {

using testing::arith_rules;

struct Outcome {
  std::string dump;
  std::vector<Id> roots;
  StopReason stop;
  std::vector<std::vector<std::size_t>> per_iteration; // matches, applied, flags per rule
  std::size_t ids = 0;
};

// Enough terms that every rule has several 256-class search chunks.
Outcome saturate(std::size_t threads) {
  Arith a = make_arith();
  EGraph g(a.lang);
  add_arith_constant_folding(g, a);
  std::mt19937 rng(3);
  std::vector<Id> roots;
  for (int i = 0; i < 400; ++i) {
    const auto x = testing::cat("x", rng() % 40), y = testing::cat("y", rng() % 40);
    const auto c = testing::cat(rng() % 5);
    roots.push_back(g.add_expr(
        testing::cat("(+ (* ", c, " (- ", x, " ", y, ")) (neg (* ", x, " (+ ", y, " 1))))")));
  }
  RunnerOptions opts;
  opts.threads = threads;
  opts.limits.iterations = 5;
  opts.limits.nodes = 200000;
  opts.limits.seconds = 60;
  Runner runner(g, opts);
  const auto rules = arith_rules(a.lang);
  const RunReport rep = runner.run(rules);
  Outcome out;
  out.dump = g.dump();
  for (Id r : roots)
    out.roots.push_back(g.find(r));
  out.stop = rep.stop_reason;
  for (const auto& it : rep.iterations) {
    std::vector<std::size_t> row{it.nodes, it.classes, it.ids, it.matches, it.applied};
    for (const auto& r : it.rules) {
      row.push_back(r.matches);
      row.push_back(r.applied);
      row.push_back(r.searched * 2 + r.dropped);
    }
    out.per_iteration.push_back(row);
  }
  out.ids = g.num_ids();
  return out;
}

void expect_same(const Outcome& x, const Outcome& y) {
  EXPECT_EQ(x.stop, y.stop);
  EXPECT_EQ(x.ids, y.ids);
  EXPECT_EQ(x.roots, y.roots);
  EXPECT_EQ(x.per_iteration, y.per_iteration);
  EXPECT_TRUE(x.dump == y.dump) << "class dumps differ";
}

TEST(Determinism, SameResultWithOneOrManyThreads) {
  Outcome one, many_option, many_global;
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 1);
    one = saturate(0);
  }
  many_option = saturate(4);
  {
    tbb::global_control c(tbb::global_control::max_allowed_parallelism, 4);
    many_global = saturate(0);
  }
  ASSERT_GT(one.per_iteration.size(), 1u);
  EXPECT_GT(one.ids, 3000u);
  expect_same(one, many_option);
  expect_same(one, many_global);
  expect_same(one, saturate(1));
}

} // namespace
} // namespace volta::egraph
