#pragma once
// Rewrite rules: a left-hand-side pattern, an optional condition, and either a right-hand-side
// pattern or a C++ applier. Appliers compute (constant folding, normal forms); they are plain
// callables, and ApplierRegistry names them so that rule files can refer to them.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "egraph/ematch.hpp"
#include "egraph/pattern.hpp"
#include "egraph/subst.hpp"

namespace volta::egraph {

class EGraph;

// Decides whether a match may be applied (e.g. "?a is not zero" via an analysis).
using Condition = std::function<bool(const EGraph& g, Id root, const Subst& s)>;
// Computes the class to merge with the matched class `root` (nullopt: nothing to do). May add
// nodes; should not merge classes itself (the runner merges the result, so that explanations
// record the rule).
using ApplierFn = std::function<std::optional<Id>(EGraph& g, Id root, const Subst& s)>;

struct Rewrite {
  std::string name;
  Pattern lhs;
  std::optional<Pattern> rhs; // a pattern rule
  ApplierFn applier;          // a C++ rule (when rhs is empty)
  std::string applier_name;   // its ApplierRegistry name, if it came from one
  Condition condition;        // optional

  // Throw std::invalid_argument with a located message on a bad pattern.
  static Rewrite parse(Language& lang, std::string name, std::string_view lhs, std::string_view rhs,
                       Condition condition = {});
  static Rewrite with_applier(Language& lang, std::string name, std::string_view lhs,
                              ApplierFn applier, Condition condition = {});
  // Two rules, `name` (lhs => rhs) and `name-rev` (rhs => lhs); the reverse requires rhs to bind
  // every variable (and to be a valid left-hand side).
  static std::vector<Rewrite> parse_bidirectional(Language& lang, std::string name,
                                                  std::string_view lhs, std::string_view rhs);
};

// Adds rhs instantiated under `s`, flattening at the pattern level: a same-operator AC child and
// a rest variable under an AC node of its operator are spliced in. A rest variable elsewhere
// becomes the node (op rest...) of its own operator.
Id instantiate(EGraph& g, const Pattern& rhs, const Subst& s);
// Adds the left-hand side exactly as matched (no flattening; rest elements at the rest
// variable's position). Used for explanations: its term is what the rule's lhs matched.
Id instantiate_exact(EGraph& g, const Pattern& lhs, const Subst& s);

} // namespace volta::egraph
