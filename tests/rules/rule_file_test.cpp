// Rule files: what parses, what each mistake is told as (file:line:col), and the shipped
// library (every file builds, names are unique, birules give two rules).
#include <gtest/gtest.h>
#include <set>

#include "rules/rule_library.hpp"

namespace volta::rules {
namespace {

std::vector<std::string> errors_of(const std::string& text) {
  RuleLibrary lib;
  std::vector<std::string> out;
  for (const auto& d : lib.add(RuleSource{"t.rules", text}))
    out.push_back(d.to_string());
  return out;
}

TEST(RuleFile, ParsesRulesBirulesConditionsAndAppliers) {
  const ParsedRules p = parse_rule_file(R"(
; a comment
(rule a (+ ?x 0) ?x)
(birule b (* ?x 1) ?x)  ; trailing comment
(rule c (/ ?a ?a) 1 :if (nonzero ?a))
(rule d (+ ?x ?y ?r...) :apply canonical-term :if (total ?r...) (finite ?x))
)",
                                        "t.rules");
  ASSERT_TRUE(p.errors.empty()) << p.errors.front().to_string();
  ASSERT_EQ(p.rules.size(), 4u);
  EXPECT_EQ(p.rules[0].name, "a");
  EXPECT_EQ(p.rules[0].where.line, 3u);
  EXPECT_TRUE(p.rules[1].bidirectional);
  ASSERT_EQ(p.rules[2].conditions.size(), 1u);
  EXPECT_EQ(p.rules[2].conditions[0].predicate, algebra::FormPredicate::Nonzero);
  EXPECT_EQ(p.rules[2].conditions[0].var, "a");
  EXPECT_EQ(p.rules[3].applier, "canonical-term");
  ASSERT_EQ(p.rules[3].conditions.size(), 2u);
  EXPECT_TRUE(p.rules[3].conditions[0].rest);
  EXPECT_EQ(p.rules[3].conditions[0].var, "r");

  RuleLibrary lib;
  EXPECT_TRUE(lib.add(RuleSource{"t.rules", R"(
(rule a (+ ?x 0) ?x)
(birule b (* ?x (+ ?y ?z)) (+ (* ?x ?y) (* ?x ?z)))
)"})
                  .empty());
  ASSERT_EQ(lib.size(), 3u) << "a birule gives a rule and its reverse";
  EXPECT_EQ(lib.rewrites()[2].name, "b-rev");
  EXPECT_TRUE(lib.is_reverse(2));
  EXPECT_EQ(lib.spec(2).name, "b");
}

TEST(RuleFile, SyntaxErrorsAreLocated) {
  EXPECT_EQ(errors_of("(rule a (+ ?x 0) ?x"),
            std::vector<std::string>{"t.rules:1:1: error: unclosed '(' (missing ')')"});
  EXPECT_EQ(errors_of("(rul a (+ ?x 0) ?x)")[0].substr(0, 24), "t.rules:1:1: error: expe");
  EXPECT_EQ(errors_of("\n  (rule a (+ ?x 0))"),
            std::vector<std::string>{"t.rules:2:3: error: rule 'a' has no right-hand side (a "
                                     "pattern or ':apply APPLIER')"});
  EXPECT_EQ(errors_of("(rule (+ ?x 0) ?x)")[0],
            "t.rules:1:7: error: a rule needs a name (a plain atom) after 'rule'");
  EXPECT_EQ(errors_of("(rule a (+ ?x 0) ?x :when (nonzero ?x))")[0],
            "t.rules:1:21: error: unknown keyword ':when' (expected ':if')");
  EXPECT_EQ(
      errors_of("(rule a (+ ?x 0) ?x :if (even ?x))")[0],
      "t.rules:1:26: error: unknown predicate 'even' (expected finite, total, const, positive, "
      "negative, nonneg or nonzero)");
  EXPECT_EQ(errors_of("(rule a (+ ?x 0) ?x :if)")[0],
            "t.rules:1:21: error: ':if' needs at least one condition such as (nonzero ?a)");
  EXPECT_EQ(errors_of("(birule a (+ ?x 0) :apply canonical-term)")[0],
            "t.rules:1:20: error: a birule cannot use a C++ applier (it has no left-hand side to "
            "run backwards)");
  EXPECT_EQ(errors_of("(rule a (+ ?x 0) ?x :apply canonical-term)")[0],
            "t.rules:1:21: error: unknown keyword ':apply' (expected ':if')");
}

TEST(RuleFile, PatternErrorsAreLocatedToo) {
  EXPECT_EQ(errors_of("(rule a (foo ?x) ?x)")[0],
            "t.rules:1:10: error: rule 'a': unknown operator 'foo'");
  EXPECT_EQ(errors_of("(rule a (exp ?x ?y) ?x)")[0],
            "t.rules:1:9: error: rule 'a': operator 'exp' takes 1 argument(s), found 2");
  EXPECT_EQ(errors_of("(rule a (+ ?x 0) ?y)")[0],
            "t.rules:1:18: error: rule 'a': variable ?y is not bound by the left-hand side");
  EXPECT_EQ(
      errors_of("(rule a (+ ?x 0) ?x :if (nonzero ?z))")[0],
      "t.rules:1:1: error: rule 'a': the condition on ?z names no variable of the left-hand side");
  EXPECT_EQ(errors_of("(rule a (+ ?x 0) :apply nothing)")[0],
            "t.rules:1:1: error: rule 'a': unknown applier 'nothing' (known: canonical-term)");
  EXPECT_EQ(errors_of("(rule a (+ ?x 0) ?x)\n(rule a (* ?x 1) ?x)")[0],
            "t.rules:2:1: error: duplicate rule name 'a'");
  // The reverse of a birule must be a left-hand side that binds every variable.
  EXPECT_EQ(errors_of("(birule a (* ?x 0) 0)")[0],
            "t.rules:1:14: error: rule 'a': the reverse rule: variable ?x is not bound by the "
            "left-hand side");
  EXPECT_EQ(errors_of("(birule a (* ?x 1) ?x)")[0].substr(0, 65),
            "t.rules:1:20: error: rule 'a': as the left-hand side of the rever");
  // Syntax and pattern errors of one file are reported in one run, in line order.
  const auto both = errors_of("(rule a (foo ?x) ?x)\n(rule b)\n(rule c (exp ?x ?y) ?x)");
  ASSERT_EQ(both.size(), 3u);
  EXPECT_EQ(both[0].substr(0, 12), "t.rules:1:10");
  EXPECT_EQ(both[1].substr(0, 11), "t.rules:2:1");
  EXPECT_EQ(both[2].substr(0, 11), "t.rules:3:9");
}

TEST(RuleFile, NothingIsAddedFromAFileWithAnError) {
  RuleLibrary lib;
  EXPECT_FALSE(
      lib.add(RuleSource{"t.rules", "(rule a (+ ?x 0) ?x)\n(rule b (foo ?x) ?x)"}).empty());
  EXPECT_EQ(lib.size(), 0u);
  EXPECT_FALSE(lib.add_file("/nonexistent/x.rules").empty());
}

TEST(RuleFile, ShippedLibraryBuildsWithUniqueNames) {
  const auto sources = shipped_rule_sources();
  ASSERT_GE(sources.size(), 8u);
  std::set<std::string> files;
  for (const auto& s : sources)
    files.insert(s.name);
  for (const char* f :
       {"rules/library/arith.rules", "rules/library/exp.rules", "rules/library/maxmin.rules",
        "rules/library/softmax.rules", "rules/library/reduction.rules",
        "rules/library/division.rules", "rules/library/sqrt.rules", "rules/library/select.rules"})
    EXPECT_TRUE(files.count(f)) << f;
  const RuleLibrary lib = RuleLibrary::shipped();
  EXPECT_GE(lib.size(), 80u);
  std::set<std::string> names;
  for (const auto& r : lib.rewrites())
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
  // A user file cannot reuse a shipped name.
  RuleLibrary more = RuleLibrary::shipped();
  const auto errors = more.add(RuleSource{"mine.rules", "(rule exp-zero (exp 0) 1)"});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_string(), "mine.rules:1:1: error: duplicate rule name 'exp-zero'");
}

} // namespace
} // namespace volta::rules
