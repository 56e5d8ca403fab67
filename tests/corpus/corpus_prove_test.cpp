// The whole Volta corpus through the tool: `volta-eg prove --batch
// benchmarks.json` gives every one of the 39 entries its expected verdict and exits 0, proves
// each of the 26 equivalences with zero Z3 calls, and writes JSON, JUnit and SARIF reports.
// About half a minute on two cores in a release build; labelled `slow` (the sanitizer run skips
// it). Skipped with a message when the corpus is absent, as it is for users.
#include <gtest/gtest.h>

#include "../cli/cli_test_util.hpp"
#include "../cli/mini_xml.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

TEST(Corpus, EveryEntryHasItsExpectedVerdictWithoutZ3) {
  const std::filesystem::path corpus = VOLTA_CORPUS_DIR;
  if (!std::filesystem::exists(corpus / "benchmarks.json")) {
    GTEST_SKIP() << "corpus not found at " << corpus;
  }
  const auto dir = scratch_dir("corpus-prove");
  const ToolRun r = run_tool({"prove", "--batch", (corpus / "benchmarks.json").string(), "-j", "2",
                              "--report", "r.json", "--junit", "r.xml", "--sarif", "r.sarif"},
                             dir, 1200);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = read_json(dir / "r.json");
  EXPECT_EQ(report["summary"]["entries"], 39);
  EXPECT_EQ(report["summary"]["matched"], 39);
  EXPECT_EQ(report["summary"]["verdicts"]["EQUIVALENT"], 26);
  EXPECT_EQ(report["summary"]["verdicts"]["DATA_RACE"], 8);
  EXPECT_EQ(report["summary"]["verdicts"]["RACE_FREE"], 5);
  size_t equivalences = 0;
  for (const auto& e : report["results"]) {
    EXPECT_TRUE(e["match"].get<bool>()) << e["name"] << ": " << e["verdict"] << " " << e["detail"];
    if (e["kind"] != "equivalence")
      continue;
    ++equivalences;
    EXPECT_EQ(e["z3_calls"], 0) << e["name"];
    EXPECT_EQ(e["elements"]["z3"], 0) << e["name"];
    EXPECT_EQ(e["elements"]["unknown"], 0) << e["name"];
    EXPECT_EQ(e["elements"]["total"].get<uint64_t>(), e["elements"]["direct"].get<uint64_t>() +
                                                          e["elements"]["reused"].get<uint64_t>() +
                                                          e["elements"]["rules"].get<uint64_t>())
        << e["name"];
    EXPECT_GT(e["elements"]["total"].get<uint64_t>(), 0u) << e["name"];
  }
  EXPECT_EQ(equivalences, 26u);
  const json log = read_json(dir / "r.sarif");
  EXPECT_EQ(log["version"], "2.1.0");
  EXPECT_EQ(log["runs"][0]["results"].size(), 8u) << "one result per racy kernel";
  std::string error;
  EXPECT_TRUE(parse_xml(read_file(dir / "r.xml"), error)) << error;
}

} // namespace
} // namespace volta::cli_test
