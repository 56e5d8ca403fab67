// The production manifest (../shared/production/manifest.json): FlashAttention-2 and
// CUTLASS through their real `__global__` entry points, each with one by-value aggregate
// parameter. Every entry must read without an error (aggregate parameters included); the entries
// that run end to end today are proved and must give their expected verdicts. Skips with a
// message when ../shared/production is absent (it is not in every checkout), and the causal
// tests when that checkout's manifest predates the causal entries (S09-S11).
#include <filesystem>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <regex>

#include "cli_test_util.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::cli_test {
namespace {

std::string production_manifest() {
  return source_dir() + "/../shared/production/manifest.json";
}

TEST(Production, EveryEntryReads) {
  const std::string path = production_manifest();
  if (!std::filesystem::exists(path))
    GTEST_SKIP() << path << " is absent: the production kernels are not in this checkout";
  auto r = launch::read_manifest(path);
  ASSERT_TRUE(r.manifest) << r.diagnostics.at(0).message;
  // S01-S08, and S09-S11 (causal FlashAttention-2) where the manifest has them.
  const size_t count = r.manifest->entries.size();
  EXPECT_TRUE(count == 8u || count == 11u) << count << " entries";
  for (size_t i = 0; i < count; ++i)
    EXPECT_EQ(r.manifest->entries[i].name.substr(0, 4), fmt::format("S{:02} ", i + 1));
  for (const auto& e : r.manifest->entries) {
    EXPECT_EQ(e.error, "") << e.name;
    // Every optimized kernel is a real entry with one aggregate parameter.
    ASSERT_EQ(e.optimized.params.size(), 1u) << e.name;
    EXPECT_EQ(e.optimized.params[0].kind, launch::ParamSpec::Kind::Struct) << e.name;
  }
}

// Proves the entries whose names match `filter` and checks every verdict against `expected`
// (and that a NOT_EQUIVALENT comes with a confirmed counterexample).
void prove_entries(const std::string& filter, size_t count) {
  const std::string path = production_manifest();
  if (!std::filesystem::exists(path))
    GTEST_SKIP() << path << " is absent: the production kernels are not in this checkout";
  auto manifest = launch::read_manifest(path);
  ASSERT_TRUE(manifest.manifest) << manifest.diagnostics.at(0).message;
  size_t selected = 0;
  for (const auto& e : manifest.manifest->entries)
    selected += std::regex_search(e.name, std::regex(filter)) ? 1 : 0;
  if (selected == 0)
    GTEST_SKIP() << path << " has no entry matching " << filter
                 << " (a manifest from before those entries were added)";
  ASSERT_EQ(selected, count) << filter;
  const auto dir = scratch_dir("production");
  ToolRun r = run_tool(
      {"prove", "--batch", path, "--filter", filter, "--report", (dir / "r.json").string()}, {},
      590);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto report = read_json(dir / "r.json");
  ASSERT_EQ(report["results"].size(), count) << r.out;
  for (const auto& e : report["results"]) {
    EXPECT_EQ(e["verdict"], e["expected"]) << e["name"] << ": " << e.value("detail", "");
    if (e["verdict"] == "NOT_EQUIVALENT") {
      ASSERT_TRUE(e.contains("counterexample") && e["counterexample"].is_object()) << e["name"];
      EXPECT_EQ(e["counterexample"]["confirmed"], true) << e["name"];
    }
  }
}

// One key block of FA2 and the CUTLASS GEMM at both shapes, parameters given by bytes and
// fields, bytes only, fields only; and the CUTLASS mutant (about a minute in all).
TEST(Production, FlashAttentionOneBlockAndCutlass) {
  prove_entries("^S0[145678] ", 6);
}

// FA2 over two key blocks (online-softmax rescaling) and its mutant (about two minutes).
TEST(Production, FlashAttentionOnlineRescale) {
  prove_entries("^S0[23] ", 2);
}

// Causal FA2 (Is_causal = true) against a naive causal reference, both masking future keys with
// -INFINITY, one 128x128 tile, and the mutant that masks the diagonal too (about a minute and a
// half): exp2 of a masked score is exp((-inf * c - m * c) * ln2) = 0 over the extended reals.
TEST(Production, FlashAttentionCausal) {
  prove_entries("^S(09|11) ", 2);
}

// Causal FA2 over two query blocks: the second CTA's first key block is masked, the next one is
// not, and the online rescaling starts from scores of which some are -inf (a few minutes).
TEST(Production, FlashAttentionCausalTwoQueryBlocks) {
  prove_entries("^S10 ", 1);
}

} // namespace
} // namespace volta::cli_test
