#include "engine/prove/case_split.hpp"

#include <fmt/format.h>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/post_order.hpp"
#include "engine/symbolic/sign_analysis.hpp"
#include "support/invariant.hpp"

namespace volta::prove {

using symbolic::CmpKind;
using symbolic::ExprId;
using symbolic::Node;
using symbolic::Op;

namespace {

// What the cases assumed so far say: comparison nodes with their truth, and the order facts
// they give (u >= v).
struct Facts {
  std::vector<std::pair<ExprId, bool>> atoms;
  std::set<std::pair<ExprId, ExprId>> at_least; // (u, v): u >= v

  void assume(const symbolic::ExprStore& store, ExprId cmp, bool truth) {
    atoms.emplace_back(cmp, truth);
    const Node& n = store.node(cmp);
    auto k = static_cast<CmpKind>(n.aux & 7);
    if (!truth) // not (a k b) is a k' b
      k = symbolic::negated(k);
    switch (k) {
    case CmpKind::Eq:
      at_least.emplace(n.a, n.b);
      at_least.emplace(n.b, n.a);
      break;
    case CmpKind::Gt:
    case CmpKind::Ge:
      at_least.emplace(n.a, n.b);
      break;
    case CmpKind::Lt:
    case CmpKind::Le:
      at_least.emplace(n.b, n.a);
      break;
    case CmpKind::Ne:
      break;
    }
  }
  std::optional<bool> truth_of(ExprId cmp) const {
    for (const auto& [c, t] : atoms) {
      if (c == cmp)
        return t;
    }
    return std::nullopt;
  }
};

class Splitter {
public:
  Splitter(symbolic::ExprStore& store, const std::function<bool(ExprId, ExprId)>& equal,
           const CaseSplitLimits& limits)
      : store_(store), b_(store), signs_(store), equal_(equal), limits_(limits) {}

  CaseSplitResult run(ExprId ref, ExprId opt) {
    CaseSplitResult out;
    // Selects that are max or min of their operands become max and min, and each subterm that
    // depends on one comparison alone is decided by its own two cases first: a sum of 64
    // per-thread terms, each a select on its own comparison, is 64 small splits, not 2^64
    // leaves.
    std::unordered_map<ExprId, ExprId> memo;
    ref = rewrite(ref, Facts{}, memo);
    opt = rewrite(opt, Facts{}, memo);
    if (ref == 0 || opt == 0) {
      out.reason = reason_;
      return out;
    }
    if (!localize(ref, opt)) {
      out.reason = reason_;
      return out;
    }
    out.equal = split(ref, opt, Facts{}, 0);
    out.leaves = leaves_;
    out.outside_domain = outside_domain_;
    out.reason = reason_;
    return out;
  }

private:
  bool cancelled() {
    if (limits_.cancel == nullptr || !limits_.cancel->load(std::memory_order_relaxed))
      return false;
    reason_ = "cancelled";
    return true;
  }

  bool split(ExprId ref, ExprId opt, const Facts& facts, size_t depth) {
    if (cancelled())
      return false;
    std::unordered_map<ExprId, ExprId> memo;
    const ExprId r = rewrite(ref, facts, memo), o = rewrite(opt, facts, memo);
    if (r == 0 || o == 0)
      return false;
    const ExprId atom = first_undecided(r, o);
    if (atom == 0) {
      if (++leaves_ > limits_.max_leaves) {
        reason_ = fmt::format("more than {} cases", limits_.max_leaves);
        return false;
      }
      if (r == o || (!cancelled() && equal_(r, o)))
        return true;
      if (reason_ == "cancelled")
        return false;
      if (reason_.empty())
        reason_ = fmt::format("the values differ in case {}", describe(facts));
      return false;
    }
    if (depth >= limits_.max_depth) {
      reason_ = fmt::format("more than {} nested cases", limits_.max_depth);
      return false;
    }
    for (bool truth : {true, false}) {
      Facts f = facts;
      f.assume(store_, atom, truth);
      if (limits_.outside_domain && limits_.outside_domain(f.atoms)) {
        ++outside_domain_; // no input where the reference is defined falls in this case
        continue;
      }
      if (!split(r, o, f, depth + 1))
        return false;
    }
    return true;
  }

  // select(p < q, q, p) is max(p, q), select(p < q, p, q) is min(p, q) (and so for <=, >, >=):
  // the two agree where p = q, and where p and q are numbers the comparison's unordered flag
  // does not matter (a NaN made by an operation is a domain condition, not a value: only the
  // float view of integer bits may be one, and the signs say so). 0 when it is no such select.
  ExprId extremum(ExprId cond, ExprId x, ExprId y) {
    const Node& n = store_.node(cond);
    if (n.op != Op::Cmp)
      return 0;
    const auto k = static_cast<CmpKind>(n.aux & 7);
    if (k == CmpKind::Eq || k == CmpKind::Ne)
      return 0;
    const bool same = x == n.a && y == n.b, swapped = x == n.b && y == n.a;
    if (!same && !swapped)
      return 0;
    if ((signs_.signs(n.a) | signs_.signs(n.b)) & symbolic::kSignNaN)
      return 0;
    // "p greater" picks the larger operand on true: p > q / p >= q with (p, q), p < q / p <= q
    // with (q, p).
    const bool greater = k == CmpKind::Gt || k == CmpKind::Ge;
    const bool picks_larger = greater == same;
    return picks_larger ? b_.max(n.a, n.b) : b_.min(n.a, n.b);
  }

  // The comparisons in the conditions of the undecided selects below each node: none (0), one
  // (its id), or several (kSeveral).
  static constexpr ExprId kSeveral = ~ExprId{0};
  static ExprId join(ExprId x, ExprId y) {
    if (x == 0 || x == y)
      return y;
    return y == 0 ? x : kSeveral;
  }
  ExprId condition_atoms(ExprId cond) {
    const Node& n = store_.node(cond);
    if (n.op == Op::Cmp)
      return cond;
    if (n.op == Op::Not)
      return condition_atoms(n.a);
    if (n.op == Op::And || n.op == Op::Or || n.op == Op::Xor)
      return join(condition_atoms(n.a), condition_atoms(n.b));
    return kSeveral; // a condition of another form: never split locally
  }

  // Local cases (see run): every largest subterm of `ref` or `opt` whose undecided selects all
  // depend on one comparison c is replaced by its value in the case c, when its values in the
  // two cases are equal. Sound: on every input one of the cases holds, and there the subterm
  // is its value in that case, which equals the value in the other. Rewrites `ref` and `opt`;
  // false when a limit stopped it (reason_ says which).
  bool localize(ExprId& ref, ExprId& opt) {
    std::unordered_map<ExprId, ExprId> atoms; // node -> 0, one comparison, kSeveral
    std::vector<ExprId> order;                // post order
    const auto inner = [](const Node& n) {
      return n.op != Op::BitOp && symbolic::child_count(n.op) > 0;
    };
    for (ExprId root : {ref, opt}) {
      symbolic::post_order(
          store_, root, [&](ExprId id) { return atoms.count(id) != 0; },
          [&](ExprId, const Node& n) { return inner(n); },
          [&](ExprId id) {
            const Node& n = store_.node(id);
            ExprId at = 0;
            if (inner(n)) {
              const ExprId kids[3] = {n.a, n.b, n.c};
              for (int i = 0; i < symbolic::child_count(n.op); ++i) {
                if (kids[i] != symbolic::kNoExpr)
                  at = join(at, atoms.at(kids[i]));
              }
              if (n.op == Op::Select && !signs_.decide(n.a))
                at = join(at, condition_atoms(n.a));
            }
            atoms.emplace(id, at);
            order.push_back(id);
          });
    }
    // The largest one-comparison subterms: roots, and children of a node with several.
    std::vector<ExprId> candidates;
    std::unordered_map<ExprId, bool> chosen;
    auto consider = [&](ExprId id) {
      const ExprId at = atoms.at(id);
      if (at != 0 && at != kSeveral && chosen.emplace(id, true).second)
        candidates.push_back(id);
    };
    for (ExprId id : order) {
      const Node& n = store_.node(id);
      if (!inner(n) || atoms.at(id) != kSeveral)
        continue;
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i) {
        // (A select's condition is no value to replace: only its arms.)
        if (kids[i] != symbolic::kNoExpr && !(n.op == Op::Select && i == 0))
          consider(kids[i]);
      }
    }
    if (candidates.empty())
      return true;
    std::unordered_map<ExprId, ExprId> replaced;
    for (ExprId id : candidates) {
      if (cancelled())
        return false;
      if (limits_.local_cache != nullptr) {
        if (auto it = limits_.local_cache->find(id); it != limits_.local_cache->end()) {
          if (it->second != symbolic::kNoExpr)
            replaced.emplace(id, it->second);
          continue;
        }
      }
      const ExprId c = atoms.at(id);
      ExprId value[2] = {0, 0};
      for (bool truth : {true, false}) {
        Facts f;
        f.assume(store_, c, truth);
        std::unordered_map<ExprId, ExprId> memo;
        keep_chains_ = true;
        value[truth ? 0 : 1] = rewrite(id, f, memo);
        keep_chains_ = false;
        if (value[truth ? 0 : 1] == 0)
          return false;
      }
      const bool same = value[0] == value[1] || equal_(value[0], value[1]);
      if (reason_ == "cancelled")
        return false; // (an answer cut short is not remembered)
      if (same)
        replaced.emplace(id, value[0]);
      if (limits_.local_cache != nullptr)
        limits_.local_cache->emplace(id, same ? value[0] : symbolic::kNoExpr);
    }
    if (replaced.empty())
      return true;
    // Rebuild both values with the replacements.
    std::unordered_map<ExprId, ExprId> memo = replaced;
    for (ExprId* root : {&ref, &opt}) {
      symbolic::post_order(
          store_, *root, [&](ExprId id) { return memo.count(id) != 0; },
          [&](ExprId, const Node& n) { return inner(n); },
          [&](ExprId id) {
            const Node& n = store_.node(id);
            memo.emplace(id, inner(n) ? rebuild(id, n, Facts{}, memo) : id);
          });
      *root = memo.at(*root);
    }
    return true;
  }

  std::string describe(const Facts& facts) const {
    std::string s;
    for (const auto& [c, t] : facts.atoms)
      s += fmt::format("{}{}#{}", s.empty() ? "" : ", ", t ? "" : "not ", c);
    return s.empty() ? "(no case)" : s;
  }

  // The first comparison (post-order: innermost first) that a select depends on and that is
  // not decided.
  ExprId first_undecided(ExprId r, ExprId o) {
    std::unordered_map<ExprId, bool> seen;
    for (ExprId root : {r, o}) {
      std::vector<std::pair<ExprId, bool>> stack{{root, false}};
      while (!stack.empty()) {
        auto [id, expanded] = stack.back();
        stack.pop_back();
        const Node& n = store_.node(id);
        if (!expanded) {
          if (!seen.emplace(id, true).second)
            continue;
          stack.emplace_back(id, true);
          const ExprId kids[3] = {n.a, n.b, n.c};
          for (int i = symbolic::child_count(n.op) - 1; i >= 0; --i) {
            if (kids[i] != symbolic::kNoExpr && n.op != Op::BitOp)
              stack.emplace_back(kids[i], false);
          }
          continue;
        }
        if (n.op == Op::Select) {
          if (ExprId c = comparison_in(n.a))
            return c;
        }
      }
    }
    return 0;
  }
  // A comparison of reals inside a condition (through not / and / or).
  ExprId comparison_in(ExprId cond) {
    const Node& n = store_.node(cond);
    switch (n.op) {
    case Op::Cmp:
      return cond;
    case Op::Not:
      return comparison_in(n.a);
    case Op::And:
    case Op::Or:
    case Op::Xor:
      if (ExprId c = comparison_in(n.a))
        return c;
      return comparison_in(n.b);
      // leaves
    case Op::Const:
    case Op::Input:
    case Op::Param:
    case Op::Undef:
    case Op::PosInf:
    case Op::NegInf:
    case Op::RawBits:
    case Op::Ln2:
    // arithmetic over the reals
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Fma:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
    case Op::Rcp:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Exp:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh:
    case Op::Narrow:
    // predicates and selects over symbolic values
    case Op::Select:
    // bit-level views of symbolic values
    case Op::Pack:
    case Op::Extract:
    case Op::BitOp:
    case Op::AtomicResult:
    // integer data
    case Op::IAdd:
    case Op::IMul:
    case Op::INeg:
    case Op::ICmp:
    // conversions between the types, each its own operator
    case Op::IntToReal:
    case Op::RealToInt:
    case Op::RoundReal:
    case Op::FloatBits:
    case Op::BitsFloat:
    case Op::Fresh:
      return 0;
    }
    symbolic::unknown_op(n.op); // a value outside ops.def
  }

  // The value under the facts, rebuilt bottom-up (0 when over the node budget).
  ExprId rewrite(ExprId root, const Facts& facts, std::unordered_map<ExprId, ExprId>& memo) {
    const auto inner = [](const Node& n) {
      return n.op != Op::BitOp && symbolic::child_count(n.op) > 0;
    };
    bool over_budget = false; // ends the walk: every node counts as done
    shape_memo_.clear();
    symbolic::post_order(
        store_, root, [&](ExprId id) { return over_budget || memo.count(id) != 0; },
        [&](ExprId, const Node& n) { return inner(n); },
        [&](ExprId id) {
          if (++rewritten_ > limits_.max_nodes) {
            reason_ = fmt::format("more than {} rewritten nodes", limits_.max_nodes);
            over_budget = true;
            return;
          }
          if ((rewritten_ & 1023) == 0 && cancelled()) {
            over_budget = true;
            return;
          }
          const Node& n = store_.node(id);
          memo.emplace(id, inner(n) ? rebuild(id, n, facts, memo) : id);
        });
    return over_budget ? 0 : memo.at(root);
  }

  // A max (min) under the facts. The node is the top of a chain of max (min) nodes, whose
  // operands are the chain's leaves. A leaf that the facts put at most (at least) another leaf
  // still in the chain is dropped, one after the other (so that of two leaves the facts call
  // equal one stays); the chain is what remains. In a local case (keep_chains_) a chain that
  // does not come down to one leaf keeps its shape, whatever the facts say about two of its
  // leaves: max(max(a, b), c) with a <= b known stays max(max(a, b), c), not max(b, c), so that
  // a shared max that one case cannot decide is the same node in both cases (an online
  // softmax's row maximum, beside a per-thread max(a, b) that the case decides).
  ExprId extremum_under(ExprId id, Op op, const Facts& facts,
                        const std::unordered_map<ExprId, ExprId>& memo) {
    constexpr size_t kMaxLeaves = 512; // larger chains keep their shape (the walk is quadratic)
    std::vector<ExprId> leaves, stack{id};
    while (!stack.empty() && leaves.size() <= kMaxLeaves) {
      const ExprId x = stack.back();
      stack.pop_back();
      const Node& n = store_.node(x);
      if (n.op == op) {
        stack.push_back(n.b);
        stack.push_back(n.a);
      } else {
        leaves.push_back(memo.at(x));
      }
    }
    if (leaves.size() > kMaxLeaves)
      return same_shape(id, op, memo);
    const auto above = [&](ExprId g, ExprId y) { // g is at least (max) / at most (min) y
      return op == Op::Max ? facts.at_least.count({g, y}) != 0 : facts.at_least.count({y, g}) != 0;
    };
    std::vector<bool> dropped(leaves.size(), false);
    size_t kept = leaves.size();
    for (size_t i = 0; i < leaves.size(); ++i) {
      for (size_t j = 0; j < leaves.size(); ++j) {
        if (j != i && !dropped[j] && (leaves[j] == leaves[i] || above(leaves[j], leaves[i]))) {
          dropped[i] = true;
          --kept;
          break;
        }
      }
    }
    VOLTA_ASSERT(kept >= 1, "a leaf is dropped only for a leaf that stays");
    if (kept == leaves.size() || (kept > 1 && keep_chains_))
      return same_shape(id, op, memo);
    ExprId out = symbolic::kNoExpr;
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (!dropped[i])
        out = out == symbolic::kNoExpr
                  ? leaves[i]
                  : (op == Op::Max ? b_.max(out, leaves[i]) : b_.min(out, leaves[i]));
    }
    return out;
  }
  // The chain below `id` rebuilt with its leaves rewritten and its max (min) nodes kept.
  ExprId same_shape(ExprId id, Op op, const std::unordered_map<ExprId, ExprId>& memo) {
    const Node& n = store_.node(id);
    if (n.op != op)
      return memo.at(id);
    if (auto it = shape_memo_.find(id); it != shape_memo_.end())
      return it->second;
    const ExprId a = same_shape(n.a, op, memo), b = same_shape(n.b, op, memo);
    const ExprId out = op == Op::Max ? b_.max(a, b) : b_.min(a, b);
    shape_memo_.emplace(id, out);
    return out;
  }

  ExprId rebuild(ExprId id, const Node& n, const Facts& facts,
                 const std::unordered_map<ExprId, ExprId>& memo) {
    auto m = [&](ExprId k) { return k == symbolic::kNoExpr ? k : memo.at(k); };
    const ExprId a = m(n.a), b = symbolic::child_count(n.op) > 1 ? m(n.b) : n.b,
                 c = symbolic::child_count(n.op) > 2 ? m(n.c) : n.c;
    auto constant = [&](bool v) { return store_.constant(v ? 1 : 0); };
    switch (n.op) {
    case Op::Cmp: {
      const ExprId cmp =
          (a == n.a && b == n.b) ? id : b_.cmp(static_cast<CmpKind>(n.aux & 7), a, b);
      if (auto t = facts.truth_of(cmp))
        return constant(*t);
      if (auto t = signs_.decide(cmp))
        return constant(*t);
      return cmp;
    }
    case Op::Not:
      if (store_.op(a) == Op::Const)
        return constant(store_.rational(a) == 0);
      return b_.bool_not(a);
    case Op::And:
    case Op::Or: {
      const bool is_and = n.op == Op::And;
      for (ExprId x : {a, b}) {
        if (store_.op(x) == Op::Const && (store_.rational(x) != 0) != is_and)
          return constant(!is_and);
      }
      if (store_.op(a) == Op::Const)
        return b;
      if (store_.op(b) == Op::Const)
        return a;
      return b_.boolean(n.op, a, b);
    }
    case Op::Select:
      if (store_.op(a) == Op::Const)
        return store_.rational(a) != 0 ? b : c;
      if (const ExprId e = extremum(a, b, c))
        return e;
      return b_.select(a, b, c);
    case Op::Max:
    case Op::Min:
      if (facts.at_least.empty())
        return n.op == Op::Max ? b_.max(a, b) : b_.min(a, b);
      return extremum_under(id, n.op, facts, memo);
    case Op::Add:
      return b_.add(a, b);
    case Op::Sub:
      return b_.sub(a, b);
    case Op::Mul:
      return b_.mul(a, b);
    case Op::Div:
      return b_.div(a, b);
    case Op::Fma:
      return b_.fma(a, b, c);
    case Op::Neg:
      return b_.neg(a);
    case Op::Exp:
    case Op::Ex2:
    case Op::Rcp:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh:
      return b_.unary(n.op, a);
      // leaves
    case Op::Const:
    case Op::Input:
    case Op::Param:
    case Op::Undef:
    case Op::PosInf:
    case Op::NegInf:
    case Op::RawBits:
    case Op::Ln2:
    // arithmetic over the reals
    case Op::Abs:
    case Op::Narrow:
    // predicates and selects over symbolic values
    case Op::Xor:
    // bit-level views of symbolic values
    case Op::Pack:
    case Op::Extract:
    case Op::BitOp:
    case Op::AtomicResult:
    // integer data
    case Op::IAdd:
    case Op::IMul:
    case Op::INeg:
    case Op::ICmp:
    // conversions between the types, each its own operator
    case Op::IntToReal:
    case Op::RealToInt:
    case Op::RoundReal:
    case Op::FloatBits:
    case Op::BitsFloat:
    case Op::Fresh:
      if (a == n.a && b == n.b && c == n.c)
        return id;
      return store_.intern(Node{n.op, n.aux, 0, a, b, c});
    }
    symbolic::unknown_op(n.op); // a value outside ops.def
  }

  symbolic::ExprStore& store_;
  symbolic::Builder b_;
  symbolic::SignAnalysis signs_;
  const std::function<bool(ExprId, ExprId)>& equal_;
  CaseSplitLimits limits_;
  // same_shape's results in the current rewrite (its facts decide the leaves): cleared by each.
  std::unordered_map<ExprId, ExprId> shape_memo_;
  bool keep_chains_ = false; // a local case's rewrite (extremum_under)
  size_t leaves_ = 0;
  size_t outside_domain_ = 0;
  size_t rewritten_ = 0;
  std::string reason_;
};

} // namespace

bool has_undecided_select(const symbolic::ExprStore& store, ExprId root) {
  symbolic::SignAnalysis signs(store);
  std::unordered_map<ExprId, bool> seen;
  std::vector<ExprId> stack{root};
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    if (!seen.emplace(id, true).second)
      continue;
    const Node& n = store.node(id);
    if (n.op == Op::Select && !signs.decide(n.a))
      return true;
    if (n.op == Op::BitOp)
      continue;
    const ExprId kids[3] = {n.a, n.b, n.c};
    for (int i = 0; i < symbolic::child_count(n.op); ++i) {
      if (kids[i] != symbolic::kNoExpr)
        stack.push_back(kids[i]);
    }
  }
  return false;
}

CaseSplitResult prove_by_cases(symbolic::ExprStore& store, ExprId ref, ExprId opt,
                               const std::function<bool(ExprId, ExprId)>& equal,
                               const CaseSplitLimits& limits) {
  return Splitter(store, equal, limits).run(ref, opt);
}

} // namespace volta::prove
