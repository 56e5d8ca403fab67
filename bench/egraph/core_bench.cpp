// Core e-graph benchmarks: hashcons insertion, merge + rebuild, deferred vs eager congruence
// repair, insertion of a 4096-term sum. Recorded in docs/BENCHMARKS.md.

#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <unordered_map>

#include "egraph/arith.hpp"
#include "egraph/egraph.hpp"
#include "egraph/hash.hpp"
#include "egraph/hashcons.hpp"

namespace volta::egraph {
namespace {

// "x" + std::to_string(i) trips GCC 12's -Wrestrict false positive; build names by appending.
std::string indexed(const char* prefix, std::size_t i, const char* suffix = "") {
  std::string s = prefix;
  s += std::to_string(i);
  s += suffix;
  return s;
}

struct Bin {
  Language lang;
  OpId sym, f, g;
  Bin() {
    sym = lang.add_op("sym", 0, false, PayloadKind::Symbol);
    lang.set_symbol_op(sym);
    f = lang.add_op("f", 1);
    g = lang.add_op("g", 2);
  }
};

// Inserts n distinct binary nodes g(k-1, k-1-d) with d < 64 drawn at random (fixed seed): the
// locality of a term DAG inserted bottom-up, where children were created shortly before their
// parents. Every insert misses the hashcons and creates a class. `reserve` pre-sizes the arenas.
std::vector<std::uint32_t> offsets(std::size_t n) {
  std::mt19937 rng(9);
  std::vector<std::uint32_t> d(n + 2);
  for (auto& x : d)
    x = rng() % 64;
  return d;
}

void insert_nodes(benchmark::State& state, bool reserve, bool far, bool explain = false) {
  Bin b;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto d = offsets(n);
  EGraphOptions opts;
  opts.explanations = explain;
  for (auto _ : state) {
    EGraph g(b.lang, opts);
    if (reserve)
      g.reserve(n + 2, 2 * n);
    std::vector<Id> ids{g.add_leaf(b.sym, 0), g.add_leaf(b.sym, 1)};
    ids.reserve(n + 2);
    for (std::size_t k = 2; k < n + 2; ++k) {
      const std::size_t other = far ? k / 2 : (k - 1 > d[k] ? k - 1 - d[k] : 0);
      ids.push_back(g.add(b.g, {ids[k - 1], ids[other]}));
    }
    benchmark::DoNotOptimize(ids.back());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void BM_HashconsInsert(benchmark::State& state) {
  insert_nodes(state, true, false);
}
BENCHMARK(BM_HashconsInsert)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

void BM_HashconsInsertNoReserve(benchmark::State& state) {
  insert_nodes(state, false, false);
}
BENCHMARK(BM_HashconsInsertNoReserve)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// BM_HashconsInsert into one e-graph cleared between iterations (EGraph::clear keeps its
// memory): the steady-state insert rate without the kernel's first-touch page faults, which
// dominate a fresh e-graph on this VM.
void BM_HashconsInsertWarm(benchmark::State& state) {
  Bin b;
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto d = offsets(n);
  EGraph g(b.lang);
  std::vector<Id> ids;
  ids.reserve(n + 2);
  auto fill = [&] {
    ids.push_back(g.add_leaf(b.sym, 0));
    ids.push_back(g.add_leaf(b.sym, 1));
    for (std::size_t k = 2; k < n + 2; ++k)
      ids.push_back(g.add(b.g, {ids[k - 1], ids[k - 1 > d[k] ? k - 1 - d[k] : 0]}));
  };
  g.reserve(n + 2, 2 * n);
  fill(); // touch every page once, untimed
  for (auto _ : state) {
    state.PauseTiming();
    g.clear();
    ids.clear();
    state.ResumeTiming();
    fill();
    benchmark::DoNotOptimize(ids.back());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_HashconsInsertWarm)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// BM_HashconsInsert with explanations on (each node is also recorded in the proof forest).
void BM_HashconsInsertExplained(benchmark::State& state) {
  insert_nodes(state, true, false, true);
}
BENCHMARK(BM_HashconsInsertExplained)->Arg(1 << 16)->Unit(benchmark::kMillisecond);

// No locality: g(k-1, k/2) reaches back arbitrarily far, so every insert touches cold memory
// (union-find entry, hashcons slot, the far child's class).
void BM_HashconsInsertFar(benchmark::State& state) {
  insert_nodes(state, true, true);
}
BENCHMARK(BM_HashconsInsertFar)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// Looking up nodes that are already there (every insert hits).
void BM_HashconsHit(benchmark::State& state) {
  Bin b;
  const auto n = static_cast<std::size_t>(state.range(0));
  EGraph g(b.lang);
  std::vector<Id> ids{g.add_leaf(b.sym, 0), g.add_leaf(b.sym, 1)};
  for (std::size_t k = 2; k < n + 2; ++k)
    ids.push_back(g.add(b.g, {ids[k - 1], ids[k / 2]}));
  for (auto _ : state)
    for (std::size_t k = 2; k < n + 2; ++k)
      benchmark::DoNotOptimize(g.add(b.g, {ids[k - 1], ids[k / 2]}));
  // (every lookup hits; k/2 makes them non-local)
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_HashconsHit)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// The hashcons part of BM_HashconsInsert alone on std::unordered_map (node key -> id): no
// classes, parents or union-find, so it flatters the map; for the design note.
void BM_UnorderedMapInsert(benchmark::State& state) {
  struct KeyHash {
    std::size_t operator()(const std::tuple<OpId, Payload, Id, Id>& k) const {
      return hash_finish(hash_combine(hash_combine(std::get<0>(k), std::get<1>(k)),
                                      (std::uint64_t{std::get<2>(k)} << 32) | std::get<3>(k)));
    }
  };
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto d = offsets(n);
  for (auto _ : state) {
    std::unordered_map<std::tuple<OpId, Payload, Id, Id>, Id, KeyHash> memo;
    memo.reserve(n);
    std::vector<Id> ids{0, 1};
    ids.reserve(n + 2);
    for (std::size_t k = 2; k < n + 2; ++k) {
      const std::size_t other = k - 1 > d[k] ? k - 1 - d[k] : 0;
      auto [it, fresh] =
          memo.emplace(std::make_tuple(OpId{2}, Payload{0}, ids[k - 1], ids[other]), Id(k));
      ids.push_back(it->second);
    }
    benchmark::DoNotOptimize(ids.back());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_UnorderedMapInsert)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// The hashcons table alone (node keys in an arena, the table holding indices) on the
// BM_UnorderedMapInsert workload: the like-for-like comparison with std::unordered_map.
void BM_FlatHashconsInsert(benchmark::State& state) {
  using Key = std::tuple<OpId, Payload, Id, Id>;
  auto hash = [](const Key& k) {
    return hash_finish(hash_combine(hash_combine(std::get<0>(k), std::get<1>(k)),
                                    (std::uint64_t{std::get<2>(k)} << 32) | std::get<3>(k)));
  };
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto d = offsets(n);
  for (auto _ : state) {
    Hashcons table;
    table.reserve(n);
    std::vector<Key> keys;
    keys.reserve(n);
    std::vector<Id> ids{0, 1};
    ids.reserve(n + 2);
    for (std::size_t k = 2; k < n + 2; ++k) {
      const std::size_t other = k - 1 > d[k] ? k - 1 - d[k] : 0;
      const Key key{OpId{2}, Payload{0}, ids[k - 1], ids[other]};
      const auto h = hash(key);
      if (auto hit = table.find(h, [&](std::uint32_t e) { return keys[e] == key; })) {
        ids.push_back(*hit);
      } else {
        table.insert(h, static_cast<std::uint32_t>(keys.size()));
        keys.push_back(key);
        ids.push_back(static_cast<Id>(k));
      }
    }
    benchmark::DoNotOptimize(ids.back());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_FlatHashconsInsert)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// A merge workload with congruence cascades: n leaves x_i, each with parents f(x_i),
// f(f(x_i)) and g(x_i, x_{i+1}); then n/2 merges of random leaf pairs (fixed seed).
struct MergeWorkload {
  Bin b;
  EGraph g{b.lang};
  std::vector<Id> leaves;
  std::vector<std::pair<Id, Id>> merges;
  explicit MergeWorkload(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      leaves.push_back(g.add_leaf(b.sym, i));
    for (std::size_t i = 0; i < n; ++i) {
      const Id fi = g.add(b.f, {leaves[i]});
      g.add(b.f, {fi});
      g.add(b.g, {leaves[i], leaves[(i + 1) % n]});
    }
    std::mt19937 rng(42);
    for (std::size_t i = 0; i < n / 2; ++i)
      merges.emplace_back(leaves[rng() % n], leaves[rng() % n]);
  }
};

void BM_MergeRebuild(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::uint64_t all_merges = 0; // the explicit ones plus those congruence closure made
  for (auto _ : state) {
    state.PauseTiming();
    MergeWorkload w(n);
    const auto before = w.g.num_merges();
    state.ResumeTiming();
    for (auto [a, c] : w.merges)
      w.g.merge(a, c);
    w.g.rebuild();
    all_merges += w.g.num_merges() - before;
    benchmark::DoNotOptimize(w.g.num_classes());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * (n / 2)));
  state.counters["all_merges_per_s"] =
      benchmark::Counter(static_cast<double>(all_merges), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MergeRebuild)->Arg(1 << 12)->Arg(1 << 16)->Unit(benchmark::kMillisecond);

// The same merges with the congruence repaired after every merge (rebuild per merge).
void BM_MergeEagerRebuild(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    MergeWorkload w(n);
    state.ResumeTiming();
    for (auto [a, c] : w.merges) {
      w.g.merge(a, c);
      w.g.rebuild();
    }
    benchmark::DoNotOptimize(w.g.num_classes());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * (n / 2)));
}
BENCHMARK(BM_MergeEagerRebuild)->Arg(1 << 12)->Arg(1 << 16)->Unit(benchmark::kMillisecond);

// Both variants timed inside one benchmark iteration, on identical copies of the workload;
// the counter `eager_over_deferred` is the ratio of their times.
void BM_DeferredVsEagerRatio(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const auto n = static_cast<std::size_t>(state.range(0));
  double deferred = 0, eager = 0;
  for (auto _ : state) {
    state.PauseTiming();
    MergeWorkload d(n), e(n);
    state.ResumeTiming();
    auto t0 = Clock::now();
    for (auto [a, c] : d.merges)
      d.g.merge(a, c);
    d.g.rebuild();
    auto t1 = Clock::now();
    for (auto [a, c] : e.merges) {
      e.g.merge(a, c);
      e.g.rebuild();
    }
    auto t2 = Clock::now();
    if (d.g.num_classes() != e.g.num_classes())
      state.SkipWithError("deferred and eager rebuilding disagree");
    deferred += std::chrono::duration<double>(t1 - t0).count();
    eager += std::chrono::duration<double>(t2 - t1).count();
  }
  state.counters["deferred_ms"] = 1e3 * deferred / static_cast<double>(state.iterations());
  state.counters["eager_ms"] = 1e3 * eager / static_cast<double>(state.iterations());
  state.counters["eager_over_deferred"] = eager / deferred;
}
BENCHMARK(BM_DeferredVsEagerRatio)->Arg(1 << 16)->Unit(benchmark::kMillisecond);

// The n-ary case: one sum of n symbols x_i and a second one over y_i; every x_i is merged with
// y_i. Each merge changes a child of both sums: repaired eagerly, each sum is re-canonicalized
// (O(n log n)) after every merge; deferred, once per rebuild round.
void BM_DeferredVsEagerAcRatio(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const auto n = static_cast<std::size_t>(state.range(0));
  Arith a = make_arith();
  struct Work {
    EGraph g;
    std::vector<Id> xs, ys;
    Id sx = 0, sy = 0;
    Work(Arith& a, std::size_t n) : g(a.lang) {
      for (std::size_t i = 0; i < n; ++i) {
        xs.push_back(g.add_symbol(indexed("x", i)));
        ys.push_back(g.add_symbol(indexed("y", i)));
      }
      sx = g.add(a.add, xs);
      sy = g.add(a.add, ys);
    }
  };
  double deferred = 0, eager = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Work d(a, n), e(a, n);
    state.ResumeTiming();
    auto t0 = Clock::now();
    for (std::size_t i = 0; i < n; ++i)
      d.g.merge(d.xs[i], d.ys[i]);
    d.g.rebuild();
    auto t1 = Clock::now();
    for (std::size_t i = 0; i < n; ++i) {
      e.g.merge(e.xs[i], e.ys[i]);
      e.g.rebuild();
    }
    auto t2 = Clock::now();
    if (!d.g.is_equal(d.sx, d.sy) || !e.g.is_equal(e.sx, e.sy))
      state.SkipWithError("the sums should be equal");
    deferred += std::chrono::duration<double>(t1 - t0).count();
    eager += std::chrono::duration<double>(t2 - t1).count();
  }
  state.counters["deferred_ms"] = 1e3 * deferred / static_cast<double>(state.iterations());
  state.counters["eager_ms"] = 1e3 * eager / static_cast<double>(state.iterations());
  state.counters["eager_over_deferred"] = eager / deferred;
}
BENCHMARK(BM_DeferredVsEagerAcRatio)->Arg(1024)->Unit(benchmark::kMillisecond);

// A 4096-term sum of products A[i]*B[i] as a left-folded chain of binary + (how a kernel's
// accumulation loop produces it).
Term sum_of_products(Arith& a, std::size_t n) {
  Term t;
  Term::Index acc = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = t.add_leaf(a.sym, a.lang.intern_symbol(indexed("A[", i, "]")));
    const auto y = t.add_leaf(a.sym, a.lang.intern_symbol(indexed("B[", i, "]")));
    const auto p = t.add(a.mul, {x, y});
    acc = i == 0 ? p : t.add(a.add, {acc, p});
  }
  return t;
}

// The whole term (2n symbols, n products, one flattened sum) into a fresh e-graph, rebuilt.
void BM_Sum4096WholeTerm(benchmark::State& state) {
  Arith a = make_arith();
  const Term t = sum_of_products(a, static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    EGraph g(a.lang);
    const Id root = g.add_term(t);
    g.rebuild();
    benchmark::DoNotOptimize(root);
  }
}
BENCHMARK(BM_Sum4096WholeTerm)->Arg(4096)->Unit(benchmark::kMicrosecond);

// Only the sum: the products are already classes; time to add the n-ary node (canonicalize,
// sort, hash, create) and rebuild.
void BM_Sum4096NodeOnly(benchmark::State& state) {
  Arith a = make_arith();
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<Term::Index> roots;
  const Term t = sum_of_products(a, n);
  for (auto _ : state) {
    state.PauseTiming();
    EGraph g(a.lang);
    std::vector<Id> prods;
    prods.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      prods.push_back(
          g.add(a.mul, {g.add_symbol(indexed("A[", i, "]")), g.add_symbol(indexed("B[", i, "]"))}));
    std::shuffle(prods.begin(), prods.end(), std::mt19937(1));
    state.ResumeTiming();
    const Id root = g.add(a.add, prods);
    g.rebuild();
    benchmark::DoNotOptimize(root);
  }
}
BENCHMARK(BM_Sum4096NodeOnly)->Arg(4096)->Unit(benchmark::kMicrosecond);

// Calibration, not e-graph code: one dependent random load at a time over `MiB` of memory
// (a pointer chase through a random cycle). The e-graph's large-graph numbers are bound by this.
void BM_MemoryLatency(benchmark::State& state) {
  const auto n =
      static_cast<std::size_t>(state.range(0)) * (std::size_t{1} << 20) / sizeof(std::size_t);
  std::vector<std::size_t> order(n), next(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937(1));
  for (std::size_t i = 0; i < n; ++i)
    next[order[i]] = order[(i + 1) % n];
  std::size_t x = 0;
  const std::size_t steps = 1 << 20;
  for (auto _ : state) {
    for (std::size_t i = 0; i < steps; ++i)
      x = next[x];
    benchmark::DoNotOptimize(x);
  }
  state.counters["ns_per_load"] =
      benchmark::Counter(static_cast<double>(state.iterations() * steps),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_MemoryLatency)->Arg(1)->Arg(4)->Arg(32)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace volta::egraph

BENCHMARK_MAIN();
