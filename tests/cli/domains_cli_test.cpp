// Refinement through the real binary (docs/semantics.md, "Domains"): the report's `domain`
// object, the counterexample of a division the reference never makes (run on the emulator),
// and --mutual.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// The soundness manifest reduced to one entry, written where the test can run it.
std::filesystem::path one_entry(const std::string& test, const std::string& name) {
  json m = example_manifest("soundness/manifest.json");
  json kept = json::array();
  for (const auto& e : m["benchmarks"]) {
    if (e["name"] == name)
      kept.push_back(e);
  }
  EXPECT_EQ(kept.size(), 1u) << name;
  m["benchmarks"] = kept;
  const auto dir = scratch_dir(test);
  write_file(dir / "m.json", m.dump(1));
  return dir;
}

json prove(const std::filesystem::path& dir, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"prove",   "--batch",  (dir / "m.json").string(),
                                   "--no-z3", "--report", (dir / "r.json").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const ToolRun r = run_tool(args);
  EXPECT_NE(r.exit_code, 124) << r.err;
  return read_json(dir / "r.json")["results"][0];
}

TEST(Domains, GuardsDeadOverTheRealsAreDischargedBySigns) {
  const json e = prove(one_entry("domains_nan_guard", "d13_softmax_nan_guard"));
  EXPECT_EQ(e["verdict"], "EQUIVALENT") << e.dump(1);
  const json& d = e["domain"];
  EXPECT_GT(d["obligations"].get<int>(), 0);
  EXPECT_EQ(d["by_sign"], d["obligations"]);
  EXPECT_EQ(d["failed"], 0);
  EXPECT_EQ(d["undecided"], 0);
  EXPECT_EQ(e["z3_calls"], 0);
}

TEST(Domains, AFullyMaskedRowDividesZeroByZero) {
  const json e = prove(one_entry("domains_masked", "d13_masked_fused"));
  EXPECT_EQ(e["verdict"], "NOT_EQUIVALENT") << e.dump(1);
  const json& c = e["counterexample"];
  ASSERT_TRUE(c.is_object()) << e.dump(1);
  EXPECT_TRUE(c["confirmed"].get<bool>());
  // Row 0 (elements 0..7) attends to nothing.
  const std::string element = c["element"];
  ASSERT_EQ(element.rfind("out[", 0), 0u) << element;
  EXPECT_LT(std::stoi(element.substr(4)), 8) << element;
  EXPECT_NE(c["optimized_value"].get<std::string>().find("divides by zero at PTX line"),
            std::string::npos);
  EXPECT_EQ(c["reference_device"], "0 (f32)");
  EXPECT_EQ(c["optimized_device"], "nan (f32)");
  EXPECT_EQ(e["domain"]["failed"], 1);
}

TEST(Domains, MutualAlsoRequiresTheReferenceToBeDefined) {
  const auto dir = one_entry("domains_mutual", "d13_xy_over_y_in_ref");
  const json one_way = prove(dir);
  EXPECT_EQ(one_way["verdict"], "EQUIVALENT") << one_way.dump(1);
  const json both = prove(dir, {"--mutual"});
  EXPECT_EQ(both["verdict"], "NOT_EQUIVALENT") << both.dump(1);
  EXPECT_NE(both["detail"].get<std::string>().find("the reference kernel divides by zero"),
            std::string::npos)
      << both["detail"];
  EXPECT_TRUE(both["domain"]["mutual"].get<bool>());
}

} // namespace
} // namespace volta::cli_test
