#include "engine/prove/case_split.hpp"

#include <fmt/format.h>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/post_order.hpp"
#include "engine/symbolic/sign_analysis.hpp"

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
    if (!truth) { // not (a k b) is a k' b
      static constexpr CmpKind kNot[] = {CmpKind::Ne, CmpKind::Eq, CmpKind::Ge,
                                         CmpKind::Gt, CmpKind::Le, CmpKind::Lt};
      k = kNot[static_cast<int>(k)];
    }
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
    out.equal = split(ref, opt, Facts{}, 0);
    out.leaves = leaves_;
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
      if (!split(r, o, f, depth + 1))
        return false;
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
      return b_.select(a, b, c);
    case Op::Max:
    case Op::Min: {
      const bool is_max = n.op == Op::Max;
      if (facts.at_least.count({a, b}))
        return is_max ? a : b;
      if (facts.at_least.count({b, a}))
        return is_max ? b : a;
      return is_max ? b_.max(a, b) : b_.min(a, b);
    }
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
  size_t leaves_ = 0;
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
