// `volta-eg rules check`, `prove --rules FILE` and `volta-eg explain` from the command line:
// exit statuses, located errors, and what the output says.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

TEST(RulesCli, ShippedLibraryHasNoUnsoundRule) {
  // Without Z3 only the rules the canonical forms prove pass (the others are not proved: exit
  // 1); none is unsound. tests/rules_check/shipped_rules_test.cpp proves all of them with Z3.
  const ToolRun r = run_tool({"rules", "check", "--no-z3", "-q"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(" 0 unsound, "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("UNSOUND"), std::string::npos) << r.out;
}

TEST(RulesCli, UnsoundRulesFailWithTheirLocation) {
  const auto dir = scratch_dir("rules-unsound");
  write_file(dir / "mine.rules", "; mine\n(rule ok (* ?a 1) ?a)\n(rule bad (+ ?a ?b) ?a)\n");
  const ToolRun r = run_tool({"rules", "check", "--no-z3", "mine.rules"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("mine.rules:3:1: error: rule 'bad' is UNSOUND: at "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("mine.rules:2:1: rule 'ok': proved (by the canonical forms"),
            std::string::npos)
      << r.out;
}

TEST(RulesCli, SyntaxErrorsExitTwo) {
  const auto dir = scratch_dir("rules-syntax");
  write_file(dir / "broken.rules", "(rule a (+ ?x 0) ?x)\n(rule b (foo ?x) ?x)\n(rule c)");
  const ToolRun r = run_tool({"rules", "check", "broken.rules"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("broken.rules:2:10: error: rule 'b': unknown operator 'foo'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("broken.rules:3:1: error: rule 'c' has no left-hand side"),
            std::string::npos)
      << r.err;
  write_file(dir / "unclosed.rules", "(rule a (+ ?x 0) ?x)\n(rule c");
  const ToolRun u = run_tool({"rules", "check", "unclosed.rules"}, dir);
  EXPECT_EQ(u.exit_code, 2);
  EXPECT_NE(u.err.find("unclosed.rules:2:1: error: unclosed '('"), std::string::npos) << u.err;
}

TEST(RulesCli, ProveRefusesAnUnsoundRuleFile) {
  const auto dir = scratch_dir("prove-unsound-rules");
  write_file(dir / "bad.rules", "(rule bad (max ?a ?b) ?a)\n");
  const ToolRun r = run_tool({"prove", "--batch", source_dir() + "/examples/manifest.json",
                              "--filter", "gemm_tiled", "--no-z3", "--rules", "bad.rules"},
                             dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("bad.rules:1:1: error: rule 'bad' is UNSOUND"), std::string::npos) << r.err;
  write_file(dir / "dup.rules", "(rule exp-zero (exp 0) 1)\n");
  const ToolRun d = run_tool({"prove", "--batch", source_dir() + "/examples/manifest.json",
                              "--filter", "gemm_tiled", "--rules", "dup.rules"},
                             dir);
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_NE(d.err.find("dup.rules:1:1: error: duplicate rule name 'exp-zero'"), std::string::npos)
      << d.err;
}

TEST(RulesCli, ProveUsesASoundRuleFile) {
  const auto dir = scratch_dir("prove-good-rules");
  write_file(dir / "good.rules", "(rule tanh-odd (tanh (neg ?x)) (neg (tanh ?x)))\n");
  const ToolRun r =
      run_tool({"prove", "--batch", source_dir() + "/examples/manifest.json", "--filter",
                "gemm_tiled", "--rules", "good.rules", "--report", "r.json"},
               dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto report = read_json(dir / "r.json");
  EXPECT_EQ(report["options"]["rules"][0], "good.rules");
}

TEST(ExplainCli, ShowsTheCheckedRewriteChain) {
  const ToolRun r = run_tool({"explain", "--batch", "examples/soundness/manifest.json", "--filter",
                              "^c12_abs_of_neg$", "--element", "out[0]", "--no-z3"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("EQUIVALENT (rules)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1. rule abs-of-neg"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("checker: ok: 1 steps replayed"), std::string::npos) << r.out;
}

TEST(ExplainCli, SaysWhenNoRewriteWasNeeded) {
  // (a + b) + c against a + (b + c): the e-graph keeps sums flattened, so the two values are
  // one term when added; explain says so instead of showing an empty chain.
  const ToolRun r = run_tool({"explain", "--batch", "examples/soundness/manifest.json", "--filter",
                              "^c0_float_reassoc$", "--element", "out[0]", "--no-z3"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("one e-graph term as soon as they are added"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("rewrite chain"), std::string::npos) << r.out;
}

TEST(ExplainCli, CounterexampleAndBadElement) {
  const ToolRun r = run_tool({"explain", "--batch", "examples/manifest.json", "--filter",
                              "gemm_wrong", "--element", "C[31]", "--no-z3"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("NOT_EQUIVALENT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("confirmed by exact evaluation"), std::string::npos) << r.out;
  const ToolRun bad = run_tool({"explain", "--batch", "examples/manifest.json", "--filter",
                                "gemm_wrong", "--element", "C[99999]", "--no-z3"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("no element C[99999] is written by both kernels"), std::string::npos)
      << bad.out;
  const ToolRun two = run_tool({"explain", "--batch", "examples/manifest.json", "--filter", "gemm",
                                "--element", "C[0]", "--no-z3"});
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("explain needs exactly one"), std::string::npos) << two.err;
}

} // namespace
} // namespace volta::cli_test
