// `volta-eg explain` in words a person can follow: one step of an e-graph rewrite chain (what
// was rewritten into what, why, and where inside the value), and the element's two values when
// they are too long to print whole (where they part, rather than two identical cut-off lines).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "egraph/explain.hpp"

namespace volta::prove {

// Step `number` (from 1) of a chain; `before` is the whole term the step starts from. Two or
// three lines: the step, what it rewrote (`before` part => `after` part), and where that part
// lies in the value unless it is the whole value.
std::string describe_rewrite_step(size_t number, const egraph::ExplanationStep& step,
                                  const egraph::TreeTerm& before, const egraph::Language& lang);

// Where a subterm lies: "the whole value", or the operators from the root down with the operand
// taken at each ("+ operand 32 of 33 > * operand 2 of 2"), long paths elided in the middle.
std::string describe_term_path(const egraph::TreeTerm& root, const egraph::TermPath& path,
                               const egraph::Language& lang);

// The lines that show the reference and optimized values, `width` characters each at most: both
// whole when they fit; otherwise each cut, and where the printed texts first differ (with the
// text around that point), or that they print the same (different DAG nodes, the same tree).
std::vector<std::string> describe_value_pair(const std::string& reference,
                                             const std::string& optimized, size_t width);

} // namespace volta::prove
