// Symbolic execution throughput: the naive references of the scaling pairs (below), and both
// kernels of the corpus's
// (MatMul-1, MatMul-2) pair — 77 M executed thread-instructions together — executed into one
// expression DAG as the prover does (the two kernels in parallel, each CTA warp by warp in
// lockstep), and each kernel alone on one thread. Loading (parse + lower) is outside the
// timing, as a batch loads each kernel once. Throughput counts executed thread-instructions.
//
//   build/release/bench/engine/engine_bench --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <filesystem>
#include <stdexcept>
#include <tbb/global_control.h>
#include <tbb/parallel_invoke.h>

#include "engine/exec/kernel_cache.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/launch/manifest.hpp"

namespace {

using namespace volta;

struct Pair {
  launch::ManifestEntry entry;
  std::shared_ptr<const exec::LoadedKernel> ref, opt;
};

const Pair* matmul_pair() {
  static std::optional<Pair> pair = []() -> std::optional<Pair> {
    const std::string manifest = std::string(VOLTA_CORPUS_DIR) + "/benchmarks.json";
    if (!std::filesystem::exists(manifest))
      return std::nullopt;
    auto m = launch::read_manifest(manifest);
    if (!m.manifest)
      return std::nullopt;
    for (const auto& e : m.manifest->entries) {
      if (e.name != "(MatMul-1, MatMul-2)")
        continue;
      Pair p{e, nullptr, nullptr};
      p.ref = exec::load_kernel(e.reference.ptx_path, e.reference.entry).kernel;
      p.opt = exec::load_kernel(e.optimized.ptx_path, e.optimized.entry).kernel;
      if (!p.ref || !p.opt)
        return std::nullopt;
      return p;
    }
    return std::nullopt;
  }();
  return pair ? &*pair : nullptr;
}

uint64_t run(const exec::LoadedKernel& k, const launch::KernelConfig& c,
             symbolic::ExprStore& store) {
  const exec::KernelRun r = exec::run_kernel(k.program, c, store);
  if (r.failure)
    throw std::runtime_error("kernel failed: " + r.failure->message);
  return r.stats.instructions;
}

// Both kernels into one DAG, in parallel (what `volta-eg prove` does for the pair).
void BM_ExecuteMatMulPair(benchmark::State& state) {
  const Pair* p = matmul_pair();
  if (!p) {
    state.SkipWithError("corpus not found");
    return;
  }
  uint64_t instructions = 0;
  for (auto _ : state) {
    symbolic::ExprStore store;
    uint64_t a = 0, b = 0;
    tbb::parallel_invoke([&] { a = run(*p->ref, p->entry.reference, store); },
                         [&] { b = run(*p->opt, p->entry.optimized, store); });
    instructions += a + b;
    benchmark::DoNotOptimize(store.size());
  }
  state.counters["instructions_per_s"] =
      benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
  state.counters["instructions"] =
      static_cast<double>(instructions) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_ExecuteMatMulPair)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

// One kernel on one thread.
void BM_ExecuteOneKernel(benchmark::State& state) {
  const Pair* p = matmul_pair();
  if (!p) {
    state.SkipWithError("corpus not found");
    return;
  }
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  const bool reference = state.range(0) == 0;
  state.SetLabel(reference ? "MatMul-1" : "MatMul-2");
  uint64_t instructions = 0;
  for (auto _ : state) {
    symbolic::ExprStore store;
    instructions += reference ? run(*p->ref, p->entry.reference, store)
                              : run(*p->opt, p->entry.optimized, store);
    benchmark::DoNotOptimize(store.size());
  }
  state.counters["instructions_per_s"] =
      benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExecuteOneKernel)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(3.0);

// The naive references of the scaling pairs (bench/engine/naive_references.json, the PTX of
// bench/scaling/kernels: no corpus needed), every CTA, into one store as `volta-eg check` runs
// them (CTAs in parallel): the throughput target is ≥ 150 M thread-instructions a
// second on these. Also reports what the store holds per node id: node and meta chunks plus
// the hash-consing table, over the ids handed out (the unused ends of the per-thread id blocks
// count as ids, so the figure is if anything low by their share, a few per cent at most here).
const launch::ManifestEntry* naive_reference(size_t index) {
  static const std::optional<launch::Manifest> manifest = []() -> std::optional<launch::Manifest> {
    auto m = launch::read_manifest(std::string(VOLTA_SOURCE_DIR) +
                                   "/bench/engine/naive_references.json");
    if (!m.manifest)
      return std::nullopt;
    return std::move(*m.manifest);
  }();
  if (!manifest || index >= manifest->entries.size())
    return nullptr;
  return &manifest->entries[index];
}

void BM_ExecuteNaiveReference(benchmark::State& state) {
  const launch::ManifestEntry* e = naive_reference(static_cast<size_t>(state.range(0)));
  if (!e) {
    state.SkipWithError("bench/engine/naive_references.json not readable");
    return;
  }
  const auto kernel = exec::load_kernel(e->kernel.ptx_path, e->kernel.entry).kernel;
  if (!kernel) {
    state.SkipWithError("kernel does not load");
    return;
  }
  state.SetLabel(e->name);
  uint64_t instructions = 0;
  symbolic::ExprStore::Footprint footprint;
  for (auto _ : state) {
    symbolic::ExprStore store;
    instructions += run(*kernel, e->kernel, store);
    state.PauseTiming();
    footprint = store.footprint();
    state.ResumeTiming();
  }
  state.counters["instructions_per_s"] =
      benchmark::Counter(static_cast<double>(instructions), benchmark::Counter::kIsRate);
  state.counters["node_ids"] = static_cast<double>(footprint.ids);
  state.counters["bytes_per_node"] =
      static_cast<double>(footprint.node_bytes + footprint.table_bytes) /
      static_cast<double>(std::max<size_t>(1, footprint.ids));
}
BENCHMARK(BM_ExecuteNaiveReference)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(3.0);

} // namespace

BENCHMARK_MAIN();
