// E-matching throughput (matches per second) on a plain and an AC pattern.

#include <benchmark/benchmark.h>
#include <string>

#include "egraph/arith.hpp"
#include "egraph/egraph.hpp"
#include "egraph/ematch.hpp"

namespace volta::egraph {
namespace {

// "x" + std::to_string(i) trips GCC 12's -Wrestrict false positive; build names by appending.
std::string indexed(const char* prefix, std::size_t i, const char* suffix = "") {
  std::string s = prefix;
  s += std::to_string(i);
  s += suffix;
  return s;
}

// n classes (- (exp x_i) (neg y_i)) plus noise; pattern (- (exp ?a) (neg ?b)): one match each.
void BM_EmatchPlain(benchmark::State& state) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const auto n = static_cast<std::size_t>(state.range(0));
  for (std::size_t i = 0; i < n; ++i) {
    const Id x = g.add_symbol(indexed("x", i));
    const Id y = g.add_symbol(indexed("y", i));
    g.add(a.sub, {g.add(a.exp, {x}), g.add(a.neg, {y})});
    g.add(a.sub, {x, g.add(a.neg, {y})}); // a near miss
  }
  g.rebuild();
  g.build_op_index();
  const Pattern p = Pattern::parse("(- (exp ?a) (neg ?b))", a.lang).value();
  std::size_t matches = 0;
  for (auto _ : state) {
    const Matches m = search(g, p);
    matches += m.size();
    benchmark::DoNotOptimize(m.roots.data());
  }
  state.counters["matches_per_s"] =
      benchmark::Counter(static_cast<double>(matches), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EmatchPlain)->Arg(1 << 16)->Unit(benchmark::kMillisecond);

// One 4096-term sum of products; pattern (+ (* ?a ?b) ?r...): 2 * 4096 matches (both orders of
// each product), each binding a 4095-element rest.
void BM_EmatchAcRest(benchmark::State& state) {
  Arith a = make_arith();
  EGraph g(a.lang);
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<Id> prods;
  for (std::size_t i = 0; i < n; ++i)
    prods.push_back(
        g.add(a.mul, {g.add_symbol(indexed("A[", i, "]")), g.add_symbol(indexed("B[", i, "]"))}));
  g.add(a.add, prods);
  g.rebuild();
  g.build_op_index();
  const Pattern p = Pattern::parse("(+ (* ?a ?b) ?r...)", a.lang).value();
  std::size_t matches = 0;
  for (auto _ : state) {
    const Matches m = search(g, p);
    matches += m.size();
    benchmark::DoNotOptimize(m.roots.data());
  }
  state.counters["matches_per_s"] =
      benchmark::Counter(static_cast<double>(matches), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EmatchAcRest)->Arg(4096)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace volta::egraph
