// Determinism: kernels run with `ctas: all` (CTAs in parallel with TBB) print the same output
// expressions and report the same failure run after run and whatever the number of TBB threads;
// the equivalence entry's verdicts and counterexamples do not move either.
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <tbb/global_control.h>
#include <vector>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

const std::vector<size_t> kThreadCounts = {1, 2, 4, 8};

std::string describe_site(const std::optional<exec::Site>& s) {
  if (!s)
    return "-";
  std::ostringstream o;
  o << "cta " << s->cta << " thread " << s->thread << " line " << s->ptx_line;
  return o.str();
}

// Everything a run produces that must be deterministic, as text.
std::string snapshot(const launch::KernelConfig& config) {
  exec::KernelCache cache;
  auto loaded = cache.load(config.ptx_path, config.entry);
  if (!loaded.kernel)
    return "load error";
  symbolic::ExprStore store;
  const auto run = exec::run_kernel(loaded.kernel->program, config, store);
  std::ostringstream s;
  if (run.failure) {
    const auto& f = *run.failure;
    s << to_string(f.verdict) << " [" << f.kind << "] " << f.message << " @ " << f.location << " | "
      << describe_site(f.first) << " | " << describe_site(f.second) << "\n";
    return s.str();
  }
  s << "instructions " << run.stats.instructions << " barriers " << run.stats.barriers << " ctas "
    << run.stats.ctas << "\n";
  for (const auto& [idiom, n] : run.stats.idioms)
    s << idiom << " x" << n << "\n";
  for (const auto& out : run.outputs) {
    for (const auto& [i, e] : out.elements)
      s << out.name << "[" << i << "] = " << symbolic::to_sexpr(store, e, 1 << 20) << "\n";
  }
  return s.str();
}

launch::KernelConfig config_of(const std::string& manifest, std::string_view name,
                               bool optimized = true) {
  const auto m = load_manifest(source_path(manifest));
  const auto* e = find_entry(m, name);
  EXPECT_NE(e, nullptr) << name;
  if (e == nullptr)
    return {};
  if (e->kind == launch::EntryKind::RaceCheck)
    return e->kernel;
  return optimized ? e->optimized : e->reference;
}

// The same snapshot twice in a row and under every TBB thread count.
void expect_deterministic(const launch::KernelConfig& config) {
  ASSERT_EQ(config.ctas, launch::CtaMode::All);
  const std::string first = snapshot(config);
  EXPECT_EQ(snapshot(config), first);
  for (size_t threads : kThreadCounts) {
    SCOPED_TRACE(threads);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    EXPECT_EQ(snapshot(config), first);
  }
}

TEST(Determinism, AtomicSumAcrossCtas) {
  const auto c = config_of("examples/safety/manifest.json", "atomic_sum");
  const auto s = snapshot(c);
  EXPECT_NE(s.find("out[0] = (+ "), std::string::npos) << s.substr(0, 200);
  expect_deterministic(c);
}

TEST(Determinism, SplitKGemmWithAtomics) {
  const auto c = config_of("examples/advanced/manifest.json", "gemm_split_k");
  const auto s = snapshot(c);
  EXPECT_NE(s.find("C[1023] = "), std::string::npos);
  expect_deterministic(c);
}

TEST(Determinism, GemmOverEveryCta) {
  expect_deterministic(config_of("examples/manifest.json", "(gemm_naive, gemm_wrong)"));
}

TEST(Determinism, RaceBetweenCtasIsReportedTheSameWay) {
  const auto c = config_of("examples/safety/manifest.json", "cta_race (all CTAs)");
  const auto s = snapshot(c);
  EXPECT_EQ(s.rfind("DATA_RACE", 0), 0u) << s;
  expect_deterministic(c);
}

TEST(Determinism, TheLowestFailingCtaIsReported) {
  // CTAs 2..7 of 8 write past the end of `out` (64 elements = CTAs 0 and 1): the report is
  // always thread 0 of CTA 2, whichever CTA fails first in time.
  const std::string text = kernel(".param .u64 p_out", R"(
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %tid.x;
  mad.lo.u32 %r3, %r1, 32, %r2;
  mul.wide.u32 %rd1, %r3, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r3;
  ret;)");
  TempPtx file(text);
  Launch l = one_out(64, {32, 1, 1});
  l.grid = {8, 1, 1};
  l.all_ctas = true;
  auto config = make_config(l);
  config.ptx_path = file.path();
  const auto s = snapshot(config);
  EXPECT_EQ(s.rfind("OUT_OF_BOUNDS", 0), 0u) << s;
  EXPECT_NE(s.find("out[64]"), std::string::npos) << s;
  EXPECT_NE(s.find("cta 2 thread 0 line"), std::string::npos) << s;
  expect_deterministic(config);
}

std::string prove_snapshot(const std::string& manifest, std::string_view name) {
  const auto m = load_manifest(source_path(manifest));
  const auto* e = find_entry(m, name);
  if (e == nullptr)
    return "no entry";
  exec::KernelCache cache;
  const auto r = entry::prove_equivalence_entry(*e, cache, {});
  std::ostringstream s;
  s << to_string(r.verdict) << " | " << r.detail;
  if (r.counterexample) {
    s << " | " << r.counterexample->element << " " << r.counterexample->reference_value << " vs "
      << r.counterexample->optimized_value;
    for (const auto& [k, v] : r.counterexample->inputs)
      s << " " << k << "=" << v;
  }
  return s.str();
}

TEST(Determinism, PairVerdictsAndCounterexamples) {
  for (const auto& [manifest, name] : std::vector<std::pair<std::string, std::string>>{
           {"examples/advanced/manifest.json", "(gemm_naive, gemm_split_k)"},
           {"examples/manifest.json", "(gemm_naive, gemm_wrong)"}}) {
    SCOPED_TRACE(name);
    const std::string first = prove_snapshot(manifest, name);
    for (size_t threads : kThreadCounts) {
      tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
      EXPECT_EQ(prove_snapshot(manifest, name), first) << threads;
    }
  }
}

} // namespace
} // namespace volta::etest
