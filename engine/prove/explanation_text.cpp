#include "engine/prove/explanation_text.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "egraph/sexpr.hpp"

namespace volta::prove {

namespace {

constexpr size_t kPartWidth = 160; // characters of a rewritten part shown on a step's line

std::string clip(std::string s, size_t n) {
  if (s.size() > n)
    s = s.substr(0, n) + " ...";
  return s;
}

// Why the step holds, in words; `forward` matters only for directed rules.
std::string step_reason(const egraph::ExplanationStep& step) {
  if (step.rule == "canonical-form")
    return "canonical form: both parts expand to the same normalized expression (terms "
           "collected, constants and exponentials combined)";
  if (step.rule == "ac-normalize")
    return "reordering: the operands of +, *, max or min regrouped or put in another order";
  if (step.rule == "constant-fold")
    return "arithmetic on constants";
  return step.forward ? fmt::format("rule {}", step.rule)
                      : fmt::format("rule {}, applied from its right side to its left", step.rule);
}

std::string operand_text(const egraph::TreeTerm& parent, uint32_t index,
                         const egraph::Language& lang) {
  return fmt::format("{} operand {} of {}", lang.op(parent.op).name, index + 1,
                     parent.children.size());
}

} // namespace

std::string describe_term_path(const egraph::TreeTerm& root, const egraph::TermPath& path,
                               const egraph::Language& lang) {
  if (path.empty())
    return "the whole value";
  std::vector<std::string> levels;
  const egraph::TreeTerm* at = &root;
  for (uint32_t k : path) {
    if (k >= at->children.size())
      break; // a path the step did not take from this term: say what is known
    levels.push_back(operand_text(*at, k, lang));
    at = &at->children[k];
  }
  constexpr size_t kShown = 3; // levels shown at each end of a long path
  std::string out;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (levels.size() > 2 * kShown && i == kShown) {
      out += fmt::format(" > ({} levels) ", levels.size() - 2 * kShown);
      i = levels.size() - kShown - 1;
      continue;
    }
    out += (out.empty() || out.back() == ' ' ? "" : " > ") + levels[i];
  }
  return out;
}

std::string describe_rewrite_step(size_t number, const egraph::ExplanationStep& step,
                                  const egraph::TreeTerm& before, const egraph::Language& lang) {
  std::string from, to;
  try {
    from = egraph::to_sexpr(egraph::subterm(before, step.path), lang);
    to = egraph::to_sexpr(egraph::subterm(step.term, step.path), lang);
  } catch (const std::out_of_range&) {
    from = egraph::to_sexpr(before, lang);
    to = egraph::to_sexpr(step.term, lang);
  }
  const std::string indent(6, ' ');
  std::string out = fmt::format("{:>3}. {}\n{}{}  =>  {}", number, step_reason(step), indent,
                                clip(from, kPartWidth), clip(to, kPartWidth));
  if (!step.path.empty())
    out += fmt::format("\n{}in {}", indent, describe_term_path(before, step.path, lang));
  return out;
}

std::vector<std::string> describe_value_pair(const std::string& reference,
                                             const std::string& optimized, size_t width) {
  const auto cut = [&](const std::string& s) { return clip(s, width); };
  std::vector<std::string> lines;
  if (reference.size() <= width && optimized.size() <= width) {
    lines.push_back("reference: " + reference);
    lines.push_back("optimized: " + optimized);
    return lines;
  }
  // A printed text longer than the printer's limit ends in "..." (symbolic::to_sexpr).
  const auto cut_short = [](const std::string& s) {
    return s.size() >= 3 && s.compare(s.size() - 3, 3, "...") == 0;
  };
  const size_t common =
      std::mismatch(reference.begin(), reference.end(), optimized.begin(), optimized.end()).first -
      reference.begin();
  if (reference == optimized) {
    lines.push_back("reference: " + cut(reference));
    lines.push_back(fmt::format("optimized: prints the same ({} characters{})", reference.size(),
                                cut_short(reference) ? ", as far as printed" : ""));
    return lines;
  }
  if (common < width / 2) {
    lines.push_back("reference: " + cut(reference));
    lines.push_back("optimized: " + cut(optimized));
    return lines;
  }
  const bool ran_out = cut_short(reference) && cut_short(optimized) &&
                       common + 3 >= std::min(reference.size(), optimized.size());
  lines.push_back("reference: " + cut(reference));
  if (ran_out) {
    lines.push_back(fmt::format("optimized: the same for the first {} characters printed (the "
                                "values differ further in)",
                                common));
    return lines;
  }
  lines.push_back(
      fmt::format("optimized: the same for the first {} characters, then they part:", common));
  // Start the excerpt at an operator boundary a little before the first difference.
  size_t start = common > 40 ? common - 40 : 0;
  if (const size_t open = reference.rfind('(', common); open != std::string::npos && open >= start)
    start = open;
  const auto excerpt = [&](const std::string& s) {
    return "..." + clip(s.substr(std::min(start, s.size())), width);
  };
  lines.push_back(fmt::format("  reference at character {}: {}", start + 1, excerpt(reference)));
  lines.push_back(fmt::format("  optimized at character {}: {}", start + 1, excerpt(optimized)));
  return lines;
}

} // namespace volta::prove
