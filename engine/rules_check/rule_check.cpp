#include "engine/rules_check/rule_check.hpp"

#include <fmt/format.h>
#include <map>
#include <random>
#include <stdexcept>

#include "egraph/ematch.hpp"
#include "egraph/extract.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "rules/algebra/canonical_analysis.hpp"
#include "rules/algebra/node_forms.hpp"

namespace volta::rules_check {

using egraph::PatNode;
using egraph::Pattern;
using egraph::TreeTerm;
using symbolic::ExprId;
using symbolic::Op;
using symbolic::Rational;
using Status = RuleCheckResult::Status;

const char* to_string(Status s) {
  switch (s) {
  case Status::Proved:
    return "proved";
  case Status::Decided:
    return "decided";
  case Status::Tested:
    return "tested";
  case Status::Unsound:
    return "UNSOUND";
  case Status::Untestable:
    return "untestable";
  }
  return "?";
}

namespace {

struct Untestable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One instance of a rule: every plain variable a fresh symbol, every rest variable `size` of
// them, both sides as terms of the ML language.
struct Instance {
  std::vector<TreeTerm> vars;               // by variable index (plain variables)
  std::vector<std::vector<TreeTerm>> rests; // by variable index (rest variables)
  std::vector<std::string> symbols;         // every symbol's name
  TreeTerm lhs, rhs;
};

class Instantiator {
public:
  Instantiator(algebra::MlLanguage& ml, const Pattern& lhs) : ml_(ml), lhs_(lhs) {}

  // `partial`: the variables bound to a quotient n/d of fresh symbols instead of a symbol, a
  // value that is undefined where d = 0 (what a variable without a `total` condition may match
  // in the e-graph).
  Instance make(size_t rest_size, const std::vector<bool>& partial) {
    Instance in;
    const auto& vars = lhs_.vars();
    in.vars.resize(vars.size());
    in.rests.resize(vars.size());
    for (uint32_t v = 0; v < vars.size(); ++v) {
      const auto& var = vars.var(v);
      auto leaf = [&](const std::string& name) {
        if (!partial[v])
          return symbol(in, name);
        return TreeTerm{ml_.div, 0, {symbol(in, name + ".n"), symbol(in, name + ".d")}};
      };
      if (var.rest) {
        for (size_t k = 1; k <= rest_size; ++k)
          in.rests[v].push_back(leaf(fmt::format("?{}.{}", var.name, k)));
      } else {
        in.vars[v] = leaf("?" + var.name);
      }
    }
    in.lhs = build(lhs_, lhs_.root(), in);
    return in;
  }

  TreeTerm build(const Pattern& p, uint32_t i, const Instance& in) {
    const PatNode& n = p.node(i);
    switch (n.kind) {
    case PatNode::Kind::Var:
      return in.vars[n.var];
    case PatNode::Kind::Rest:
      return rest_node(lhs_.vars().var(n.var).rest_op, in.rests[n.var]);
    case PatNode::Kind::Op:
      break;
    }
    TreeTerm t{n.op, n.payload, {}};
    for (uint32_t k : p.children(i)) {
      const PatNode& c = p.node(k);
      if (c.kind == PatNode::Kind::Rest && lhs_.vars().var(c.var).rest_op == n.op) {
        for (const auto& e : in.rests[c.var])
          t.children.push_back(e);
      } else {
        t.children.push_back(build(p, k, in));
      }
    }
    return t;
  }

private:
  TreeTerm symbol(Instance& in, const std::string& name) {
    in.symbols.push_back(name);
    return TreeTerm{*ml_.lang.symbol_op(), ml_.lang.intern_symbol(name), {}};
  }
  TreeTerm rest_node(egraph::OpId op, const std::vector<TreeTerm>& elements) {
    if (elements.size() == 1)
      return elements[0];
    return TreeTerm{op, 0, elements};
  }

  algebra::MlLanguage& ml_;
  const Pattern& lhs_;
};

// Terms of the ML language as expression-DAG nodes (symbols are parameters named like them).
class ToStore {
public:
  ToStore(const algebra::MlLanguage& ml, symbolic::ExprStore& store)
      : ml_(ml), s_(store), b_(store) {}

  ExprId convert(const TreeTerm& t) {
    const auto& m = ml_;
    std::vector<ExprId> kids;
    for (const auto& c : t.children)
      kids.push_back(convert(c));
    auto fold = [&](auto&& f) {
      if (kids.empty())
        throw Untestable("an empty n-ary node");
      ExprId acc = kids[0];
      for (size_t i = 1; i < kids.size(); ++i)
        acc = f(acc, kids[i]);
      return acc;
    };
    auto need = [&](size_t n) {
      if (kids.size() != n)
        throw Untestable("operator arity");
    };
    const egraph::OpId op = t.op;
    if (op == m.num)
      return s_.constant(m.lang.rational(t.payload));
    if (op == m.sym)
      return s_.param(s_.add_param_name(m.lang.symbol_name(t.payload)));
    if (op == m.ln2)
      return s_.intern(symbolic::Node{Op::Ln2});
    if (op == m.pos_inf)
      return s_.pos_inf();
    if (op == m.neg_inf)
      return s_.neg_inf();
    if (op == m.add)
      return fold([&](ExprId a, ExprId b) { return b_.add(a, b); });
    if (op == m.mul)
      return fold([&](ExprId a, ExprId b) { return b_.mul(a, b); });
    if (op == m.max)
      return fold([&](ExprId a, ExprId b) { return b_.max(a, b); });
    if (op == m.min)
      return fold([&](ExprId a, ExprId b) { return b_.min(a, b); });
    if (op == m.div)
      return need(2), b_.div(kids[0], kids[1]);
    if (op == m.neg)
      return need(1), b_.neg(kids[0]);
    if (op == m.abs)
      return need(1), b_.abs(kids[0]);
    const std::pair<egraph::OpId, Op> unary[] = {
        {m.exp, Op::Exp},  {m.ex2, Op::Ex2}, {m.sqrt, Op::Sqrt}, {m.rsqrt, Op::Rsqrt},
        {m.log2, Op::Lg2}, {m.sin, Op::Sin}, {m.cos, Op::Cos},   {m.tanh, Op::Tanh}};
    for (const auto& [o, sop] : unary) {
      if (op == o)
        return need(1), b_.unary(sop, kids[0]);
    }
    const std::pair<egraph::OpId, symbolic::CmpKind> cmps[] = {
        {m.lt, symbolic::CmpKind::Lt}, {m.le, symbolic::CmpKind::Le},
        {m.gt, symbolic::CmpKind::Gt}, {m.ge, symbolic::CmpKind::Ge},
        {m.eq, symbolic::CmpKind::Eq}, {m.ne, symbolic::CmpKind::Ne}};
    for (const auto& [o, k] : cmps) {
      if (op == o)
        return need(2), b_.cmp(k, kids[0], kids[1]);
    }
    if (op == m.land)
      return need(2), b_.boolean(Op::And, kids[0], kids[1]);
    if (op == m.lor)
      return need(2), b_.boolean(Op::Or, kids[0], kids[1]);
    if (op == m.lxor)
      return need(2), b_.boolean(Op::Xor, kids[0], kids[1]);
    if (op == m.lnot)
      return need(1), b_.bool_not(kids[0]);
    if (op == m.select)
      return need(3), b_.select(kids[0], kids[1], kids[2]);
    throw Untestable("operator '" + m.lang.op(op).name + "' cannot be evaluated");
  }

  symbolic::Builder& builder() { return b_; }

private:
  const algebra::MlLanguage& ml_;
  symbolic::ExprStore& s_;
  symbolic::Builder b_;
};

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
  std::optional<bool> all(std::initializer_list<ExprId> kids) {
    bool ok = true;
    for (ExprId k : kids) {
      const auto d = at(k);
      if (!d)
        return std::nullopt;
      ok = ok && *d;
    }
    return ok;
  }
  std::optional<bool> compute(ExprId id) {
    const symbolic::Node n = s_.node(id);
    auto requires_sign = [&](ExprId arg, bool allow_zero) -> std::optional<bool> {
      const auto d = at(arg);
      if (!d || !*d)
        return d;
      const auto sg = sign(arg);
      if (!sg)
        return std::nullopt;
      return *sg > 0 || (allow_zero && *sg == 0);
    };
    switch (n.op) {
    case Op::Div: {
      const auto d = all({n.a, n.b});
      if (!d || !*d)
        return d;
      const auto sg = sign(n.b);
      if (!sg)
        return std::nullopt;
      return *sg != 0;
    }
    case Op::Rcp: {
      const auto d = at(n.a);
      if (!d || !*d)
        return d;
      const auto sg = sign(n.a);
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
      const auto d = at(n.a);
      if (!d || !*d)
        return d;
      const auto sg = sign(n.a);
      if (!sg)
        return std::nullopt;
      return at(*sg != 0 ? n.b : n.c);
    }
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Fma: {
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i) {
        const auto k = s_.op(kids[i]);
        if (k == Op::PosInf || k == Op::NegInf)
          return std::nullopt; // inf - inf, 0 · inf
      }
      break;
    }
    default:
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

struct Condition {
  algebra::FormPredicate predicate;
  std::vector<std::string> symbols; // the instance's symbols it constrains
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

class RuleChecker {
public:
  RuleChecker(const rules::RuleLibrary& lib, const RuleCheckOptions& options)
      : lib_(lib), options_(options), ml_(lib.ml()), rng_(options.seed) {}

  RuleCheckResult check(size_t index) {
    const egraph::Rewrite& rule = lib_.rewrites()[index];
    const rules::RuleSpec& spec = lib_.spec(index);
    RuleCheckResult out;
    out.rule = rule.name;
    out.where = spec.where.to_string();
    bool has_rest = false;
    for (uint32_t v = 0; v < rule.lhs.vars().size(); ++v)
      has_rest |= rule.lhs.vars().var(v).rest;
    const std::vector<size_t> sizes =
        has_rest ? std::vector<size_t>{1, 2, 3} : std::vector<size_t>{0};
    // Variables whose conditions make them total stay symbols; the others are also tried as
    // quotients (partial values).
    std::vector<bool> none(rule.lhs.vars().size(), false), partial = none;
    for (uint32_t v = 0; v < rule.lhs.vars().size(); ++v)
      partial[v] = !total_by_condition(spec, rule.lhs.vars().var(v).name);
    std::vector<std::pair<size_t, std::vector<bool>>> shapes;
    for (size_t size : sizes) {
      shapes.emplace_back(size, none);
      if (partial != none)
        shapes.emplace_back(size, partial);
    }
    bool all_proved = true, all_decided = true;
    std::string proof;
    try {
      for (const auto& [size, shape] : shapes) {
        Instantiator inst(ml_, rule.lhs);
        Instance in = inst.make(size, shape);
        if (rule.rhs) {
          in.rhs = inst.build(*rule.rhs, rule.rhs->root(), in);
        } else if (!apply_applier(rule, in)) {
          // An applier may decline (canonical-term does for partial values); it must work on
          // the plain instance.
          if (shape != none)
            continue;
          out.status = Status::Untestable;
          out.detail = fmt::format("the applier '{}' produced nothing on the instance {}",
                                   rule.applier_name, egraph::to_sexpr(in.lhs, ml_.lang));
          return out;
        }
        const std::vector<Condition> conds = conditions(spec, rule.lhs, in);
        if (auto bad = evaluate(in, conds, out.points)) {
          out.status = Status::Unsound;
          out.detail = *bad;
          return out;
        }
        const InstanceProof proof = prove(in, conds, out);
        if (out.status == Status::Unsound)
          return out;
        all_proved = all_proved && proof == InstanceProof::Z3;
        all_decided = all_decided && proof != InstanceProof::None;
      }
    } catch (const Untestable& e) {
      out.status = Status::Untestable;
      out.detail = e.what();
      return out;
    }
    if (out.points < options_.points / 4) {
      out.status = Status::Untestable;
      out.detail = fmt::format("only {} points satisfied the conditions with both sides defined",
                               out.points);
      return out;
    }
    std::string sizes_note = has_rest ? ", rest variables with 1 to 3 elements" : "";
    if (partial != none)
      sizes_note += ", variables also bound to quotients";
    if (all_proved) {
      out.status = Status::Proved;
      out.detail = fmt::format("by Z3 over the reals, domains included{}; {} points agree",
                               sizes_note, out.points);
    } else if (all_decided) {
      out.status = Status::Decided;
      out.detail = fmt::format("equal canonical forms{}; {} points agree, with the same domain",
                               sizes_note, out.points);
    } else {
      out.status = Status::Tested;
      out.detail = fmt::format("no proof; {} points agree, with the same domain", out.points);
    }
    return out;
  }

private:
  static bool total_by_condition(const rules::RuleSpec& spec, const std::string& var) {
    for (const auto& c : spec.conditions) {
      if (c.var == var && c.predicate != algebra::FormPredicate::Finite)
        return true; // the others imply total
    }
    return false;
  }

  std::vector<Condition> conditions(const rules::RuleSpec& spec, const Pattern& lhs,
                                    const Instance& in) {
    std::vector<Condition> out;
    for (const auto& c : spec.conditions) {
      auto v = lhs.vars().find(c.var);
      if (!v)
        continue;
      Condition k{c.predicate, {}};
      if (lhs.vars().var(*v).rest) {
        for (const auto& t : in.rests[*v])
          k.symbols.push_back(ml_.lang.symbol_name(t.payload));
      } else {
        k.symbols.push_back(ml_.lang.symbol_name(in.vars[*v].payload));
      }
      out.push_back(std::move(k));
    }
    return out;
  }

  // Runs a C++ applier on the instance in a small e-graph and takes what it produced.
  bool apply_applier(const egraph::Rewrite& rule, Instance& in) {
    algebra::MlLanguage ml = ml_;
    canonical::CanonicalForms forms;
    egraph::EGraph g(ml.lang);
    g.add_analysis<algebra::CanonicalFormAnalysis>(ml, forms).set_merge_equal_forms(false);
    const egraph::Id root = g.add_term(egraph::to_term(in.lhs));
    g.rebuild();
    const egraph::Matches ms = egraph::search(g, rule.lhs);
    for (size_t i = 0; i < ms.size(); ++i) {
      if (g.find(ms.roots[i]) != g.find(root))
        continue;
      const auto result = rule.applier(g, g.find(root), ms.subst(g, rule.lhs.vars(), i));
      if (!result)
        return false;
      g.rebuild();
      egraph::Extractor ex(g, egraph::ast_size());
      in.rhs = egraph::to_tree(ex.extract(*result));
      // Payloads interned while applying live in `ml`: carry the symbols over by name.
      in.rhs = translate(in.rhs, ml.lang);
      return true;
    }
    return false;
  }

  TreeTerm translate(const TreeTerm& t, const egraph::Language& from) {
    TreeTerm out{t.op, t.payload, {}};
    if (t.op == ml_.num)
      out.payload = ml_.lang.intern_rational(from.rational(t.payload));
    if (t.op == ml_.sym)
      out.payload = ml_.lang.intern_symbol(from.symbol_name(t.payload));
    for (const auto& c : t.children)
      out.children.push_back(translate(c, from));
    return out;
  }

  Rational random_value() {
    std::uniform_int_distribution<int> zero(0, 4), num(-6, 6), den(0, 2);
    if (zero(rng_) == 0)
      return Rational(0);
    Rational v(num(rng_), 1 << den(rng_));
    v.canonicalize();
    return v;
  }

  // A counterexample, if a point shows one.
  std::optional<std::string> evaluate(const Instance& in, const std::vector<Condition>& conds,
                                      int& points) {
    symbolic::ExprStore store;
    ToStore to(ml_, store);
    const ExprId lhs = to.convert(in.lhs), rhs = to.convert(in.rhs);
    for (int attempt = 0; attempt < options_.points; ++attempt) {
      std::map<std::string, Rational> values;
      bool ok = false;
      for (int tries = 0; tries < 50 && !ok; ++tries) {
        for (const auto& name : in.symbols)
          values[name] = random_value();
        ok = true;
        for (const auto& c : conds) {
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
            "the "
            "{} side is not (add a condition such as :if (nonzero ?x), or restrict the rule)",
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
      ++points;
    }
    return std::nullopt;
  }

  // How an instance was proved: by Z3 (an identity for all reals), by its canonical forms only
  // (which may leave partial values aside), or not at all.
  enum class InstanceProof { None, Z3, Forms };

  // Sets Unsound on a confirmed Z3 counterexample.
  InstanceProof prove(const Instance& in, const std::vector<Condition>& conds,
                      RuleCheckResult& out) {
    symbolic::ExprStore store;
    ToStore to(ml_, store);
    ExprId lhs = to.convert(in.lhs), rhs = to.convert(in.rhs);
    if (options_.prover) {
      // Conditions as selects: select(c, side, 0) on both sides (a select is defined where its
      // condition is and the branch it takes is).
      ExprId cond = symbolic::kNoExpr;
      symbolic::Builder& b = to.builder();
      for (const auto& c : conds) {
        for (const auto& s : c.symbols) {
          const ExprId x = store.param(store.add_param_name(s));
          const ExprId zero = store.constant(0);
          ExprId test = symbolic::kNoExpr;
          switch (c.predicate) {
          case algebra::FormPredicate::Positive:
            test = b.cmp(symbolic::CmpKind::Gt, x, zero);
            break;
          case algebra::FormPredicate::Negative:
            test = b.cmp(symbolic::CmpKind::Lt, x, zero);
            break;
          case algebra::FormPredicate::Nonnegative:
            test = b.cmp(symbolic::CmpKind::Ge, x, zero);
            break;
          case algebra::FormPredicate::Nonzero:
            test = b.cmp(symbolic::CmpKind::Ne, x, zero);
            break;
          default:
            break;
          }
          if (test != symbolic::kNoExpr)
            cond = cond == symbolic::kNoExpr ? test : b.boolean(Op::And, cond, test);
        }
      }
      ExprId l = lhs, r = rhs;
      if (cond != symbolic::kNoExpr) {
        l = b.select(cond, lhs, store.constant(0));
        r = b.select(cond, rhs, store.constant(0));
      }
      std::optional<prove::ElementOutcome> outcome;
      if (l == r) {
        outcome.emplace();
        outcome->kind = prove::ElementOutcome::Kind::Equivalent;
      } else {
        outcome = options_.prover(store, l, r, out.rule);
      }
      if (outcome && outcome->kind == prove::ElementOutcome::Kind::Equivalent)
        return InstanceProof::Z3;
      if (outcome && outcome->kind == prove::ElementOutcome::Kind::NotEquivalent &&
          outcome->counterexample && outcome->counterexample->confirmed) {
        out.status = Status::Unsound;
        std::string inputs;
        for (const auto& [k, v] : outcome->counterexample->inputs)
          inputs += fmt::format("{}{} = {}", inputs.empty() ? "" : ", ", k, v);
        out.detail = fmt::format(
            "Z3 found a counterexample: at {} the left side is {} and the right side is {}",
            inputs.empty() ? "every symbol 0" : inputs, outcome->counterexample->reference_value,
            outcome->counterexample->optimized_value);
        return InstanceProof::None;
      }
    }
    canonical::CanonicalForms forms;
    algebra::NodeForms nodes(ml_, ml_.lang, forms);
    try {
      const canonical::Id a = nodes.form_of_tree(in.lhs), c = nodes.form_of_tree(in.rhs);
      if (!forms.is_undefined(a) && !forms.is_undefined(c) &&
          (forms.equal(a, c) || forms.equal_by_cross_multiplication(a, c))) {
        return InstanceProof::Forms;
      }
    } catch (const canonical::BudgetExceeded&) {
    }
    return InstanceProof::None;
  }

  const rules::RuleLibrary& lib_;
  const RuleCheckOptions& options_;
  algebra::MlLanguage ml_; // a copy: instances intern their symbols
  std::mt19937_64 rng_;
};

} // namespace

std::vector<RuleCheckResult> check_rules(const rules::RuleLibrary& library,
                                         const RuleCheckOptions& options) {
  RuleChecker checker(library, options);
  std::vector<RuleCheckResult> out;
  for (size_t i = 0; i < library.size(); ++i)
    out.push_back(checker.check(i));
  return out;
}

} // namespace volta::rules_check
