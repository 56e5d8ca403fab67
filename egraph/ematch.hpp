#pragma once
// E-matching: finding every substitution under which a pattern is represented in an e-class.
// A backtracking matcher over the compiled pattern (continuation passing, no intermediate
// substitution lists); AC nodes are matched as multisets (docs/egraph.md, "Matching n-ary AC
// nodes"). Searching is read-only: on a rebuilt e-graph whose operator index is built
// (EGraph::build_op_index) any number of searches may run concurrently.

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "egraph/id.hpp"
#include "egraph/pattern.hpp"
#include "egraph/subst.hpp"

namespace volta::egraph {

class EGraph;

// The matches of one pattern: match i was found in class roots[i] and its substitution record is
// substs[i*stride, (i+1)*stride).
struct Matches {
  std::uint32_t stride = 0;
  std::vector<Id> roots;
  std::vector<Id> substs;

  std::size_t size() const { return roots.size(); }
  bool empty() const { return roots.empty(); }
  std::span<const Id> record(std::size_t i) const { return {substs.data() + i * stride, stride}; }
  Subst subst(const EGraph& g, const VarTable& vars, std::size_t i) const {
    return Subst(g, vars, record(i));
  }
  void clear() {
    roots.clear();
    substs.clear();
  }
  void append(const Matches& other);
};

struct SearchOptions {
  // Stop after this many matches (the scheduler passes its threshold + 1).
  std::size_t match_limit = std::numeric_limits<std::size_t>::max();
  // Per AC node visit: give up enumerating child assignments after this many attempts (a guard
  // against (+ ?a ?b ?c ?r...) over a 4096-term sum). Counted in SearchStats::ac_truncated.
  std::size_t ac_attempt_limit = std::size_t{1} << 16;
};

struct SearchStats {
  std::size_t ac_truncated = 0; // AC node visits cut short by ac_attempt_limit
  bool hit_match_limit = false;
};

// Matches `p` in the given classes (canonical ids), appending to `out` in class order.
void search_classes(const EGraph& g, const Pattern& p, std::span<const Id> classes, Matches& out,
                    const SearchOptions& opts = {}, SearchStats* stats = nullptr);
// The classes worth trying for `p`: those holding its root operator.
std::span<const Id> candidate_classes(const EGraph& g, const Pattern& p);
// Matches `p` everywhere.
Matches search(const EGraph& g, const Pattern& p, const SearchOptions& opts = {},
               SearchStats* stats = nullptr);

} // namespace volta::egraph
