// Input that must be refused: a misspelled key, a value of the wrong type, a
// duplicate name or an empty list is an error with its JSON path, never silently ignored; a
// filter that selects nothing and flags that would be ignored are errors too. Every manifest the
// project ships still reads without an error.
#include <fmt/format.h>
#include <functional>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// The error of entry `index` of `manifest` (empty: none), or the manifest-level diagnostic.
std::string entry_error(const json& manifest, size_t index = 0) {
  auto r = launch::parse_manifest(manifest.dump(), "m.json");
  if (!r.manifest)
    return r.diagnostics.empty() ? "no manifest" : r.diagnostics[0].message;
  return r.manifest->entries.at(index).error;
}

json demo() {
  return example_manifest("manifest.json");
}

// The entry named gemm_wrong (all CTAs), the one a misspelled `ctas` turns into a passing proof.
size_t gemm_wrong_index(const json& m) {
  for (size_t i = 0; i < m["benchmarks"].size(); ++i) {
    const auto& e = m["benchmarks"][i];
    if (e["name"].get<std::string>().find("gemm_wrong") != std::string::npos &&
        e["optimized"].value("ctas", "") == "all")
      return i;
  }
  ADD_FAILURE() << "no gemm_wrong entry with ctas all";
  return 0;
}

TEST(StrictManifest, MisspelledKeyIsAnErrorWithPathAndSuggestion) {
  json m = demo();
  const size_t i = gemm_wrong_index(m);
  m["benchmarks"][i]["optimized"].erase("ctas");
  m["benchmarks"][i]["optimized"]["cta"] = "all";
  EXPECT_EQ(entry_error(m, i),
            fmt::format("$.benchmarks[{}].optimized.cta: unknown key \"cta\"; did you mean "
                        "\"ctas\"?",
                        i));
}

TEST(StrictManifest, MisspelledCtasMakesTheBatchFailNotPass) {
  json m = demo();
  const size_t i = gemm_wrong_index(m);
  json entry = m["benchmarks"][i];
  entry["optimized"].erase("ctas");
  entry["optimized"]["cta"] = "all";
  entry["reference"].erase("ctas");
  entry["reference"]["cta"] = "all";
  m["benchmarks"] = json::array({entry});
  const auto dir = scratch_dir("strict-cta");
  write_file(dir / "m.json", m.dump(1));
  ToolRun r = run_tool({"prove", "--batch", "m.json", "--report", "r.json"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("$.benchmarks[0].reference.cta: unknown key \"cta\"; did you mean "
                       "\"ctas\"?"),
            std::string::npos)
      << r.err;
  const json report = read_json(dir / "r.json");
  EXPECT_EQ(report["results"][0]["verdict"], "ERROR");
}

TEST(StrictManifest, UnknownKeysEverywhere) {
  const json base = demo();
  struct Case {
    std::function<void(json&)> edit;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {[](json& m) { m["benchmarks"][0]["expect"] = "EQUIVALENT"; },
       "$.benchmarks[0].expect: unknown key \"expect\"; did you mean \"expected\"?"},
      {[](json& m) { m["benchmarks"][0]["chek_arrays"] = json::array(); },
       "$.benchmarks[0].chek_arrays: unknown key \"chek_arrays\"; did you mean "
       "\"check_arrays\"?"},
      {[](json& m) { m["benchmarks"][0]["reference"]["arrays"][0]["elemwidth"] = 4; },
       "$.benchmarks[0].reference.arrays[0].elemwidth: unknown key \"elemwidth\"; did you mean "
       "\"elem_width\"?"},
      {[](json& m) { m["benchmarks"][0]["reference"]["param"] = json::array(); },
       "$.benchmarks[0].reference.param: unknown key \"param\"; did you mean \"params\"?"},
      {[](json& m) { m["benchmarks"][0]["kernel"] = m["benchmarks"][0]["reference"]; },
       "$.benchmarks[0].kernel: an entry of kind \"equivalence\" has no \"kernel\" (it has "
       "\"reference\" and \"optimized\")"},
  };
  for (const auto& c : cases) {
    json m = base;
    c.edit(m);
    EXPECT_EQ(entry_error(m), c.expected);
  }
  json m = base;
  m["xyzzy"] = 1;
  EXPECT_NE(entry_error(m).find("$.xyzzy: unknown key \"xyzzy\" (known: benchmarks,"),
            std::string::npos)
      << entry_error(m);
  m = base;
  m["benchmark"] = m["benchmarks"];
  EXPECT_NE(entry_error(m).find("did you mean \"benchmarks\"?"), std::string::npos);
}

TEST(StrictManifest, TypeMismatchesAreErrors) {
  json m = demo();
  m["benchmarks"][0]["reference"]["arrays"][0]["len"] = "64";
  EXPECT_EQ(entry_error(m), "$.benchmarks[0].reference.arrays[0].len: expected a non-negative "
                            "integer, got the string \"64\" (write it without quotes)");
  m = demo();
  m["benchmarks"][0]["reference"]["arrays"][0]["len"] = -4;
  EXPECT_EQ(entry_error(m),
            "$.benchmarks[0].reference.arrays[0].len: expected a non-negative integer, got -4");
  m = demo();
  m["benchmarks"][0]["note"] = 3;
  EXPECT_EQ(entry_error(m), "$.benchmarks[0].note: expected a string");
  m = demo();
  m["benchmarks"][0]["accept"] = json::array({"SOMETIMES"});
  EXPECT_EQ(entry_error(m), "$.benchmarks[0].accept[0]: unknown verdict \"SOMETIMES\"");
  // Bases stay hex strings.
  m = demo();
  m["benchmarks"][0]["reference"]["arrays"][0]["base"] = "0x-1";
  EXPECT_NE(entry_error(m).find(".base: expected a non-negative integer"), std::string::npos);
  // A negative length on the command line is not "limited to 2^32 elements".
  const auto error_of = [](const std::string& flag) {
    const auto parsed = launch::parse_array_flag(flag);
    return parsed ? std::string("(accepted)") : parsed.error();
  };
  EXPECT_EQ(error_of("A:0x1000:4:-1:in"), "LEN: expected a non-negative integer, got \"-1\"");
  EXPECT_EQ(error_of("A:0x1000:3:1:in"), "WIDTH: expected 1, 2, 4 or 8");
  EXPECT_EQ(error_of("A:0x1001:4:1:in"),
            "BASE: base 0x1001 is not a multiple of the element width 4");
}

TEST(StrictManifest, DuplicateNamesAndEmptyList) {
  json m = demo();
  m["benchmarks"][2]["name"] = m["benchmarks"][0]["name"];
  const std::string name = m["benchmarks"][0]["name"];
  EXPECT_EQ(entry_error(m, 0), "");
  EXPECT_EQ(entry_error(m, 2), fmt::format("$.benchmarks[2].name: duplicate entry name \"{}\" "
                                           "(also $.benchmarks[0])",
                                           name));
  m["benchmarks"] = json::array();
  EXPECT_EQ(entry_error(m), "$.benchmarks: the list is empty: there is nothing to run");
}

TEST(StrictManifest, EveryShippedManifestStillReads) {
  const std::string root = source_dir();
  for (const char* path : {"examples/manifest.json", "examples/advanced/manifest.json",
                           "examples/idioms/manifest.json", "examples/mutations/manifest.json",
                           "examples/safety/manifest.json", "examples/soundness/manifest.json",
                           "../shared/volta-corpus/benchmarks.json"}) {
    const std::string file = root + "/" + path;
    if (!std::filesystem::exists(file))
      continue; // the shared corpus is not in every checkout
    auto r = launch::read_manifest(file);
    ASSERT_TRUE(r.manifest) << path << ": " << r.diagnostics.at(0).message;
    for (const auto& e : r.manifest->entries)
      EXPECT_EQ(e.error, "") << path << " " << e.name;
  }
}

TEST(StrictManifest, ManifestThatIsADirectoryOrUnreadable) {
  const auto dir = scratch_dir("strict-dir");
  std::filesystem::create_directories(dir / "m.json");
  ToolRun r = run_tool({"prove", "--batch", "m.json"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("m.json: error: cannot read manifest file: it is a directory"),
            std::string::npos)
      << r.err;
  r = run_tool({"prove", "--batch", "none.json"}, dir);
  EXPECT_NE(r.err.find("none.json: error: cannot read manifest file: No such file or directory"),
            std::string::npos)
      << r.err;
}

TEST(StrictManifest, CheckFilterThatSelectsNoRaceCheckIsAnError) {
  const auto dir = scratch_dir("strict-check-filter");
  write_file(dir / "m.json", demo().dump(1));
  // gemm matches equivalence entries only: `check` would run nothing and pass.
  ToolRun r = run_tool({"check", "--batch", "m.json", "--filter", "gemm"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("--filter: \"gemm\" selects no race_check entry"), std::string::npos)
      << r.err;
}

TEST(StrictManifest, PairDoesNotCombineWithKernelFlags) {
  const auto dir = scratch_dir("strict-pair");
  json m = demo();
  write_file(dir / "pair.json", m["benchmarks"][0].dump(1));
  ToolRun r = run_tool({"prove", "--pair", "pair.json", "--ref-ptx", "x.ptx"}, dir);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("--pair gives both kernels: it does not combine with --ref-*/--opt-*"),
            std::string::npos)
      << r.err;
}

} // namespace
} // namespace volta::cli_test
