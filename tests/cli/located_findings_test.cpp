// Verdicts a user can act on (issue 31): a NOT_EQUIVALENT names the CUDA lines where the two
// kernels part (an off-by-one halo load, a wrong shuffle offset), in the JSON report, the SARIF
// file and the console; an UNKNOWN names the element, the subterms left undecided and a rule of
// their shape, and that rule, proved by `volta-eg rules check`, decides the pair.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sstream>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// The line of `file` (relative to the source tree) that holds `marker`, 1-based.
unsigned line_of(const std::string& file, const std::string& marker) {
  std::istringstream in(read_file(source_dir() + "/" + file));
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (line.find(marker) != std::string::npos)
      return n;
  }
  ADD_FAILURE() << marker << " not in " << file;
  return 0;
}

bool names(const json& point, const std::string& file, unsigned line) {
  return point.is_object() && point["cuda"].is_object() &&
         point["cuda"]["file"].get<std::string>() == file &&
         point["cuda"]["line"].get<unsigned>() == line;
}

struct Located {
  ToolRun run;
  json entry;
  json sarif;
};

Located prove_located(const std::string& filter, const std::string& test) {
  const auto dir = scratch_dir(test);
  Located out;
  out.run = run_tool({"prove", "--batch", "examples/located/manifest.json", "--filter", filter,
                      "--report", (dir / "r.json").string(), "--sarif", (dir / "r.sarif").string(),
                      "--color", "never"});
  const json report = read_json(dir / "r.json");
  EXPECT_EQ(report["results"].size(), 1u);
  if (!report["results"].empty())
    out.entry = report["results"][0];
  out.sarif = read_json(dir / "r.sarif");
  return out;
}

TEST(LocatedDifference, OffByOneHaloLoadIsNamed) {
  const std::string opt_cu = "examples/kernels/located/stencil3_tile_off_by_one.cu";
  const std::string ref_cu = "examples/kernels/located/stencil3.cu";
  const Located r = prove_located("stencil3_tile", "located-off-by-one");
  ASSERT_EQ(r.run.exit_code, 0) << r.run.out << r.run.err;
  ASSERT_EQ(r.entry["verdict"], "NOT_EQUIVALENT");
  const json& where = r.entry["counterexample"]["location"];
  ASSERT_TRUE(where.is_object()) << r.entry.dump(1);
  EXPECT_TRUE(where["note"].is_null()) << where.dump(1);
  // The stores: the last line of each kernel.
  EXPECT_TRUE(names(where["reference_store"], ref_cu, line_of(ref_cu, "  out[i] = left")))
      << where.dump(1);
  EXPECT_TRUE(names(where["optimized_store"], opt_cu, line_of(opt_cu, "  out[i] = left")))
      << where.dump(1);
  // Where they part: the sum of the stencil adds in[65] in the reference, in[66] in the
  // optimized kernel; the reference loaded in[65] at its `right` line, the optimized kernel's
  // in[66] was first loaded by the halo line with the bug (then read back from the tile).
  const json& ref = where["parting"]["reference"];
  const json& opt = where["parting"]["optimized"];
  EXPECT_TRUE(names(ref["instruction"], ref_cu, line_of(ref_cu, "  out[i] = left")))
      << where.dump(1);
  EXPECT_TRUE(ref["instruction_uses_it"].get<bool>());
  EXPECT_TRUE(names(ref["first_made"], ref_cu, line_of(ref_cu, "float right"))) << where.dump(1);
  EXPECT_TRUE(names(opt["first_made"], opt_cu, line_of(opt_cu, "// BUG:"))) << where.dump(1);
  EXPECT_NE(ref["subterm"].get<std::string>().find("in["), std::string::npos);
  // Console: the bug's line, and the store lines.
  const std::string bug = fmt::format("{}:{}", opt_cu, line_of(opt_cu, "// BUG:"));
  EXPECT_NE(r.run.out.find("the two computations part at"), std::string::npos) << r.run.out;
  EXPECT_NE(r.run.out.find(bug), std::string::npos) << r.run.out;
  EXPECT_NE(r.run.out.find("stored at "), std::string::npos) << r.run.out;
  // SARIF: the optimized kernel's CUDA line as the location, the reference's as related.
  const json& result = r.sarif["runs"][0]["results"][0];
  const json& loc = result["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], opt_cu) << result.dump(1);
  const json& related = result["relatedLocations"][0]["physicalLocation"];
  EXPECT_EQ(related["artifactLocation"]["uri"], ref_cu) << result.dump(1);
  bool bug_related = false;
  for (const json& rel : result["relatedLocations"]) {
    const json& p = rel["physicalLocation"];
    bug_related |= p["artifactLocation"]["uri"] == opt_cu &&
                   p["region"]["startLine"] == line_of(opt_cu, "// BUG:");
  }
  EXPECT_TRUE(bug_related) << result.dump(1);
}

TEST(LocatedDifference, WrongShuffleOffsetIsNamed) {
  const std::string opt_cu = "examples/kernels/located/warp_sum_wrong_offset.cu";
  const std::string ref_cu = "examples/kernels/located/warp_sum.cu";
  const Located r = prove_located("warp_sum_wrong", "located-shuffle");
  ASSERT_EQ(r.run.exit_code, 0) << r.run.out << r.run.err;
  ASSERT_EQ(r.entry["verdict"], "NOT_EQUIVALENT");
  const json& where = r.entry["counterexample"]["location"];
  ASSERT_TRUE(where.is_object()) << r.entry.dump(1);
  const json& opt = where["parting"]["optimized"];
  // The step with the wrong offset adds another lane's partial sum.
  EXPECT_TRUE(names(opt["instruction"], opt_cu, line_of(opt_cu, "// BUG:"))) << where.dump(1);
  EXPECT_TRUE(names(where["parting"]["reference"]["instruction"], ref_cu,
                    line_of(ref_cu, "v += __shfl_down_sync")))
      << where.dump(1);
  EXPECT_TRUE(names(where["optimized_store"], opt_cu, line_of(opt_cu, "out[0] =")))
      << where.dump(1);
  EXPECT_NE(r.run.out.find(fmt::format("{}:{}", opt_cu, line_of(opt_cu, "// BUG:"))),
            std::string::npos)
      << r.run.out;
  const json& loc = r.sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], opt_cu);
  EXPECT_EQ(loc["region"]["startLine"], line_of(opt_cu, "// BUG:"));
}

TEST(UndecidedElement, GeluFormsNameTheSubtermsAndARuleThatDecidesThem) {
  const auto dir = scratch_dir("undecided-gelu");
  // A small budget: the rules stop at once, and Z3 has little time.
  const ToolRun unknown =
      run_tool({"prove", "--batch", "examples/located/manifest.json", "--filter", "gelu",
                "--report", (dir / "r.json").string(), "--rule-seconds", "0.2", "--z3-timeout",
                "300", "--stop-at-first-unknown", "--color", "never", "--no-cross-check"});
  ASSERT_EQ(unknown.exit_code, 0) << unknown.out << unknown.err; // the manifest expects UNKNOWN
  const json entry = read_json(dir / "r.json")["results"][0];
  ASSERT_EQ(entry["verdict"], "UNKNOWN") << entry.dump(1);
  const json& u = entry["undecided"];
  ASSERT_TRUE(u.is_object()) << entry.dump(1);
  EXPECT_EQ(u["element"], "y[0]");
  EXPECT_FALSE(u["limit"].get<std::string>().empty());
  EXPECT_NE(u["reference_subterm"].get<std::string>().find("tanh"), std::string::npos) << u;
  EXPECT_NE(u["optimized_subterm"].get<std::string>().find("exp"), std::string::npos) << u;
  ASSERT_TRUE(u["rule"].is_string()) << u;
  // Stopped at the first undecided element: the other 31 were not tried.
  EXPECT_EQ(entry["elements"]["unknown"], 1) << entry["elements"];
  EXPECT_NE(unknown.out.find("left undecided: "), std::string::npos) << unknown.out;
  EXPECT_NE(unknown.out.find("to decide it: a rule of this shape"), std::string::npos)
      << unknown.out;
  EXPECT_NE(unknown.out.find("y[0]"), std::string::npos) << unknown.out;

  // The suggested rule is proved and decides the pair.
  write_file(dir / "gelu.rules", u["rule"].get<std::string>() + "\n");
  const ToolRun check = run_tool({"rules", "check", (dir / "gelu.rules").string()});
  ASSERT_EQ(check.exit_code, 0) << check.out << check.err;
  const ToolRun proved = run_tool({"prove", "--batch", "examples/located/manifest.json", "--filter",
                                   "gelu", "--rules", (dir / "gelu.rules").string(), "--report",
                                   (dir / "r2.json").string(), "--color", "never"});
  EXPECT_EQ(read_json(dir / "r2.json")["results"][0]["verdict"], "EQUIVALENT")
      << proved.out << proved.err;
}

} // namespace
} // namespace volta::cli_test
