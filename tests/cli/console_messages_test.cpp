// What the console says, where it used to mislead: entry names with control characters, the
// shell completion, --quiet and --color on every command, and messages that named the wrong
// thing (a flag's range up to 1.8e308, "missing 'name'" for a manifest given as a pair, CTAs by
// number in one place and by coordinates in another, rewrite steps "at 31" and "backwards").
#include <array>
#include <cstdio>
#include <gtest/gtest.h>

#include "cli_test_util.hpp"
#include "engine/prove/explanation_text.hpp"
#include "engine/report/printable_text.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// Runs `script` with bash; its stdout.
std::string bash_output(const std::filesystem::path& script) {
  std::string out;
  FILE* pipe = ::popen(("bash " + script.string() + " 2>&1").c_str(), "r");
  if (pipe == nullptr)
    return "popen failed";
  std::array<char, 4096> buffer{};
  while (size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe))
    out.append(buffer.data(), n);
  ::pclose(pipe);
  return out;
}

TEST(ConsoleText, ControlCharactersAreEscaped) {
  EXPECT_EQ(report::printable("plain (a, b) é"), "plain (a, b) é");
  EXPECT_EQ(report::printable("a\x1b[31mb\nc\td\re\x7f"), "a\\x1b[31mb\\nc\\td\\re\\x7f");
  EXPECT_EQ(report::printable("nel\xc2\x85|bad\xff|cut\xe2\x82"),
            "nel\\u0085|bad\\xff|cut\\xe2\\x82");
  EXPECT_EQ(report::printable("back\\slash"), "back\\slash");
}

TEST(ConsoleText, LongValuesShowWhereTheyPart) {
  const std::string common(300, 'x');
  auto lines = prove::describe_value_pair("(+ " + common + " a)", "(+ " + common + " b)", 100);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[1], "optimized: the same for the first 304 characters, then they part:");
  EXPECT_NE(lines[2].find("reference at character"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[2].substr(lines[2].size() - 3), " a)") << lines[2];
  EXPECT_EQ(lines[3].substr(lines[3].size() - 3), " b)") << lines[3];
  // Both cut by the printer with nothing apart in what was printed.
  lines = prove::describe_value_pair("(f " + common + "...", "(f " + common + "y...", 100);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[1].find("the values differ further in"), std::string::npos) << lines[1];
  // Short values are shown whole.
  lines = prove::describe_value_pair("(+ a b)", "(+ b a)", 100);
  EXPECT_EQ(lines, (std::vector<std::string>{"reference: (+ a b)", "optimized: (+ b a)"}));
}

TEST(ConsoleText, EntryNamesWithControlCharactersCannotDriveTheTerminal) {
  const auto dir = scratch_dir("console-control-names");
  json m = example_manifest("safety/manifest.json");
  json kept = json::array();
  for (auto& e : m["benchmarks"]) {
    if (e["name"] == "reduce_racy") {
      e["name"] = "evil\x1b[2Jname\nsecond line\ttab";
      kept.push_back(e);
    }
  }
  ASSERT_EQ(kept.size(), 1u);
  m["benchmarks"] = kept;
  write_file(dir / "m.json", m.dump(1));
  const ToolRun r =
      run_tool({"check", "--batch", "m.json", "--color", "never", "--report", "r.json"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\t'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\nsecond line"), std::string::npos) << "a name may not split a line";
  // The result line and the summary row each show the escaped name.
  const std::string shown = "evil\\x1b[2Jname\\nsecond line\\ttab";
  const size_t first = r.out.find(shown);
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_NE(r.out.find(shown, first + 1), std::string::npos) << r.out;
  // The JSON report keeps the name as written.
  EXPECT_EQ(read_json(dir / "r.json")["results"][0]["name"], "evil\x1b[2Jname\nsecond line\ttab");
}

TEST(ConsoleText, CompletionScriptsCompleteCommandsFlagsAndValues) {
  const auto dir = scratch_dir("console-completion");
  ToolRun r = run_tool({"completion", "bash"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  write_file(dir / "volta-eg.bash", r.out);
  // Each line: the words typed so far; the script prints what completion offers for the last.
  write_file(dir / "drive.sh", "source " + (dir / "volta-eg.bash").string() + R"(
offer() {
  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
  _volta_eg
  echo "$*: ${COMPREPLY[*]}"
}
offer volta-eg pro
offer volta-eg prove --rep
offer volta-eg check --color ""
offer volta-eg rules ch
offer volta-eg rules check --po
offer volta-eg explain --q
offer volta-eg explain --co
offer volta-eg completion ""
offer volta-eg run --side o
offer volta-eg prove --filter g
)");
  const std::string offered = bash_output(dir / "drive.sh");
  EXPECT_NE(offered.find("volta-eg pro: prove"), std::string::npos) << offered;
  EXPECT_NE(offered.find("volta-eg prove --rep: --report"), std::string::npos) << offered;
  EXPECT_NE(offered.find("volta-eg check --color : auto always never"), std::string::npos)
      << offered;
  EXPECT_NE(offered.find("volta-eg rules ch: check"), std::string::npos) << offered;
  EXPECT_NE(offered.find("volta-eg rules check --po: --points"), std::string::npos) << offered;
  EXPECT_NE(offered.find("volta-eg explain --q: --quiet"), std::string::npos) << offered;
  EXPECT_NE(offered.find("volta-eg explain --co: --color"), std::string::npos) << offered;
  EXPECT_NE(offered.find("volta-eg completion : bash zsh"), std::string::npos) << offered;
  EXPECT_NE(offered.find("volta-eg run --side o: opt"), std::string::npos) << offered;
  EXPECT_NE(offered.find("volta-eg prove --filter g: \n"), std::string::npos)
      << "a regular expression, not a file name: " << offered;

  r = run_tool({"completion", "zsh"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("#compdef volta-eg\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("bashcompinit"), std::string::npos);
  EXPECT_NE(r.out.find("complete -o filenames -F _volta_eg volta-eg"), std::string::npos);
  EXPECT_EQ(run_tool({"completion", "fish"}).exit_code, 2);
}

TEST(ConsoleText, EveryCommandTakesQuietAndTheColoredOnesColor) {
  const std::vector<std::vector<std::string>> commands = {
      {"parse", "examples/kernels/races/reduce_racy.ptx"},
      {"check", "--batch", "examples/safety/manifest.json", "--filter", "reduce_ok"},
      {"prove", "--batch", "examples/manifest.json", "--filter", "gemm_tiled"},
      {"explain", "--batch", "examples/manifest.json", "--filter", "gemm_tiled", "--element",
       "C[5]", "--no-z3"},
      {"run", "--batch", "examples/manifest.json", "--filter", "gemm_tiled", "--side", "opt"},
  };
  for (const auto& command : commands) {
    auto args = command;
    args.push_back("-q");
    const ToolRun r = run_tool(args);
    EXPECT_EQ(r.exit_code, 0) << command[0] << ": " << r.err;
    EXPECT_EQ(r.out, "") << command[0];
    if (command[0] == "parse" || command[0] == "run")
      continue; // no colored output, no --color
    for (const char* color : {"never", "always"}) {
      args.insert(args.end(), {"--color", color});
      EXPECT_EQ(run_tool(args).exit_code, 0) << command[0] << " --color " << color;
      args.resize(args.size() - 2);
    }
  }
  ToolRun r = run_tool({"explain", "--batch", "examples/manifest.json", "--filter", "gemm_tiled",
                        "--element", "C[5]", "--no-z3", "--color", "always"});
  EXPECT_NE(r.out.find("\x1b[32mEQUIVALENT"), std::string::npos) << r.out;
  r = run_tool({"explain", "--pair", "x.json", "--element", "C[5]", "--color", "sometimes"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--color: expected auto, always or never"), std::string::npos) << r.err;
}

TEST(ConsoleText, FlagRangesInWords) {
  ToolRun r = run_tool({"prove", "--batch", "examples/manifest.json", "--rule-nodes", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "--rule-nodes: expected a positive number of new e-nodes, got \"0\"\nRun with "
                   "--help for more information.\n");
  r = run_tool({"prove", "--batch", "examples/manifest.json", "--rule-seconds", "-1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--rule-seconds: expected a positive number of seconds, got \"-1\""),
            std::string::npos)
      << r.err;
}

TEST(ConsoleText, AManifestGivenAsAPairIsNamedAsSuch) {
  ToolRun r = run_tool({"prove", "--pair", "examples/manifest.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "examples/manifest.json: error: this is a manifest (it has \"benchmarks\"), "
                   "not one pair: give it with --batch (and --filter to pick entries), or give "
                   "--pair a file holding one entry object\n");
  // A pair file's own mistakes use its own JSON paths.
  const auto dir = scratch_dir("console-pair-paths");
  write_file(dir / "p.json", R"({"name": "x"})");
  r = run_tool({"explain", "--pair", "p.json", "--element", "C[0]"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "p.json: error: $: missing required member 'kind'\n");
}

TEST(ConsoleText, ACtaIsNamedByItsCoordinatesEverywhere) {
  const auto dir = scratch_dir("console-cta-names");
  const ToolRun r =
      run_tool({"check", "--batch", "examples/safety/manifest.json", "--filter", "cta_race \\(all",
                "--color", "never", "--junit", (dir / "j.xml").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("by thread 0 of CTA (1,0,0) (PTX line 41) conflicts with write by thread 0 "
                       "of CTA (0,0,0)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cta_race.cu:13 (thread 0 of CTA (1,0,0)), conflicting access at "
                       "examples/kernels/races/cta_race.cu:13 (thread 0 of CTA (0,0,0))"),
            std::string::npos)
      << r.out;
  const std::string junit = read_file(dir / "j.xml");
  EXPECT_NE(junit.find(", thread 0 of CTA (1,0,0)"), std::string::npos) << junit;
  EXPECT_NE(junit.find(", thread 0 of CTA (0,0,0)"), std::string::npos) << junit;
}

TEST(ConsoleText, ExplainSaysWhatEachStepDoesAndWhere) {
  // A canonical-form step inside the value: the step says what it does and where it applies.
  const ToolRun r = run_tool({"explain", "--batch", "examples/soundness/manifest.json", "--filter",
                              "^d13_softmax_zero_guard$", "--element", "out[0]", "--no-z3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(golden_diff("explain_softmax_zero_guard.txt", r.out), "");
}

TEST(ConsoleText, InlinedCodeIsPlacedAtTheKernelLineThatCalledIt) {
  // cp.async comes from __pipeline_memcpy_async, inlined from cuda_pipeline_helpers.h through
  // four levels: the race is reported at the kernel's line 7, where the copy was started.
  const ToolRun r = run_tool({"check", "--batch", "examples/soundness/manifest.json", "--filter",
                              "c8_cp_async_read_before_wait", "--color", "never"});
  EXPECT_EQ(r.out.find("cuda_pipeline_helpers.h"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("conflicting access at "
                       "examples/kernels/soundness/c8_cp_async_read_before_wait.cu:7 (thread 1)"),
            std::string::npos)
      << r.out;
}

TEST(ConsoleText, Z3IsQuotedOnlyWhereItWasAsked) {
  const auto dir = scratch_dir("console-z3-calls");
  // c2_udiv4_vs_shr: one element (its template) proved by Z3; c19_add_rn_vs_rz_bits: refused
  // by the translation (the bits of a sum), so Z3 is never asked and the reason says so.
  ToolRun r =
      run_tool({"prove", "--batch", source_dir() + "/examples/soundness/manifest.json", "--filter",
                "^(c2_udiv4_vs_shr|c19_add_rn_vs_rz_bits)$", "-q", "--report", "r.json"},
               dir);
  ASSERT_NE(r.exit_code, 2) << r.err;
  const json report = read_json(dir / "r.json");
  ASSERT_EQ(report["results"].size(), 2u);
  for (const json& e : report["results"]) {
    if (e["name"] == "c2_udiv4_vs_shr") {
      EXPECT_EQ(e["elements"]["z3"], 1) << e.dump();
      EXPECT_GE(e["z3_calls"].get<int>(), 1) << e.dump();
    } else {
      EXPECT_EQ(e["verdict"], "UNKNOWN");
      EXPECT_NE(e["detail"].get<std::string>().find("not sent to Z3: unsupported by the Z3 "
                                                    "translation"),
                std::string::npos)
          << e["detail"];
      EXPECT_EQ(e["z3_calls"], 0) << e.dump();
    }
  }
}

TEST(ConsoleText, ASaturationGuardIsNamedAndCounted) {
  // c12_abs_of_neg needs the rule library (fabs(-a) = fabs(a)); --rule-seconds that leaves it no
  // time ends the element UNKNOWN, and the guard says why.
  const auto dir = scratch_dir("console-saturation-guard");
  const ToolRun r = run_tool(
      {"prove", "--batch", source_dir() + "/examples/soundness/manifest.json", "--filter",
       "^c12_abs_of_neg$", "--rule-seconds", "1e-9", "--no-z3", "-q", "--report", "r.json"},
      dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json report = read_json(dir / "r.json");
  const json& e = report["results"][0];
  EXPECT_EQ(e["verdict"], "UNKNOWN");
  EXPECT_EQ(e["guard"], "saturation time limit") << e["detail"];
  EXPECT_EQ(report["summary"]["guards"]["saturation time limit"], 1);
}

} // namespace
} // namespace volta::cli_test
