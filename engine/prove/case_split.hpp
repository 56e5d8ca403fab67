// Proof by cases on the comparisons that selects depend on (docs/semantics.md, "Branches on
// data"). A branch on data merged with select (engine/exec/exec_branch_merge.cpp) leaves values
// such as select(x > m, sum·e^(m-x), sum) that no canonical form relates to the fmaxf form
// sum·e^(m - max(m, x)). Splitting on x > m decides both: in the case x > m the select takes
// its first arm and max(m, x) is x; otherwise the second arm, and max(m, x) is m.
//
// The split is a decision tree: the innermost undecided select condition is assumed true, then
// false; each assumption rewrites both values (selects on decided conditions take their arm,
// max/min of operands whose order a case fact gives take that operand, comparisons the signs
// decide fold), and the leaves, with no select left to split on, are compared by `equal`. The
// values are equal when every leaf is. Sound whatever the cases: every input falls in some
// leaf, where the rewritten values are the originals' (an infeasible leaf only costs a proof).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/symbolic/expr_store.hpp"

namespace volta::prove {

// What the local cases (see prove_by_cases) found for a subterm, kept across the elements of one
// pair: a row sum that every output element of a softmax divides by is split once. Keyed by
// node of the store the split rewrites into; the value is the subterm's case-free value, or
// kNoExpr where its two cases differ.
using LocalCaseCache = std::unordered_map<symbolic::ExprId, symbolic::ExprId>;

struct CaseSplitLimits {
  size_t max_depth = 12;      // nested splits
  size_t max_leaves = 512;    // leaves compared
  size_t max_nodes = 200'000; // rewritten nodes, all leaves together
  // Set from outside (the entry's time limit, SIGTERM): the split stops at the next case or
  // rewritten node, not equal, reason "cancelled".
  const std::atomic<bool>* cancel = nullptr;
  // Where local cases are remembered (null: not remembered). Must belong to the store given.
  LocalCaseCache* local_cache = nullptr;
  // Is a case outside the reference's domain (its comparisons, with their truth, contradict an
  // assumption of the reference that holds everywhere: SpecificationDomain::excludes)? No input
  // the contract speaks of falls in it, so it is not compared. Null: every case is.
  std::function<bool(const std::vector<std::pair<symbolic::ExprId, bool>>&)> outside_domain;
};

struct CaseSplitResult {
  bool equal = false;
  size_t leaves = 0;         // cases compared
  size_t outside_domain = 0; // cases not compared: CaseSplitLimits::outside_domain excluded them
  std::string reason;        // not equal: why (a leaf that differs, a limit)
};

// Does the DAG below `root` hold a select whose condition the signs do not decide?
bool has_undecided_select(const symbolic::ExprStore& store, symbolic::ExprId root);

CaseSplitResult prove_by_cases(symbolic::ExprStore& store, symbolic::ExprId ref,
                               symbolic::ExprId opt,
                               const std::function<bool(symbolic::ExprId, symbolic::ExprId)>& equal,
                               const CaseSplitLimits& limits = {});

} // namespace volta::prove
