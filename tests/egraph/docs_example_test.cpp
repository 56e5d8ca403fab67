// The worked example of docs/egraph.md. The code between the markers below is copied verbatim
// into the documentation; DocsExample.DocumentationHoldsThisCode fails when the two drift apart.

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#include "egraph/arith.hpp"
#include "egraph/egraph.hpp"
#include "egraph/explain.hpp"
#include "egraph/explain_check.hpp"
#include "egraph/extract.hpp"
#include "egraph/runner.hpp"
#include "egraph/sexpr.hpp"

namespace volta::egraph {
namespace {

TEST(DocsExample, WorkedExample) {
  // [docs-example-begin]
  // A language: the demo arithmetic language (num, sym, AC + * max min, - / neg exp).
  Arith a = make_arith();
  EGraphOptions options;
  options.explanations = true; // off by default; needed for explain_equivalence
  EGraph g(a.lang, options);
  ConstantFolding& folding = add_arith_constant_folding(g, a);

  // One output element as computed by two kernels. Sums are n-ary AC nodes: grouping and
  // order do not matter, (+ x (+ y z)) is inserted as the sorted multiset {x, y, z}.
  const Term kernel_a =
      parse_term_or_throw("(+ (* A[0] B[0]) (* A[1] B[1]) (* 2 (- A[2] A[2])))", a.lang);
  const Term kernel_b = parse_term_or_throw("(+ (* B[1] A[1]) (+ (* B[0] A[0]) 0))", a.lang);
  const Id lhs = g.add_term(kernel_a);
  const Id rhs = g.add_term(kernel_b);

  // Rules: `?xs...` is a rest variable, the other elements of the sum.
  const std::vector<Rewrite> rules = {
      Rewrite::parse(a.lang, "sub-self", "(- ?a ?a)", "0"),
      Rewrite::parse(a.lang, "add-0", "(+ 0 ?xs...)", "(+ ?xs...)"),
  };
  const RunReport report = Runner(g).run(rules);
  EXPECT_EQ(report.stop_reason, StopReason::Saturated);
  EXPECT_TRUE(g.is_equal(lhs, rhs)); // EQUIVALENT: the roots share an e-class

  // The cheapest representative, and the exact value constant folding found for a subterm.
  Extractor extractor(g, ast_size());
  EXPECT_EQ(to_sexpr(extractor.extract(lhs), a.lang), "(+ (* A[0] B[0]) (* A[1] B[1]))");
  EXPECT_EQ(folding.value(g, g.add_expr("(* 2 (- A[2] A[2]))")), mpq_class(0));

  // Why: a chain of rule applications, replayed by an independent checker.
  const std::optional<Explanation> why = explain_equivalence(g, kernel_a, kernel_b);
  ASSERT_TRUE(why.has_value());
  ExplanationChecker checker(a.lang);
  checker.add_rules(rules);
  checker.add_verifier("constant-fold", constant_fold_verifier(folding));
  EXPECT_TRUE(checker.check(*why).ok);
  const std::string text = why->to_string(a.lang); // printed in docs/egraph.md
  // [docs-example-end]
  EXPECT_EQ(text,
            "(+ (* A[0] B[0]) (* A[1] B[1]) (* 2 (- A[2] A[2])))\n"
            "  => [ac-normalize at root] (+ (* 2 (- A[2] A[2])) (* A[0] B[0]) (* A[1] B[1]))\n"
            "  => [sub-self at 0.1] (+ (* 2 0) (* A[0] B[0]) (* A[1] B[1]))\n"
            "  => [constant-fold at 0] (+ 0 (* A[0] B[0]) (* A[1] B[1]))\n"
            "  => [ac-normalize at root] (+ (* A[1] B[1]) (* A[0] B[0]) 0)\n"
            "  => [ac-normalize at 1] (+ (* A[1] B[1]) (* B[0] A[0]) 0)\n"
            "  => [ac-normalize at 0] (+ (* B[1] A[1]) (* B[0] A[0]) 0)\n"
            "  => [ac-normalize at root] (+ (* B[1] A[1]) (+ (* B[0] A[0]) 0))\n");
}

// The lines between the markers in `text`, with the common indentation removed.
std::vector<std::string> marked_block(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("[docs-example-end]") != std::string::npos)
      break;
    if (inside)
      lines.push_back(line);
    if (line.find("[docs-example-begin]") != std::string::npos)
      inside = true;
  }
  std::size_t indent = std::string::npos;
  for (const auto& l : lines)
    if (!l.empty())
      indent = std::min(indent, l.find_first_not_of(' '));
  for (auto& l : lines)
    l = l.empty() ? l : l.substr(indent);
  return lines;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(DocsExample, DocumentationHoldsThisCode) {
  // By the source tree, not __FILE__: ccache's base_dir makes __FILE__ relative to the build.
  const auto test_code = marked_block(
      read_file(std::string(VOLTA_SOURCE_DIR) + "/tests/egraph/docs_example_test.cpp"));
  const auto doc_code = marked_block(read_file(std::string(VOLTA_SOURCE_DIR) + "/docs/egraph.md"));
  ASSERT_GT(test_code.size(), 10u);
  EXPECT_EQ(doc_code, test_code) << "docs/egraph.md's worked example must be a copy of "
                                    "tests/egraph/docs_example_test.cpp (between the markers)";
}

} // namespace
} // namespace volta::egraph
