#include "engine/prove/domain_conditions.hpp"

#include <fmt/format.h>
#include <random>
#include <unordered_map>
#include <unordered_set>

#include "engine/prove/input_views.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/printer.hpp"
#include "support/invariant.hpp"

namespace volta::prove {

using symbolic::CmpKind;
using symbolic::ExprId;
using symbolic::Node;
using symbolic::Op;

namespace {

constexpr size_t kMaxGuardDepth = 6;

bool is_integer_division(const Node& n) {
  const auto kind = static_cast<symbolic::BitOpKind>(n.aux & 31);
  return n.op == Op::BitOp &&
         (kind == symbolic::BitOpKind::Div || kind == symbolic::BitOpKind::Rem);
}

// Does `have` (an assumption's kind) imply `need`?
bool implies(uint8_t have, ConditionKind need) {
  auto has = [&](ConditionKind k) { return (have >> static_cast<int>(k) & 1) != 0; };
  switch (need) {
  case ConditionKind::NonZero:
    return has(ConditionKind::NonZero) || has(ConditionKind::Positive);
  case ConditionKind::NonNegative:
    return has(ConditionKind::NonNegative) || has(ConditionKind::Positive);
  case ConditionKind::Positive:
    return has(ConditionKind::Positive) ||
           (has(ConditionKind::NonZero) && has(ConditionKind::NonNegative));
  case ConditionKind::NoInfMinusInf:
  case ConditionKind::NoZeroTimesInf:
  case ConditionKind::NoInfOverInf:
    return has(need);
  }
  return false;
}

bool by_signs(symbolic::SignAnalysis& signs, ConditionKind kind, ExprId arg) {
  switch (kind) {
  case ConditionKind::NonZero:
    return signs.nonzero(arg);
  case ConditionKind::NonNegative:
    return signs.nonnegative(arg);
  case ConditionKind::Positive:
    return signs.positive(arg);
  case ConditionKind::NoInfMinusInf:
  case ConditionKind::NoZeroTimesInf:
  case ConditionKind::NoInfOverInf:
    return false; // noted only where the signs allow the combination
  }
  return false;
}

using symbolic::kSignNegInf;
using symbolic::kSignPosInf;
using symbolic::kSignZero;
constexpr symbolic::SignSet kSignInf = kSignNegInf | kSignPosInf;

// Can a sum of values with signs `a` and `b` add infinities of opposite signs?
bool may_add_opposite_infinities(symbolic::SignSet a, symbolic::SignSet b) {
  return ((a & kSignPosInf) && (b & kSignNegInf)) || ((a & kSignNegInf) && (b & kSignPosInf));
}
bool may_multiply_zero_by_infinity(symbolic::SignSet a, symbolic::SignSet b) {
  return ((a & kSignZero) && (b & kSignInf)) || ((a & kSignInf) && (b & kSignZero));
}
symbolic::SignSet negated_signs(symbolic::SignSet s) {
  symbolic::SignSet out = s & ~(kSignInf | symbolic::kSignNeg | symbolic::kSignPos);
  if (s & kSignPosInf)
    out |= kSignNegInf;
  if (s & kSignNegInf)
    out |= kSignPosInf;
  if (s & symbolic::kSignPos)
    out |= symbolic::kSignNeg;
  if (s & symbolic::kSignNeg)
    out |= symbolic::kSignPos;
  return out;
}
// The signs a product of `a` and `b` may have, for the sum an fma adds it to: infinite where a
// factor is, finite otherwise (the finite signs do not matter for inf - inf).
symbolic::SignSet product_signs(symbolic::SignSet a, symbolic::SignSet b) {
  symbolic::SignSet out = 0;
  const bool a_neg = a & (kSignNegInf | symbolic::kSignNeg),
             a_pos = a & (kSignPosInf | symbolic::kSignPos);
  const bool b_neg = b & (kSignNegInf | symbolic::kSignNeg),
             b_pos = b & (kSignPosInf | symbolic::kSignPos);
  if ((a & kSignInf) || (b & kSignInf)) {
    if ((a_pos && b_pos) || (a_neg && b_neg))
      out |= kSignPosInf;
    if ((a_pos && b_neg) || (a_neg && b_pos))
      out |= kSignNegInf;
  }
  return out | symbolic::kSignFinite;
}

// A comparison literal (`cond`, true when `polarity`) with a zero on one side, as `v k 0`; nullopt
// for any other literal. (The complement of a comparison is read over the reals: a caller whose
// operands may be a NaN must not take it.)
std::optional<std::pair<ExprId, CmpKind>> against_zero(const symbolic::ExprStore& store,
                                                       ExprId cond, bool polarity) {
  const Node& n = store.node(cond);
  if (n.op != Op::Cmp)
    return std::nullopt;
  auto is_zero = [&](ExprId id) { return store.op(id) == Op::Const && store.rational(id) == 0; };
  CmpKind k = static_cast<CmpKind>(n.aux & 7);
  if (!polarity)
    k = symbolic::negated(k);
  if (is_zero(n.b))
    return std::pair{n.a, k};
  if (is_zero(n.a))
    return std::pair{n.b, symbolic::mirrored(k)};
  return std::nullopt;
}

// Does the literal `cond` (true when `polarity`) state the condition about `arg` outright?
bool literal_implies(const symbolic::ExprStore& store, ExprId cond, bool polarity,
                     ConditionKind kind, ExprId arg, int depth = 0) {
  if (depth > 8)
    return false;
  const Node& n = store.node(cond);
  if (n.op == Op::Not)
    return literal_implies(store, n.a, !polarity, kind, arg, depth + 1);
  if ((n.op == Op::And && polarity) || (n.op == Op::Or && !polarity))
    return literal_implies(store, n.a, polarity, kind, arg, depth + 1) ||
           literal_implies(store, n.b, polarity, kind, arg, depth + 1);
  const auto fact = against_zero(store, cond, polarity);
  if (!fact || fact->first != arg)
    return false;
  const CmpKind k = fact->second;
  switch (kind) {
  case ConditionKind::NonZero:
    return k == CmpKind::Ne || k == CmpKind::Gt || k == CmpKind::Lt;
  case ConditionKind::NonNegative:
    return k == CmpKind::Gt || k == CmpKind::Ge;
  case ConditionKind::Positive:
    return k == CmpKind::Gt;
  case ConditionKind::NoInfMinusInf:
  case ConditionKind::NoZeroTimesInf:
  case ConditionKind::NoInfOverInf:
    return false; // about the operands of an operation, not a comparison with zero
  }
  return false;
}

std::string_view relation_text(ConditionKind kind) {
  switch (kind) {
  case ConditionKind::NonZero:
    return "!= 0";
  case ConditionKind::NonNegative:
    return ">= 0";
  case ConditionKind::Positive:
    return "> 0";
  case ConditionKind::NoInfMinusInf:
    return "not to add infinities of opposite signs";
  case ConditionKind::NoZeroTimesInf:
    return "not to multiply zero by an infinity";
  case ConditionKind::NoInfOverInf:
    return "not to divide an infinity by an infinity";
  }
  return "";
}

// "divides by zero", "takes the square root of a negative number", ...
std::string failure_words(const symbolic::ExprStore& store, ExprId site, ConditionKind kind) {
  switch (kind) {
  case ConditionKind::NoInfMinusInf:
    return "computes inf - inf (a NaN)";
  case ConditionKind::NoZeroTimesInf:
    return "computes 0 * inf (a NaN)";
  case ConditionKind::NoInfOverInf:
    return "computes inf / inf (a NaN)";
  default:
    break;
  }
  const Node& n = store.node(site);
  const std::string noun = symbolic::noun_of(n.op);
  switch (symbolic::domain_of(n.op)) {
  case symbolic::OpDomain::DivisorNonZero:
  case symbolic::OpDomain::NonZero:
    return "divides by zero";
  case symbolic::OpDomain::NonNegative:
    return fmt::format("takes the {} of a negative number", noun);
  case symbolic::OpDomain::Positive:
    return fmt::format("takes the {} of a number that is not positive", noun);
  case symbolic::OpDomain::IntegerDivision:
    return "divides an integer by zero";
  case symbolic::OpDomain::None:
    break;
  }
  return "leaves its domain";
}

std::string operation_words(const symbolic::ExprStore& store, ExprId site) {
  return symbolic::noun_of(store.op(site));
}

std::string where(const exec::KernelRun* run, ExprId site) {
  if (run == nullptr)
    return "";
  auto it = run->partial_sites.find(site);
  if (it == run->partial_sites.end() || it->second.ptx_line == 0)
    return "";
  const exec::PartialSite& s = it->second;
  if (s.cuda_file.empty())
    return fmt::format(" at PTX line {}", s.ptx_line);
  return fmt::format(" at PTX line {} ({}:{})", s.ptx_line, s.cuda_file, s.cuda_line);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Collection
// ---------------------------------------------------------------------------------------------

DomainConditions::DomainConditions(const symbolic::ExprStore& store, symbolic::SignAnalysis& signs)
    : store_(store), signs_(signs) {
  guards_.emplace_back(); // 0: no guard
}

uint32_t DomainConditions::extend(uint32_t guard, ExprId cond, bool polarity) {
  GuardSet g = guards_[guard];
  if (g.truncated || g.literals.size() >= kMaxGuardDepth) {
    g.truncated = true;
  } else {
    g.literals.emplace_back(cond, polarity);
    std::sort(g.literals.begin(), g.literals.end());
    g.literals.erase(std::unique(g.literals.begin(), g.literals.end()), g.literals.end());
  }
  auto key = g.literals;
  if (g.truncated)
    key.emplace_back(0, true); // truncated sets are kept apart from exact ones
  auto [it, inserted] = guard_index_.emplace(std::move(key), static_cast<uint32_t>(guards_.size()));
  if (inserted)
    guards_.push_back(std::move(g));
  return it->second;
}

void DomainConditions::note_infinite_operands(ExprId id, const Node& n, uint32_t guard,
                                              size_t root) {
  switch (symbolic::nan_of(n.op)) {
  case symbolic::OpNan::Sum:
    if (may_add_opposite_infinities(signs_.signs(n.a), signs_.signs(n.b)))
      note(ConditionKind::NoInfMinusInf, id, id, guard, root);
    break;
  case symbolic::OpNan::Difference:
    if (may_add_opposite_infinities(signs_.signs(n.a), negated_signs(signs_.signs(n.b))))
      note(ConditionKind::NoInfMinusInf, id, id, guard, root);
    break;
  case symbolic::OpNan::Product:
    if (may_multiply_zero_by_infinity(signs_.signs(n.a), signs_.signs(n.b)))
      note(ConditionKind::NoZeroTimesInf, id, id, guard, root);
    break;
  case symbolic::OpNan::FusedMultiplyAdd: {
    const symbolic::SignSet a = signs_.signs(n.a), b = signs_.signs(n.b);
    if (may_multiply_zero_by_infinity(a, b))
      note(ConditionKind::NoZeroTimesInf, id, id, guard, root);
    if (may_add_opposite_infinities(product_signs(a, b), signs_.signs(n.c)))
      note(ConditionKind::NoInfMinusInf, id, id, guard, root);
    break;
  }
  case symbolic::OpNan::Quotient:
    if ((signs_.signs(n.a) & kSignInf) && (signs_.signs(n.b) & kSignInf))
      note(ConditionKind::NoInfOverInf, id, id, guard, root);
    break;
  case symbolic::OpNan::None:
    break;
  }
}

std::optional<OperandCondition> operand_condition(const Node& n) {
  switch (symbolic::domain_of(n.op)) {
  case symbolic::OpDomain::DivisorNonZero:
    return OperandCondition{ConditionKind::NonZero, n.b};
  case symbolic::OpDomain::NonZero:
    return OperandCondition{ConditionKind::NonZero, n.a};
  case symbolic::OpDomain::NonNegative:
    return OperandCondition{ConditionKind::NonNegative, n.a};
  case symbolic::OpDomain::Positive:
    return OperandCondition{ConditionKind::Positive, n.a};
  case symbolic::OpDomain::IntegerDivision:
    if (is_integer_division(n))
      return OperandCondition{ConditionKind::NonZero, n.b};
    break;
  case symbolic::OpDomain::None:
    break;
  }
  return std::nullopt;
}

bool refuted_by_signs(symbolic::SignAnalysis& signs, ConditionKind kind, ExprId arg) {
  symbolic::SignSet failing = 0;
  switch (kind) {
  case ConditionKind::NonZero:
    failing = symbolic::kSignZero;
    break;
  case ConditionKind::NonNegative:
    failing = symbolic::kSignNeg | symbolic::kSignNegInf;
    break;
  case ConditionKind::Positive:
    failing = symbolic::kSignNeg | symbolic::kSignNegInf | symbolic::kSignZero;
    break;
  case ConditionKind::NoInfMinusInf:
  case ConditionKind::NoZeroTimesInf:
  case ConditionKind::NoInfOverInf:
    return false; // not looked at: no kernel that makes one on every input has come up
  }
  // An empty set says nothing about a value (no sign known): never refuted on it.
  const symbolic::SignSet s = signs.signs(arg);
  return s != 0 && (s & ~failing) == 0;
}

void DomainConditions::note(ConditionKind kind, ExprId arg, ExprId site, uint32_t guard,
                            size_t root) {
  if (noted_.emplace(static_cast<uint8_t>(kind), arg, guard).second)
    conditions_.push_back(DomainCondition{kind, arg, site, guard, root});
}

void DomainConditions::add_root(ExprId root, size_t root_index) {
  // Partial operations, and operations that may meet an infinity, are the only sources.
  constexpr uint16_t kSources = symbolic::kTaintPartial | symbolic::kTaintInfinity;
  if (root == symbolic::kNoExpr || !(store_.taint(root) & kSources))
    return;
  std::vector<std::pair<ExprId, uint32_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto [id, guard] = stack.back();
    stack.pop_back();
    if (id == symbolic::kNoExpr)
      continue;
    // A node already walked without a guard has given its strongest conditions.
    if (guard != 0 && visited_.count(uint64_t{id} << 32))
      continue;
    if (!visited_.insert(uint64_t{id} << 32 | guard).second)
      continue;
    const Node& n = store_.node(id);
    if (const auto c = operand_condition(n))
      note(c->kind, c->arg, id, guard, root_index);
    // A NaN made out of numbers where an operand may be infinite (IEEE 754 §7.2).
    if (store_.taint(id) & symbolic::kTaintInfinity)
      note_infinite_operands(id, n, guard, root_index);
    if (n.op == Op::Select) {
      // The condition is always evaluated; an arm matters only where it is chosen.
      if (!(n.a != symbolic::kNoExpr && (store_.taint(n.a) & kSources)) &&
          !(store_.taint(n.b) & kSources) && !(store_.taint(n.c) & kSources))
        continue;
      stack.emplace_back(n.a, guard);
      if (auto c = signs_.decide(n.a)) {
        stack.emplace_back(*c ? n.b : n.c, guard);
      } else {
        stack.emplace_back(n.b, extend(guard, n.a, true));
        stack.emplace_back(n.c, extend(guard, n.a, false));
      }
      continue;
    }
    const ExprId kids[3] = {n.a, n.b, n.c};
    for (int i = 0; i < symbolic::child_count(n.op); ++i) {
      // Below a node without a partial operation or an infinity there is no condition (and
      // selects below it have none in their arms either).
      if (kids[i] != symbolic::kNoExpr && (store_.taint(kids[i]) & kSources))
        stack.emplace_back(kids[i], guard);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Refinement
// ---------------------------------------------------------------------------------------------

namespace {

// Is the condition certainly violated / certainly satisfied at the evaluated value?
bool violated(ConditionKind kind, const symbolic::EvalValue& v) {
  if (v.kind == symbolic::EvalValue::Kind::Exact) {
    const int s = sgn(v.exact);
    return kind == ConditionKind::NonZero       ? s == 0
           : kind == ConditionKind::NonNegative ? s < 0
                                                : s <= 0;
  }
  if (v.kind == symbolic::EvalValue::Kind::Approx)
    return kind != ConditionKind::NonZero && v.approx.hi < 0;
  return v.kind == symbolic::EvalValue::Kind::NegInf && kind != ConditionKind::NonZero;
}
bool satisfied(ConditionKind kind, const symbolic::EvalValue& v) {
  if (v.kind == symbolic::EvalValue::Kind::Exact) {
    const int s = sgn(v.exact);
    return kind == ConditionKind::NonZero       ? s != 0
           : kind == ConditionKind::NonNegative ? s >= 0
                                                : s > 0;
  }
  if (v.kind == symbolic::EvalValue::Kind::Approx) {
    const symbolic::Interval i = v.approx;
    return kind == ConditionKind::NonZero
               ? (i.lo > 0 || i.hi < 0)
               : (kind == ConditionKind::NonNegative ? i.lo >= 0 : i.lo > 0);
  }
  return v.kind == symbolic::EvalValue::Kind::PosInf;
}
// Does `c` hold at the evaluated point: true certainly, false certainly violated, nullopt
// when the values do not tell.
std::optional<bool> holds_at(const symbolic::ExprStore& store, symbolic::Evaluator& ev,
                             const DomainCondition& c) {
  if (!about_operands(c.kind)) {
    const symbolic::EvalValue v = ev.eval(c.arg);
    if (violated(c.kind, v))
      return false;
    if (satisfied(c.kind, v))
      return true;
    return std::nullopt;
  }
  using K = symbolic::EvalValue::Kind;
  auto inf_sign = [](const symbolic::EvalValue& x) {
    return x.kind == K::PosInf ? 1 : x.kind == K::NegInf ? -1 : 0;
  };
  auto is_zero = [](const symbolic::EvalValue& x) {
    return x.kind == K::Exact && sgn(x.exact) == 0;
  };
  auto surely_nonzero = [&](const symbolic::EvalValue& x) {
    if (inf_sign(x) != 0 || (x.kind == K::Exact && sgn(x.exact) != 0))
      return true;
    return x.kind == K::Approx && (x.approx.lo > 0 || x.approx.hi < 0);
  };
  auto sign_of = [&](const symbolic::EvalValue& x) {
    if (inf_sign(x) != 0)
      return inf_sign(x);
    if (x.kind == K::Exact)
      return sgn(x.exact);
    return x.approx.lo > 0 ? 1 : -1; // surely nonzero
  };
  const Node& n = store.node(c.site);
  switch (c.kind) {
  case ConditionKind::NoZeroTimesInf: {
    const symbolic::EvalValue x = ev.eval(n.a), y = ev.eval(n.b);
    if ((is_zero(x) && inf_sign(y) != 0) || (inf_sign(x) != 0 && is_zero(y)))
      return false;
    return (surely_nonzero(x) || inf_sign(y) == 0) && (surely_nonzero(y) || inf_sign(x) == 0) &&
                   x.kind != K::Unknown && y.kind != K::Unknown
               ? std::optional<bool>(true)
               : std::nullopt;
  }
  case ConditionKind::NoInfOverInf: {
    const symbolic::EvalValue x = ev.eval(n.a), y = ev.eval(n.b);
    if (x.kind == K::Unknown || y.kind == K::Unknown)
      return std::nullopt;
    return !(inf_sign(x) != 0 && inf_sign(y) != 0);
  }
  default: { // NoInfMinusInf: the two terms of the sum (an fma's product first)
    int first = 0;
    if (n.op == Op::Fma) {
      const symbolic::EvalValue x = ev.eval(n.a), y = ev.eval(n.b);
      if (x.kind == K::Unknown || y.kind == K::Unknown)
        return std::nullopt;
      if (inf_sign(x) != 0 || inf_sign(y) != 0) {
        if (!surely_nonzero(x) || !surely_nonzero(y))
          return std::nullopt; // 0 * inf is the other condition's
        first = sign_of(x) * sign_of(y);
      }
    } else {
      const symbolic::EvalValue x = ev.eval(n.a);
      if (x.kind == K::Unknown)
        return std::nullopt;
      first = inf_sign(x);
    }
    const symbolic::EvalValue z = ev.eval(n.op == Op::Fma ? n.c : n.b);
    if (z.kind == K::Unknown)
      return std::nullopt;
    const int second = n.op == Op::Sub ? -inf_sign(z) : inf_sign(z);
    return !(first != 0 && second != 0 && first != second);
  }
  }
}

// Does the guard hold certainly (1), fail certainly (0), or neither (-1)?
int guard_value(symbolic::Evaluator& ev, const GuardSet& g) {
  if (g.truncated)
    return -1;
  bool all = true;
  for (const auto& [cond, polarity] : g.literals) {
    const symbolic::EvalValue v = ev.eval(cond);
    if (v.kind != symbolic::EvalValue::Kind::Exact) {
      all = false;
      continue;
    }
    if ((v.exact != 0) != polarity)
      return 0;
  }
  return all ? 1 : -1;
}

class RefinementCheck {
public:
  RefinementCheck(const symbolic::ExprStore& store, const DomainSide& spec,
                  const DomainSide& checked, const CanonicalOf& canonical_of,
                  symbolic::ExprStore* build_store, const DomainProver* prover,
                  const std::function<bool()>* stop)
      : store_(store), spec_(spec), checked_(checked), canonical_of_(canonical_of),
        build_store_(build_store), prover_(prover), stop_(stop), signs_(store),
        obligations_(store, signs_), assumptions_(store, signs_) {}

  DomainOutcome run() {
    DomainOutcome out;
    // The specification's conditions first: one that never holds makes everything vacuous.
    bool collected = false;
    if (spec_.run != nullptr && may_be_vacuous()) {
      collect(spec_, assumptions_);
      collected = true;
      out.vacuous_reason = vacuous_reason();
    }
    // No partial operation and no operation on a possibly infinite operand: nothing to
    // discharge (the builder logs both kinds of site).
    if (checked_.run == nullptr || checked_.run->partial_sites.empty())
      return out;
    collect(checked_, obligations_);
    std::vector<const DomainCondition*> pending;
    for (const DomainCondition& c : obligations_.conditions()) {
      ++out.summary.obligations;
      if (by_signs(signs_, c.kind, c.arg)) {
        ++out.summary.by_sign;
      } else if (by_own_guard(c)) {
        ++out.summary.by_guard;
      } else {
        pending.push_back(&c);
      }
    }
    if (pending.empty())
      return out;
    if (!collected && spec_.run != nullptr && !spec_.run->partial_sites.empty())
      collect(spec_, assumptions_);
    out.summary.assumptions = assumptions_.conditions().size();
    index_assumptions();
    for (const DomainCondition* c : pending) {
      if (stop_ != nullptr && *stop_ && (*stop_)()) { // refute() evaluates many points
        out.stopped = true;
        break;
      }
      if (by_assumption(*c)) {
        ++out.summary.by_assumption;
        continue;
      }
      if (!out.counterexample) {
        if (auto cex = refute(*c)) {
          ++out.summary.failed;
          out.failure_detail = fmt::format(
              "the {} kernel {}{} for this input, where the {} is defined", checked_.role,
              failure_words(store_, c->site, c->kind), where(checked_.run, c->site), spec_.role);
          out.counterexample = std::move(cex);
          continue;
        }
      }
      // After a refutation the verdict is decided: the rest is not sent to the solver, and
      // neither are conditions about infinities (the translation has none).
      if (!out.counterexample && prover_ != nullptr && *prover_ && build_store_ != nullptr &&
          !about_operands(c->kind)) {
        ++out.solver_queries;
        if (auto holds = (*prover_)(store_, solver_query(*c)); holds && *holds) {
          ++out.summary.by_z3;
          continue;
        }
      }
      ++out.summary.undecided;
      if (out.unknown_reason.empty())
        out.unknown_reason = fmt::format(
            "the {} kernel's {}{} needs {} {}{}, which neither the sign analysis nor the {}'s "
            "domain implies",
            checked_.role, operation_words(store_, c->site), where(checked_.run, c->site),
            symbolic::to_sexpr(store_, c->arg, 120), relation_text(c->kind),
            c->guard != 0 ? " (where its select chooses it)" : "", spec_.role);
    }
    return out;
  }

private:
  // The first unconditional assumption whose operand the signs place, wherever it is defined,
  // where the condition fails (a divisor that is always 0, a square root of a value that is
  // always negative): the specification is then defined on no input. Conditions about
  // infinite operands are not looked at (left out: no such kernel has come up).
  std::string vacuous_reason() {
    for (const DomainCondition& a : assumptions_.conditions()) {
      if (a.guard != 0 || !refuted_by_signs(signs_, a.kind, a.arg))
        continue;
      return fmt::format("the {} kernel is undefined on every input: its {}{} needs {} {}, "
                         "which never holds, so any {} kernel would be equivalent to it and "
                         "nothing is proved",
                         spec_.role, operation_words(store_, a.site), where(spec_.run, a.site),
                         symbolic::to_sexpr(store_, a.arg, 120), relation_text(a.kind),
                         checked_.role);
    }
    return "";
  }

  // Whether a partial operation of the specification has an operand condition the signs refute
  // (the cheap test before collecting its conditions, with their guards, for vacuous_reason).
  // Only operands of at most kVacuityNodes nodes are looked at: a divisor that is always 0 or a
  // radicand that is always negative is a small expression in every kernel seen, while the
  // signs of a softmax's sum of a row of exponentials cost a walk of the row per row (8 % of an
  // attention proof at l = 1024).
  bool may_be_vacuous() {
    for (const auto& [site, line] : spec_.run->partial_sites) {
      const auto c = operand_condition(store_.node(site));
      if (c && small(c->arg) && refuted_by_signs(signs_, c->kind, c->arg))
        return true;
    }
    return false;
  }

  static constexpr size_t kVacuityNodes = 64;
  bool small(ExprId root) {
    if (const auto it = small_.find(root); it != small_.end())
      return it->second;
    std::vector<ExprId> stack{root};
    std::unordered_set<ExprId> seen;
    bool fits = true;
    while (!stack.empty() && fits) {
      const ExprId id = stack.back();
      stack.pop_back();
      if (id == symbolic::kNoExpr || !seen.insert(id).second)
        continue;
      fits = seen.size() <= kVacuityNodes;
      const Node& n = store_.node(id);
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i)
        stack.push_back(kids[i]);
    }
    small_.emplace(root, fits);
    return fits;
  }

  void collect(const DomainSide& side, DomainConditions& into) {
    for (size_t i = 0; i < side.elements.size(); ++i)
      into.add_root(side.elements[i].second, i);
    if (side.run != nullptr) {
      for (size_t k = 0; k < side.run->control_roots.size(); ++k)
        into.add_root(side.run->control_roots[k], side.elements.size() + k);
    }
  }

  bool by_own_guard(const DomainCondition& c) {
    const GuardSet& g = obligations_.guard(c.guard);
    for (const auto& [cond, polarity] : g.literals) {
      if (literal_implies(store_, cond, polarity, c.kind, c.arg))
        return true;
    }
    return false;
  }

  void index_assumptions() {
    for (const DomainCondition& a : assumptions_.conditions()) {
      if (a.guard != 0)
        continue; // "guard => condition" is not the condition
      assume(a.kind, a.arg, 0);
    }
  }

  // Records an assumption and what follows from it about the operands: sqrt(u) != 0 gives
  // u != 0 (with sqrt's own u >= 0, u > 0: 1/sqrtf(x) assumes what rsqrtf(x) needs), a
  // product is nonzero only with nonzero factors.
  void assume(ConditionKind kind, ExprId arg, int depth) {
    by_node_[arg] |= static_cast<uint8_t>(1u << static_cast<int>(kind));
    if (depth > 16)
      return;
    const Node& n = store_.node(arg);
    switch (n.op) {
    case Op::Sqrt:
      if (kind != ConditionKind::NonNegative)
        assume(kind, n.a, depth + 1);
      break;
    case Op::Mul:
      if (kind == ConditionKind::NonZero) {
        assume(kind, n.a, depth + 1);
        assume(kind, n.b, depth + 1);
      }
      break;
    case Op::Neg:
    case Op::Abs:
    case Op::Div:
      if (kind == ConditionKind::NonZero || (n.op == Op::Abs && kind == ConditionKind::Positive))
        assume(ConditionKind::NonZero, n.a, depth + 1);
      break;
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
    case Op::Fma:
    case Op::Min:
    case Op::Max:
    case Op::Rcp:
    case Op::Rsqrt:
    case Op::Exp:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh:
    case Op::Narrow:
    // predicates and selects over symbolic values
    case Op::Cmp:
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Not:
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
      break;
    }
  }

  bool by_assumption(const DomainCondition& c) {
    if (auto it = by_node_.find(c.arg); it != by_node_.end() && implies(it->second, c.kind))
      return true;
    // A condition about an operation's operands holds for that operation only: two sums with
    // one canonical form can meet infinities differently.
    if (!canonical_of_ || about_operands(c.kind))
      return false;
    if (!by_form_ready_) {
      by_form_ready_ = true;
      constexpr uint8_t kAboutValues = 1u << static_cast<int>(ConditionKind::NonZero) |
                                       1u << static_cast<int>(ConditionKind::NonNegative) |
                                       1u << static_cast<int>(ConditionKind::Positive);
      for (const auto& [node, kinds] : by_node_) {
        if (!(kinds & kAboutValues))
          continue;
        if (auto f = canonical_of_(node))
          by_form_[*f] |= kinds & kAboutValues;
      }
    }
    auto f = canonical_of_(c.arg);
    if (!f)
      return false;
    auto it = by_form_.find(*f);
    return it != by_form_.end() && implies(it->second, c.kind);
  }

  // A point where every assumption of the specification holds and `c` fails.
  std::optional<Counterexample> refute(const DomainCondition& c) {
    const GuardSet& guard = obligations_.guard(c.guard);
    if (guard.truncated)
      return std::nullopt;
    std::vector<ExprId> roots{c.arg};
    for (const auto& [cond, polarity] : guard.literals)
      roots.push_back(cond);
    // The assumptions' leaves take values too, so that they can hold (within a bound).
    constexpr size_t kMaxAssumptions = 4096;
    const auto& assumed = assumptions_.conditions();
    if (assumed.size() <= kMaxAssumptions) {
      for (const DomainCondition& a : assumed) {
        roots.push_back(a.arg);
        for (const auto& [cond, polarity] : assumptions_.guard(a.guard).literals)
          roots.push_back(cond);
      }
    }
    const std::vector<ExprId> leaves = symbolic::leaves_below(store_, roots);
    if (leaves.size() > 65536)
      return std::nullopt;
    std::mt19937_64 rng(0xd0a1 ^ c.arg);
    std::uniform_int_distribution<int> numerator(-8, 8);
    std::uniform_int_distribution<int> coin(0, 1);
    // Integer data that becomes an infinity: f16 overflow of a conversion, the bits of the f32 and
    // f16 infinities, and the largest values of each width.
    static constexpr uint64_t kSpecialBits[] = {65520,     70000,  0x7F800000,         0xFF800000,
                                                0x7C00,    0xFC00, 0x7FF0000000000000, ~uint64_t{0},
                                                0x80000000};
    std::uniform_int_distribution<size_t> special(0, std::size(kSpecialBits) - 1);
    for (int attempt = 0; attempt < 48; ++attempt) {
      symbolic::Assignment point;
      for (ExprId leaf : leaves) {
        // Zeros are where most partial operations fail: attempt 0 is all zeros, later ones
        // zero about half the leaves; from attempt 16 on, integers take special values a
        // third of the time.
        const bool zero = attempt == 0 || coin(rng) == 0;
        const int x = zero ? 0 : numerator(rng);
        if (auto w = symbolic::integer_leaf_width(store_, leaf)) {
          const bool take_special = attempt >= 16 && special(rng) % 3 == 0;
          const uint64_t bits = (take_special ? kSpecialBits[special(rng)]
                                              : static_cast<uint64_t>(static_cast<int64_t>(x))) &
                                symbolic::width_mask(*w);
          point.values[symbolic::Assignment::key_of(store_, leaf)] =
              symbolic::Rational(std::to_string(bits));
        } else {
          point.values[symbolic::Assignment::key_of(store_, leaf)] = symbolic::Rational(x);
        }
      }
      // An element's real and integer views must agree, as a GPU's input does (fuzzer
      // 23:217769: a1[17] = -8 with its bits left 0 refuted a divisor, rem by the bits, that
      // the device never makes 0 there).
      if (!reconcile_views(store_, leaves, point))
        continue;
      symbolic::Evaluator ev(store_, point);
      if (holds_at(store_, ev, c) != std::optional<bool>(false) || guard_value(ev, guard) != 1)
        continue;
      bool spec_defined = assumed.size() <= kMaxAssumptions;
      for (size_t i = 0; spec_defined && i < assumed.size(); ++i) {
        const DomainCondition& a = assumed[i];
        const int g = guard_value(ev, assumptions_.guard(a.guard));
        if (g == 0)
          continue;
        spec_defined = g == 1 && holds_at(store_, ev, a) == std::optional<bool>(true);
      }
      if (!spec_defined)
        continue;
      return counterexample(c, point, leaves, ev);
    }
    return std::nullopt;
  }

  Counterexample counterexample(const DomainCondition& c, const symbolic::Assignment& point,
                                const std::vector<ExprId>& leaves, symbolic::Evaluator& ev) {
    Counterexample cex;
    cex.confirmed = true;
    const bool element = c.root < checked_.elements.size();
    cex.element = element ? checked_.elements[c.root].first : "a branch condition";
    for (ExprId leaf : leaves) {
      auto it = point.values.find(symbolic::Assignment::key_of(store_, leaf));
      if (it != point.values.end() && it->second != 0)
        cex.inputs.emplace_back(symbolic::leaf_name(store_, leaf), it->second.get_str());
    }
    cex.optimized_value = fmt::format("undefined: {}{}", failure_words(store_, c.site, c.kind),
                                      where(checked_.run, c.site));
    cex.optimized_expr = symbolic::to_sexpr(store_, c.site, 600);
    if (element) {
      for (const auto& [name, root] : spec_.elements) {
        if (name != cex.element)
          continue;
        cex.reference_value = ev.eval(root).to_string();
        cex.reference_expr = symbolic::to_sexpr(store_, root, 600);
      }
    }
    if (cex.reference_value.empty())
      cex.reference_value = "(defined)";
    if (checked_.role == "reference")
      std::swap(cex.reference_value, cex.optimized_value),
          std::swap(cex.reference_expr, cex.optimized_expr);
    return cex;
  }

  // The predicate the solver must find unsatisfiable: every unguarded assumption, every guarded
  // one as an implication, the obligation's guard, and the obligation's violation.
  ExprId solver_query(const DomainCondition& c) {
    symbolic::Builder b(*build_store_);
    const ExprId zero = build_store_->constant(0);
    auto holds = [&](ConditionKind kind, ExprId arg) {
      return b.cmp(kind == ConditionKind::NonZero       ? CmpKind::Ne
                   : kind == ConditionKind::NonNegative ? CmpKind::Ge
                                                        : CmpKind::Gt,
                   arg, zero);
    };
    auto guard_of = [&](const GuardSet& g) -> ExprId {
      ExprId all = 0;
      for (const auto& [cond, polarity] : g.literals) {
        const ExprId lit = polarity ? cond : b.bool_not(cond);
        all = all == 0 ? lit : b.boolean(Op::And, all, lit);
      }
      return all;
    };
    ExprId query = b.bool_not(holds(c.kind, c.arg));
    if (const ExprId g = guard_of(obligations_.guard(c.guard)))
      query = b.boolean(Op::And, query, g);
    // The reference's conditions that share an input (transitively) with this one: the cone of
    // the query. The others cannot help (leaving assumptions out only makes the query harder
    // to prove, never wrongly proved; a specification that is defined nowhere is vacuous_reason's
    // to find), and without them each thread's query is the same up to its inputs, which the
    // caller may answer once (pair_decision's query templates).
    std::vector<ExprId> facts;
    std::vector<std::vector<ExprId>> fact_leaves;
    for (const DomainCondition& a : assumptions_.conditions()) {
      const GuardSet& g = assumptions_.guard(a.guard);
      if (g.truncated || about_operands(a.kind))
        continue; // under guards not tracked, or about infinities: left out (fewer assumptions)
      ExprId fact = holds(a.kind, a.arg);
      if (const ExprId when = guard_of(g))
        fact = b.boolean(Op::Or, b.bool_not(when), fact);
      facts.push_back(fact);
      // (The same facts come back for every obligation: their leaves are walked once.)
      auto it = leaves_of_fact_.find(fact);
      if (it == leaves_of_fact_.end())
        it = leaves_of_fact_.emplace(fact, leaves_below(*build_store_, fact)).first;
      fact_leaves.push_back(it->second);
    }
    std::unordered_set<ExprId> cone;
    for (ExprId leaf : leaves_below(*build_store_, query))
      cone.insert(leaf);
    std::vector<bool> taken(facts.size(), false);
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t i = 0; i < facts.size(); ++i) {
        if (taken[i])
          continue;
        bool shares = false;
        for (ExprId leaf : fact_leaves[i])
          shares = shares || cone.count(leaf) != 0;
        if (!shares)
          continue;
        taken[i] = grew = true;
        cone.insert(fact_leaves[i].begin(), fact_leaves[i].end());
      }
    }
    for (size_t i = 0; i < facts.size(); ++i) {
      if (taken[i])
        query = b.boolean(Op::And, query, facts[i]);
    }
    return query;
  }

  // The input elements and symbolic parameters below `root`.
  static std::vector<ExprId> leaves_below(const symbolic::ExprStore& store, ExprId root) {
    std::vector<ExprId> out, stack{root};
    std::unordered_set<ExprId> seen;
    while (!stack.empty()) {
      const ExprId id = stack.back();
      stack.pop_back();
      if (!seen.insert(id).second)
        continue;
      const symbolic::Node& n = store.node(id);
      if (n.op == Op::Input || n.op == Op::Param) {
        out.push_back(id);
        continue;
      }
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i) {
        if (kids[i] != symbolic::kNoExpr)
          stack.push_back(kids[i]);
      }
    }
    return out;
  }

  const symbolic::ExprStore& store_;
  const DomainSide& spec_;
  const DomainSide& checked_;
  const CanonicalOf& canonical_of_;
  symbolic::ExprStore* build_store_;
  const DomainProver* prover_;
  const std::function<bool()>* stop_;
  symbolic::SignAnalysis signs_;
  std::unordered_map<ExprId, bool> small_; // operand -> at most kVacuityNodes nodes
  DomainConditions obligations_;
  DomainConditions assumptions_;
  std::unordered_map<ExprId, std::vector<ExprId>> leaves_of_fact_; // solver_query's cone
  std::unordered_map<ExprId, uint8_t> by_node_;
  std::unordered_map<uint64_t, uint8_t> by_form_;
  bool by_form_ready_ = false;
};

} // namespace

DomainOutcome check_refinement(const symbolic::ExprStore& store, const DomainSide& spec,
                               const DomainSide& checked, const CanonicalOf& canonical_of,
                               symbolic::ExprStore* build_store, const DomainProver* prover,
                               const std::function<bool()>* stop) {
  return RefinementCheck(store, spec, checked, canonical_of, build_store, prover, stop).run();
}

// ---------------------------------------------------------------------------------------------
// The specification's domain, point by point
// ---------------------------------------------------------------------------------------------

SpecificationDomain::SpecificationDomain(const symbolic::ExprStore& store, const DomainSide& spec)
    : store_(store), signs_(store), conditions_(store, signs_) {
  for (size_t i = 0; i < spec.elements.size(); ++i)
    conditions_.add_root(spec.elements[i].second, i);
  if (spec.run != nullptr) {
    for (size_t k = 0; k < spec.run->control_roots.size(); ++k)
      conditions_.add_root(spec.run->control_roots[k], spec.elements.size() + k);
  }
  // Past these no point is claimed to be in the domain (an elementwise division of 64K
  // elements is within them: a point there costs one evaluation of each operand).
  constexpr size_t kMaxAssumptions = size_t{1} << 16;
  constexpr size_t kMaxLeaves = size_t{1} << 18;
  std::vector<ExprId> roots;
  for (const DomainCondition& c : conditions_.conditions()) {
    if (by_signs(signs_, c.kind, c.arg))
      continue; // holds wherever its operand is defined
    checked_.push_back(&c);
    roots.push_back(c.arg);
    if (about_operands(c.kind))
      roots.push_back(c.site);
    for (const auto& [cond, polarity] : conditions_.guard(c.guard).literals)
      roots.push_back(cond);
  }
  for (const DomainCondition& c : conditions_.conditions()) {
    if (c.guard == 0 && !about_operands(c.kind))
      everywhere_[c.arg] |= static_cast<uint8_t>(1u << static_cast<unsigned>(c.kind));
  }
  too_many_ = checked_.size() > kMaxAssumptions;
  if (!too_many_)
    leaves_ = symbolic::leaves_below(store_, roots);
  too_many_ = too_many_ || leaves_.size() > kMaxLeaves;
  if (too_many_)
    leaves_.clear();
}

bool SpecificationDomain::excludes(const std::vector<std::pair<ExprId, bool>>& facts) const {
  for (const auto& [cmp, truth] : facts) {
    // A value that may be a NaN (the float view of integer bits) is left alone: neither the
    // complement of a comparison nor an unordered one says it is 0 or of a sign there.
    const Node& n = store_.node(cmp);
    if (n.op != Op::Cmp || ((store_.taint(n.a) | store_.taint(n.b)) & symbolic::kTaintNaN))
      continue;
    const auto fact = against_zero(store_, cmp, truth); // as `v k 0`
    if (!fact)
      continue;
    const auto [v, k] = *fact;
    const auto it = everywhere_.find(v);
    if (it == everywhere_.end())
      continue;
    auto needs = [&](ConditionKind kind) {
      return (it->second & (1u << static_cast<unsigned>(kind))) != 0;
    };
    const bool zero = k == CmpKind::Eq, negative = k == CmpKind::Lt,
               not_positive = k == CmpKind::Le || zero || negative;
    if ((needs(ConditionKind::NonZero) && zero) ||
        (needs(ConditionKind::NonNegative) && negative) ||
        (needs(ConditionKind::Positive) && not_positive))
      return true;
  }
  return false;
}

std::vector<ExprId> SpecificationDomain::with_leaves(std::vector<ExprId> leaves) const {
  std::unordered_set<ExprId> have(leaves.begin(), leaves.end());
  for (ExprId leaf : leaves_)
    if (have.insert(leaf).second)
      leaves.push_back(leaf);
  return leaves;
}

bool SpecificationDomain::defined_at(symbolic::Evaluator& ev) const {
  if (too_many_)
    return false;
  for (const DomainCondition* c : checked_) {
    const int g = guard_value(ev, conditions_.guard(c->guard));
    if (g == 0)
      continue; // its arm is not taken here
    if (g != 1 || holds_at(store_, ev, *c) != std::optional<bool>(true))
      return false;
  }
  return true;
}

} // namespace volta::prove
