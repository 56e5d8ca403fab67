#include "engine/rules_check/random_points.hpp"

#include <fmt/format.h>
#include <map>
#include <unordered_map>

#include "engine/symbolic/evaluate.hpp"

namespace volta::rules_check {

using symbolic::ExprId;
using symbolic::Op;
using symbolic::Rational;

namespace {

// Is the node defined at the point? nullopt: cannot tell (an interval straddles a boundary).
class Definedness {
public:
  Definedness(const symbolic::ExprStore& store, symbolic::Evaluator& ev) : s_(store), ev_(ev) {}

  std::optional<bool> at(ExprId id) {
    if (auto it = memo_.find(id); it != memo_.end())
      return it->second;
    const auto r = compute(id);
    memo_.emplace(id, r);
    return r;
  }

private:
  // The sign of a value: -1, 0, 1, or nullopt when unknown.
  std::optional<int> sign(ExprId id) {
    const symbolic::EvalValue v = ev_.eval(id);
    switch (v.kind) {
    case symbolic::EvalValue::Kind::Exact:
      return sgn(v.exact);
    case symbolic::EvalValue::Kind::PosInf:
      return 1;
    case symbolic::EvalValue::Kind::NegInf:
      return -1;
    case symbolic::EvalValue::Kind::Approx:
      if (v.approx.lo > 0)
        return 1;
      if (v.approx.hi < 0)
        return -1;
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }
  // Defined when the argument is and its sign is positive (or zero, when allowed).
  std::optional<bool> requires_sign(ExprId arg, bool allow_zero) {
    const auto d = at(arg);
    if (!d || !*d)
      return d;
    const auto sg = sign(arg);
    if (!sg)
      return std::nullopt;
    return *sg > 0 || (allow_zero && *sg == 0);
  }
  std::optional<bool> compute(ExprId id) {
    const symbolic::Node n = s_.node(id);
    switch (n.op) {
    case Op::Div: {
      const auto a = at(n.a);
      const auto b = at(n.b);
      if (!a || !b)
        return std::nullopt;
      if (!*a || !*b)
        return false;
      const auto sg = sign(n.b);
      if (!sg)
        return std::nullopt;
      return *sg != 0;
    }
    case Op::Sqrt:
      return requires_sign(n.a, true);
    case Op::Rsqrt:
    case Op::Lg2:
      return requires_sign(n.a, false);
    case Op::Select: {
      // Defined where the condition is and the branch it takes is.
      const auto d = at(n.a);
      if (!d || !*d)
        return d;
      const auto sg = sign(n.a);
      if (!sg)
        return std::nullopt;
      return at(*sg != 0 ? n.b : n.c);
    }
    case Op::Add:
    case Op::Mul: {
      for (ExprId k : {n.a, n.b}) {
        const auto o = s_.op(k);
        if (o == Op::PosInf || o == Op::NegInf)
          return std::nullopt; // inf - inf, 0 · inf: not judged
      }
      break;
    }
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
    case Op::Sub:
    case Op::Fma:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
    case Op::Rcp:
    case Op::Exp:
    case Op::Ex2:
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
    const ExprId kids[3] = {n.a, n.b, n.c};
    bool ok = true;
    for (int i = 0; i < symbolic::child_count(n.op); ++i) {
      if (kids[i] == symbolic::kNoExpr)
        continue;
      const auto d = at(kids[i]);
      if (!d)
        return std::nullopt;
      ok = ok && *d;
    }
    return ok;
  }

  const symbolic::ExprStore& s_;
  symbolic::Evaluator& ev_;
  std::unordered_map<ExprId, std::optional<bool>> memo_;
};

bool satisfied(algebra::FormPredicate p, const Rational& v) {
  switch (p) {
  case algebra::FormPredicate::Positive:
    return sgn(v) > 0;
  case algebra::FormPredicate::Negative:
    return sgn(v) < 0;
  case algebra::FormPredicate::Nonnegative:
    return sgn(v) >= 0;
  case algebra::FormPredicate::Nonzero:
    return sgn(v) != 0;
  default:
    return true; // finite, total, const: every symbol is a finite, total value
  }
}

// Small rationals, zero one time in five (where domains and signs change).
Rational random_value(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> zero(0, 4), num(-6, 6), den(0, 2);
  if (zero(rng) == 0)
    return Rational(0);
  Rational v(num(rng), 1 << den(rng));
  v.canonicalize();
  return v;
}

} // namespace

std::optional<std::string> find_counterexample(const algebra::MlLanguage& ml, const Instance& in,
                                               const std::vector<Condition>& conditions,
                                               PointSearch& search) {
  symbolic::ExprStore store;
  LiteralDag dag(ml, store);
  const ExprId lhs = dag.convert(in.lhs), rhs = dag.convert(in.rhs);
  for (int attempt = 0; attempt < search.points; ++attempt) {
    std::map<std::string, Rational> values;
    bool ok = false;
    for (int tries = 0; tries < 50 && !ok; ++tries) {
      for (const auto& name : in.symbols)
        values[name] = random_value(*search.rng);
      ok = true;
      for (const auto& c : conditions) {
        for (const auto& s : c.symbols)
          ok = ok && satisfied(c.predicate, values[s]);
      }
    }
    if (!ok)
      continue;
    symbolic::Assignment point;
    for (const auto& [name, v] : values)
      point.values[symbolic::Assignment::param_key(store.add_param_name(name))] = v;
    symbolic::Evaluator ev(store, point);
    Definedness def(store, ev);
    const auto dl = def.at(lhs), dr = def.at(rhs);
    if (!dl || !dr)
      continue;
    auto where = [&] {
      std::string s;
      for (const auto& [name, v] : values)
        s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", name, v.get_str());
      return s;
    };
    if (*dl != *dr) {
      return fmt::format(
          "the two sides are defined at different points: at {} the {} side is defined ({}) and "
          "the {} side is not (add a condition such as :if (nonzero ?x), or restrict the rule)",
          where(), *dl ? "left" : "right", ev.eval(*dl ? lhs : rhs).to_string(),
          *dl ? "right" : "left");
    }
    if (!*dl)
      continue;
    const symbolic::EvalValue a = ev.eval(lhs), b = ev.eval(rhs);
    if (a.kind == symbolic::EvalValue::Kind::Unknown ||
        b.kind == symbolic::EvalValue::Kind::Unknown)
      continue;
    if (symbolic::certainly_different(a, b)) {
      return fmt::format("at {} the left side is {} and the right side is {}", where(),
                         a.to_string(), b.to_string());
    }
    ++search.agreeing;
  }
  return std::nullopt;
}

} // namespace volta::rules_check
