// The CI views read back: the JSON report has every documented field, the JUnit file is
// well-formed XML with the structure JUnit consumers require, and the SARIF log has what SARIF
// 2.1.0 requires and locates findings at CUDA (else PTX) lines.
#include <filesystem>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <set>

#include "cli_test_util.hpp"
#include "mini_xml.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// Writes a manifest: the demo's gemm pairs and race, plus one mismatch (a race expected
// RACE_FREE), and runs `prove` with all three reports.
struct Reports {
  ToolRun run;
  json report;
  std::string junit;
  json sarif;
};

const Reports& demo_reports() {
  static const Reports reports = [] {
    Reports r;
    const auto dir = scratch_dir("ci-reports");
    json m = example_manifest("manifest.json");
    json kept = json::array();
    for (const auto& e : m["benchmarks"]) {
      const std::string name = e["name"];
      if (name.find("gemm") != std::string::npos || name == "reduce_racy")
        kept.push_back(e);
    }
    json mismatch = kept[1]; // reduce_racy
    mismatch["name"] = "reduce_racy <expected race-free> & \"quoted\"";
    mismatch["expected"] = "RACE_FREE";
    kept.push_back(mismatch);
    m["benchmarks"] = kept;
    write_file(dir / "m.json", m.dump(1));
    r.run = run_tool({"prove", "--batch", "m.json", "--report", "r.json", "--junit", "r.xml",
                      "--sarif", "r.sarif"},
                     dir);
    r.report = read_json(dir / "r.json");
    r.junit = read_file(dir / "r.xml");
    r.sarif = read_json(dir / "r.sarif");
    return r;
  }();
  return reports;
}

TEST(CiReports, JsonReportHasTheDocumentedFields) {
  const auto& r = demo_reports();
  EXPECT_EQ(r.run.exit_code, 1) << r.run.err;
  const json& report = r.report;
  for (const char* key : {"tool", "version", "schema_version", "command", "manifest",
                          "manifest_digest", "filter", "shard", "options", "summary", "results"}) {
    EXPECT_TRUE(report.contains(key)) << key;
  }
  EXPECT_EQ(report["schema_version"], 1);
  EXPECT_EQ(report["command"], "prove");
  for (const char* key : {"entries", "matched", "mismatched", "bad_input", "verdicts", "guards",
                          "elements", "cache_hits", "seconds", "wall_seconds", "exit_status"}) {
    EXPECT_TRUE(report["summary"].contains(key)) << key;
  }
  EXPECT_EQ(report["summary"]["exit_status"], 1);
  EXPECT_EQ(report["summary"]["mismatched"], 1);
  for (const auto& e : report["results"]) {
    for (const char* key : {"index", "name", "kind", "verdict", "expected", "match", "bad_input",
                            "guard", "seconds", "phases", "detail", "counterexample", "safety",
                            "races", "races_truncated", "kernels", "idioms"}) {
      EXPECT_TRUE(e.contains(key)) << e["name"] << ": " << key;
    }
    if (e["kind"] == "equivalence") {
      for (const char* key : {"elements", "z3_calls", "cache_hits"})
        EXPECT_TRUE(e.contains(key)) << key;
      EXPECT_TRUE(e["phases"].contains("prove") || e["verdict"] != "EQUIVALENT");
    }
    EXPECT_TRUE(e["phases"].contains("load"));
    EXPECT_TRUE(e["phases"].contains("execute"));
    for (const auto& k : e["kernels"]) {
      for (const char* key : {"role", "ptx", "entry", "entry_line", "seconds", "instructions",
                              "barriers", "ctas", "idioms"}) {
        EXPECT_TRUE(k.contains(key)) << key;
      }
    }
  }
  const json& race = report["results"][1];
  ASSERT_EQ(race["name"], "reduce_racy");
  EXPECT_EQ(race["safety"]["access"]["cuda"]["file"], "examples/kernels/races/reduce_racy.cu");
  EXPECT_EQ(race["safety"]["access"]["ptx_line"], 58);
  EXPECT_EQ(race["safety"]["conflicting_access"]["ptx_line"], 51);
  // Every distinct race, the first being `safety`.
  ASSERT_GE(race["races"].size(), 1u);
  EXPECT_EQ(race["races"][0], race["safety"]);
  EXPECT_EQ(report["results"][0]["races"], json::array()) << "no race, no list";
  const json& wrong = report["results"][2];
  ASSERT_EQ(wrong["verdict"], "NOT_EQUIVALENT");
  EXPECT_TRUE(wrong["counterexample"]["confirmed"].get<bool>());
  EXPECT_FALSE(wrong["counterexample"]["inputs"].empty());
}

TEST(CiReports, JUnitIsWellFormedWithOneTestCasePerEntry) {
  const auto& r = demo_reports();
  std::string error;
  auto root = parse_xml(r.junit, error);
  ASSERT_TRUE(root) << error << "\n" << r.junit;
  EXPECT_EQ(root->name, "testsuites");
  for (const char* a : {"name", "tests", "failures", "time"})
    EXPECT_TRUE(root->has(a)) << a;
  EXPECT_EQ(root->attributes.at("tests"), "4");
  EXPECT_EQ(root->attributes.at("failures"), "1");
  auto suites = root->all("testsuite");
  ASSERT_EQ(suites.size(), 1u);
  const XmlElement& suite = *suites[0];
  for (const char* a : {"name", "tests", "failures", "errors", "skipped", "time"})
    EXPECT_TRUE(suite.has(a)) << a;
  auto cases = suite.all("testcase");
  ASSERT_EQ(cases.size(), 4u);
  size_t failures = 0;
  for (const XmlElement* c : cases) {
    for (const char* a : {"name", "classname", "time"})
      EXPECT_TRUE(c->has(a)) << a;
    std::map<std::string, std::string> props;
    const XmlElement* properties = c->first("properties");
    ASSERT_NE(properties, nullptr);
    for (const XmlElement* p : properties->all("property"))
      props[p->attributes.at("name")] = p->attributes.at("value");
    EXPECT_TRUE(props.count("verdict") && props.count("expected") && props.count("seconds"))
        << c->attributes.at("name");
    if (const XmlElement* f = c->first("failure")) {
      ++failures;
      EXPECT_EQ(c->attributes.at("name"), "reduce_racy <expected race-free> & \"quoted\"");
      EXPECT_EQ(f->attributes.at("type"), "DATA_RACE");
      EXPECT_EQ(f->attributes.at("message"), "verdict DATA_RACE, expected RACE_FREE");
      EXPECT_NE(f->text.find("data race on shared"), std::string::npos) << f->text;
      EXPECT_NE(f->text.find("reduce_racy.cu:17"), std::string::npos) << f->text;
      EXPECT_EQ(props["verdict"], "DATA_RACE");
      EXPECT_EQ(props["expected"], "RACE_FREE");
    }
  }
  EXPECT_EQ(failures, 1u);
}

TEST(CiReports, SarifHasTheRequiredStructureAndLocations) {
  const auto& r = demo_reports();
  const json& log = r.sarif;
  EXPECT_EQ(log["version"], "2.1.0");
  EXPECT_TRUE(log["$schema"].is_string());
  ASSERT_EQ(log["runs"].size(), 1u);
  const json& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "volta-eg");
  // An absolute URI of a page that exists: the semantics of the tree the tool was built from.
  const std::string info = run["tool"]["driver"]["informationUri"];
  ASSERT_EQ(info.rfind("file:///", 0), 0u) << info;
  EXPECT_TRUE(std::filesystem::exists(info.substr(7))) << info;
  std::vector<std::string> ids;
  for (const auto& rule : run["tool"]["driver"]["rules"]) {
    EXPECT_TRUE(rule["id"].is_string());
    EXPECT_NE(rule["name"], rule["id"]);
    EXPECT_TRUE(rule["shortDescription"]["text"].is_string());
    ids.push_back(rule["id"]);
  }
  EXPECT_EQ(
      ids, (std::vector<std::string>{"data-race", "out-of-bounds", "deadlock", "barrier-divergence",
                                     "uninitialized", "unsupported", "not-equivalent",
                                     "inconsistent", "float-tolerance", "float-precision-loss"}));
  // Findings: the expected race, the unexpected race, the wrong GEMM (not the equivalent pair).
  ASSERT_EQ(run["results"].size(), 3u) << run["results"].dump(1);
  for (const auto& res : run["results"]) {
    ASSERT_TRUE(res["ruleId"].is_string());
    EXPECT_EQ(ids.at(res["ruleIndex"].get<size_t>()), res["ruleId"]);
    EXPECT_TRUE(res["message"]["text"].is_string());
    ASSERT_FALSE(res["locations"].empty());
    const json& phys = res["locations"][0]["physicalLocation"];
    EXPECT_TRUE(phys["artifactLocation"]["uri"].is_string());
    EXPECT_GE(phys["region"]["startLine"].get<int>(), 1);
  }
  const json& race = run["results"][0];
  EXPECT_EQ(race["ruleId"], "data-race");
  EXPECT_EQ(race["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "examples/kernels/races/reduce_racy.cu");
  EXPECT_EQ(race["locations"][0]["physicalLocation"]["region"]["startLine"], 17);
  ASSERT_GE(race["relatedLocations"].size(), 1u);
  EXPECT_EQ(race["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "examples/kernels/races/reduce_racy.cu");
  EXPECT_NE(race["relatedLocations"][0]["message"]["text"].get<std::string>().find("thread 16"),
            std::string::npos);
  EXPECT_TRUE(race.contains("suppressions")) << "the manifest expects this race";
  EXPECT_FALSE(run["results"][2].contains("suppressions")) << "this race was not expected";
  const json& wrong = run["results"][1];
  EXPECT_EQ(wrong["ruleId"], "not-equivalent");
  // The located difference: the optimized kernel's CUDA line where the computations part
  // (its .loc path, relative to the repository root), the reference's .entry line last.
  const std::string uri = wrong["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
  EXPECT_EQ(uri, "examples/kernels/gemm/gemm_wrong.cu") << wrong.dump(1);
  ASSERT_FALSE(wrong["relatedLocations"].empty());
  const std::string entry_uri =
      wrong["relatedLocations"].back()["physicalLocation"]["artifactLocation"]["uri"];
  EXPECT_EQ(entry_uri.substr(entry_uri.size() - std::string("gemm/gemm_naive.ptx").size()),
            "gemm/gemm_naive.ptx");
  EXPECT_EQ(entry_uri.rfind("file:///", 0), 0u) << "absolute paths become file URIs";
  EXPECT_NE(wrong["message"]["text"].get<std::string>().find("counterexample"), std::string::npos);
}

// Every distinct race of an entry (the report's `races`, up to 16) reaches the CI reports, not
// only the first: in SARIF as related locations of the entry's one result (one finding per
// entry for code scanning), in JUnit's text as a list.
TEST(CiReports, EveryRaceOfAnEntryIsReported) {
  const auto dir = scratch_dir("sarif-races");
  ToolRun r = run_tool({"check", "--batch", source_dir() + "/examples/soundness/manifest.json",
                        "--filter", "c8_two_distinct_races", "--sarif", "s.sarif", "--junit",
                        "j.xml", "--report", "r.json"},
                       dir);
  ASSERT_NE(r.exit_code, 2) << r.err;
  const size_t races = read_json(dir / "r.json")["results"][0]["races"].size();
  ASSERT_GE(races, 2u);
  const json log = read_json(dir / "s.sarif");
  ASSERT_EQ(log["runs"][0]["results"].size(), 1u);
  const json& result = log["runs"][0]["results"][0];
  EXPECT_NE(
      result["message"]["text"].get<std::string>().find(fmt::format("({} distinct races", races)),
      std::string::npos);
  std::set<std::string> labelled;
  for (const auto& site : result["relatedLocations"]) {
    const std::string text = site["message"]["text"];
    if (text.rfind("race ", 0) == 0)
      labelled.insert(text.substr(0, text.find(':')));
  }
  EXPECT_EQ(labelled.size(), races - 1); // "race 2 of N" ... "race N of N"
  const std::string junit = read_file(dir / "j.xml");
  EXPECT_NE(junit.find(fmt::format("race {} of {}: data race", races, races)), std::string::npos)
      << junit;
}

TEST(CiReports, SarifOfTheSafetyManifestHasOneResultPerFinding) {
  const auto dir = scratch_dir("sarif-safety");
  ToolRun r = run_tool(
      {"check", "--batch", source_dir() + "/examples/safety/manifest.json", "--sarif", "s.sarif"},
      dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json log = read_json(dir / "s.sarif");
  std::multiset<std::string> rules;
  for (const auto& res : log["runs"][0]["results"])
    rules.insert(res["ruleId"]);
  EXPECT_EQ(rules.count("data-race"), 2u);
  EXPECT_EQ(rules.count("out-of-bounds"), 3u);
  EXPECT_EQ(rules.count("deadlock"), 1u);
  EXPECT_EQ(rules.count("barrier-divergence"), 1u);
  EXPECT_EQ(rules.count("uninitialized"), 1u);
  EXPECT_EQ(rules.count("unsupported"), 1u);
  EXPECT_EQ(rules.size(), 9u);
}

} // namespace
} // namespace volta::cli_test

namespace volta::cli_test {
namespace {

// The corpus's 13 race checks (a second or two): the expected verdicts, and one SARIF data-race
// result per racy kernel.
TEST(CiReports, CorpusRaceChecks) {
  const std::filesystem::path corpus = VOLTA_CORPUS_DIR;
  if (!std::filesystem::exists(corpus / "benchmarks.json")) {
    GTEST_SKIP() << "corpus not found at " << corpus;
  }
  const auto dir = scratch_dir("corpus-races");
  ToolRun r = run_tool({"check", "--batch", (corpus / "benchmarks.json").string(), "-j", "2",
                        "--report", "r.json", "--junit", "r.xml", "--sarif", "r.sarif"},
                       dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = read_json(dir / "r.json");
  EXPECT_EQ(report["summary"]["entries"], 13);
  EXPECT_EQ(report["summary"]["verdicts"]["DATA_RACE"], 8);
  EXPECT_EQ(report["summary"]["verdicts"]["RACE_FREE"], 5);
  const json log = read_json(dir / "r.sarif");
  EXPECT_EQ(log["runs"][0]["results"].size(), 8u);
  std::string error;
  EXPECT_TRUE(parse_xml(read_file(dir / "r.xml"), error)) << error;
}

} // namespace
} // namespace volta::cli_test
