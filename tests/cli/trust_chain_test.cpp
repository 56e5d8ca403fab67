// Issue 30, class 5 "the trust chain", from the command line: (a) a rule that is not proved is
// refused by `rules check` and by `prove --rules`, with its place; (b) the proof cache is keyed
// on the rule set in effect, so that a template proved with a user rule is not found by a run
// without it.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

using nlohmann::json;

// max(x, -10^6) = x at every small rational point, false below -10^6; without Z3 nothing
// refutes it, and nothing proves it.
constexpr const char* kFloorRule = "; holds at every sampled point\n(rule drop-floor (max ?x "
                                   "-1000000) ?x)\n";

TEST(TrustChain, RulesCheckRefusesARuleItCannotProve) {
  const auto dir = scratch_dir("trust-unproved");
  write_file(dir / "floor.rules", kFloorRule);
  const ToolRun r = run_tool({"rules", "check", "--no-z3", "floor.rules"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("floor.rules:2:1: error: rule 'drop-floor' could not be proved"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("random points agree"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 rule: 0 proved"), std::string::npos) << r.out;
  // With Z3 the point below -10^6 is found and confirmed.
  const ToolRun z = run_tool({"rules", "check", "floor.rules"}, dir);
  EXPECT_EQ(z.exit_code, 1) << z.out << z.err;
  EXPECT_NE(z.out.find("floor.rules:2:1: error: rule 'drop-floor' is UNSOUND: Z3 found a "
                       "counterexample"),
            std::string::npos)
      << z.out;
}

TEST(TrustChain, ProveRefusesAnUnprovedRuleFile) {
  const auto dir = scratch_dir("trust-prove-unproved");
  write_file(dir / "floor.rules", kFloorRule);
  const ToolRun r = run_tool({"prove", "--batch", source_dir() + "/examples/manifest.json",
                              "--filter", "gemm_tiled", "--no-z3", "--rules", "floor.rules"},
                             dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("floor.rules:2:1: error: rule 'drop-floor' could not be proved"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "") << "nothing is proved with a refused rule file";
  // A true identity about sin has no proof either (sin is uninterpreted, with no axiom).
  write_file(dir / "sin.rules", "(rule sin-odd (sin (neg ?x)) (neg (sin ?x)))\n");
  const ToolRun s = run_tool({"prove", "--batch", source_dir() + "/examples/manifest.json",
                              "--filter", "gemm_tiled", "--rules", "sin.rules"},
                             dir);
  EXPECT_EQ(s.exit_code, 2) << s.out << s.err;
  EXPECT_NE(s.err.find("sin.rules:1:1: error: rule 'sin-odd' could not be proved"),
            std::string::npos)
      << s.err;
}

TEST(TrustChain, ShippedRuleFilesAreProved) {
  // The whole library is proved with Z3 by tests/rules_check/shipped_rules_test.cpp (slow);
  // here two files: one the canonical forms prove alone, one that needs Z3.
  const ToolRun forms =
      run_tool({"rules", "check", "--no-z3", "-q", "rules/library/reduction.rules"});
  EXPECT_EQ(forms.exit_code, 0) << forms.out << forms.err;
  EXPECT_NE(forms.out.find("5 rules: 5 proved (0 by Z3, 5 by canonical forms"), std::string::npos)
      << forms.out;
  const ToolRun z3 = run_tool({"rules", "check", "-q", "rules/library/sqrt.rules"});
  EXPECT_EQ(z3.exit_code, 0) << z3.out << z3.err;
  EXPECT_NE(z3.out.find("11 rules: 11 proved (11 by Z3"), std::string::npos) << z3.out;
}

// A one-thread kernel: out[0] = tanh(-in[0]) (`negate_first`) or -tanh(in[0]).
std::string tanh_kernel(const std::string& name, bool negate_first) {
  const std::string body = negate_first ? "  neg.f32 %f1, %f0;\n  tanh.approx.f32 %f2, %f1;\n"
                                        : "  tanh.approx.f32 %f1, %f0;\n  neg.f32 %f2, %f1;\n";
  return ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry " + name +
         "(.param .u64 p_in, .param .u64 p_out)\n{\n  .reg .b64 %rd<2>;\n  .reg .f32 %f<3>;\n"
         "  ld.param.u64 %rd0, [p_in];\n  ld.param.u64 %rd1, [p_out];\n"
         "  ld.global.f32 %f0, [%rd0];\n" +
         body + "  st.global.f32 [%rd1], %f2;\n  ret;\n}\n";
}

json tanh_config(const std::string& ptx, const std::string& entry) {
  const json in = {
      {"name", "in"}, {"base", "0x100000"}, {"elem_width", 4}, {"len", 1}, {"kind", "in"}};
  const json out = {
      {"name", "out"}, {"base", "0x200000"}, {"elem_width", 4}, {"len", 1}, {"kind", "out"}};
  return {{"ptx", ptx},
          {"entry", entry},
          {"block", {1, 1, 1}},
          {"arrays", {in, out}},
          {"params", {"ptr:in", "ptr:out"}}};
}

// tanh(-x) = -tanh(x) needs the user's rule tanh-odd: with it the element is proved by rules
// and its template cached; a run without the rule must not find that proof (cache miss, the
// verdict it reaches on its own), and a run with the rule again finds it.
TEST(TrustChain, TheProofCacheIsKeyedOnTheRuleSet) {
  const auto dir = scratch_dir("trust-cache-rules");
  write_file(dir / "ref.ptx", tanh_kernel("tref", true));
  write_file(dir / "opt.ptx", tanh_kernel("topt", false));
  const json entry = {{"name", "tanh_odd"},
                      {"kind", "equivalence"},
                      {"reference", tanh_config("ref.ptx", "tref")},
                      {"optimized", tanh_config("opt.ptx", "topt")}};
  write_file(dir / "m.json", json{{"benchmarks", {entry}}}.dump(1));
  write_file(dir / "odd.rules", "(rule tanh-odd (tanh (neg ?x)) (neg (tanh ?x)))\n");
  auto prove = [&](const std::string& report, bool with_rule) {
    std::vector<std::string> args = {"prove",   "--batch", "m.json",   "--no-z3",
                                     "--cache", "cache",   "--report", report};
    if (with_rule) {
      args.push_back("--rules");
      args.push_back("odd.rules");
    }
    // Only the proof cache: the entry and execution caches would answer before it.
    std::filesystem::remove_all(dir / "cache" / "entries");
    std::filesystem::remove_all(dir / "cache" / "runs");
    return run_tool(args, dir);
  };

  const ToolRun first = prove("r1.json", true);
  const json r1 = read_json(dir / "r1.json");
  ASSERT_EQ(r1["results"][0]["verdict"], "EQUIVALENT") << first.out << first.err;
  EXPECT_EQ(r1["results"][0]["elements"]["rules"], 1);
  EXPECT_EQ(r1["cache"]["stored"], 1);

  const ToolRun second = prove("r2.json", false);
  const json r2 = read_json(dir / "r2.json");
  EXPECT_EQ(r2["results"][0]["verdict"], "UNKNOWN") << second.out;
  EXPECT_EQ(r2["cache"]["hits"], 0);
  EXPECT_EQ(r2["cache"]["misses"], 1);
  EXPECT_EQ(r2["results"][0]["elements"]["cached"], 0);

  const ToolRun third = prove("r3.json", true);
  const json r3 = read_json(dir / "r3.json");
  EXPECT_EQ(r3["results"][0]["verdict"], "EQUIVALENT") << third.out;
  EXPECT_EQ(r3["cache"]["hits"], 1);
  EXPECT_EQ(r3["results"][0]["elements"]["cached"], 1);

  // Another rule file, even one that proves the same, is another rule set.
  write_file(dir / "odd.rules", "; the same rule, another text\n"
                                "(rule tanh-odd (tanh (neg ?x)) (neg (tanh ?x)))\n");
  const ToolRun fourth = prove("r4.json", true);
  const json r4 = read_json(dir / "r4.json");
  EXPECT_EQ(r4["results"][0]["verdict"], "EQUIVALENT") << fourth.out;
  EXPECT_EQ(r4["cache"]["hits"], 0);
  EXPECT_EQ(r4["cache"]["stored"], 1);
}

// The entry cache keeps whole results under the same rule-set name: a result proved with the
// rule is not the answer of a run without it.
TEST(TrustChain, TheEntryCacheIsKeyedOnTheRuleSet) {
  const auto dir = scratch_dir("trust-entry-cache-rules");
  write_file(dir / "ref.ptx", tanh_kernel("tref", true));
  write_file(dir / "opt.ptx", tanh_kernel("topt", false));
  const json entry = {{"name", "tanh_odd"},
                      {"kind", "equivalence"},
                      {"reference", tanh_config("ref.ptx", "tref")},
                      {"optimized", tanh_config("opt.ptx", "topt")}};
  write_file(dir / "m.json", json{{"benchmarks", {entry}}}.dump(1));
  write_file(dir / "odd.rules", "(rule tanh-odd (tanh (neg ?x)) (neg (tanh ?x)))\n");
  const ToolRun first = run_tool({"prove", "--batch", "m.json", "--no-z3", "--cache", "cache",
                                  "--rules", "odd.rules", "--report", "r1.json"},
                                 dir);
  ASSERT_EQ(read_json(dir / "r1.json")["results"][0]["verdict"], "EQUIVALENT") << first.out;
  const ToolRun second = run_tool(
      {"prove", "--batch", "m.json", "--no-z3", "--cache", "cache", "--report", "r2.json"}, dir);
  const json r2 = read_json(dir / "r2.json");
  EXPECT_EQ(r2["results"][0]["verdict"], "UNKNOWN") << second.out;
  EXPECT_EQ(r2["cache"]["entries"]["hits"], 0);
}

} // namespace
} // namespace volta::cli_test
