#include "engine/prove/dag_forms.hpp"

#include <fmt/format.h>

#include "engine/symbolic/printer.hpp"

namespace volta::prove {

using canonical::Coef;
using canonical::Id;
using symbolic::ExprId;
using symbolic::Node;
using symbolic::Op;

namespace {
constexpr int kMaxDepth = 20000;

Coef coef_of(const symbolic::Rational& q) { return Coef(q); }
}  // namespace

DagForms::DagForms(const symbolic::ExprStore& store, canonical::CanonicalForms& forms)
    : store_(store), forms_(forms) {}

void DagForms::count_parents(const std::vector<ExprId>& roots) {
  if (parents_.size() < store_.size() + 1) {
    parents_.resize(store_.size() + 1, 0);
    seen_.resize(store_.size() + 1, 0);
  }
  const uint32_t visit = ++visit_;
  auto& seen = seen_;
  std::vector<ExprId> stack;
  for (ExprId r : roots) {
    // A root is a sharing point: give it an extra parent.
    if (parents_[r] < 255) ++parents_[r];
    if (seen[r] != visit) {
      seen[r] = visit;
      stack.push_back(r);
    }
  }
  while (!stack.empty()) {
    const ExprId n = stack.back();
    stack.pop_back();
    const Node& node = store_.node(n);
    const ExprId kids[3] = {node.a, node.b, node.c};
    for (int i = 0; i < symbolic::child_count(node.op); ++i) {
      const ExprId k = kids[i];
      if (k == symbolic::kNoExpr) continue;
      if (seen[k] != visit) {
        // Count a parent edge once per visit of the parent (each node is expanded once).
        seen[k] = visit;
        if (memo_.count(k) == 0) stack.push_back(k);
      }
      if (parents_[k] < 255) ++parents_[k];
    }
  }
}

bool DagForms::shared(ExprId node) const { return node < parents_.size() && parents_[node] > 1; }

Id DagForms::form(ExprId node) {
  if (auto it = memo_.find(node); it != memo_.end()) return it->second;
  if (++depth_ > kMaxDepth) {
    --depth_;
    throw canonical::BudgetExceeded("expression nesting is too deep");
  }
  const Id f = compute(node);
  --depth_;
  const Op op = store_.op(node);
  if (shared(node) || symbolic::is_leaf(op)) memo_.emplace(node, f);
  return f;
}

Id DagForms::leaf(ExprId node) {
  const Node& n = store_.node(node);
  switch (n.op) {
    case Op::Const: return forms_.constant(coef_of(store_.rational(node)));
    case Op::Input:
      return forms_.symbol(uint64_t{n.a} << 32 | n.b, fmt::format("{}[{}]", store_.array_name(n.a), n.b));
    case Op::Param: return forms_.symbol((uint64_t{1} << 63) | n.a, store_.param_name(n.a));
    case Op::Ln2: return forms_.symbol((uint64_t{1} << 63) | (uint64_t{1} << 62), "ln2");
    case Op::PosInf: return forms_.pos_inf();
    case Op::NegInf: return forms_.neg_inf();
    case Op::Undef: return forms_.undefined("an uninitialized value");
    case Op::AtomicResult: return forms_.undefined("the value returned by an atomic");
    default: return forms_.undefined(fmt::format("unresolved bit-level value {}", symbolic::leaf_name(store_, node)));
  }
}

Id DagForms::compute(ExprId node) {
  const Node n = store_.node(node);
  switch (n.op) {
    case Op::Add:
    case Op::Sub:
    case Op::Fma:
    case Op::Neg:
      return sum_of(node);
    case Op::Mul:
      return product_of(node);
    case Op::Div: return forms_.div(form(n.a), form(n.b));
    case Op::Rcp: return forms_.div(forms_.constant(Coef(1)), form(n.a));
    case Op::Sqrt: {
      const Id args[1] = {form(n.a)};
      return forms_.apply("sqrt", args);
    }
    case Op::Rsqrt: {
      const Id args[1] = {form(n.a)};
      return forms_.div(forms_.constant(Coef(1)), forms_.apply("sqrt", args));
    }
    case Op::Exp: return forms_.exp(form(n.a));
    case Op::Ex2: {
      const Id ln2 = forms_.symbol((uint64_t{1} << 63) | (uint64_t{1} << 62), "ln2");
      return forms_.exp(forms_.mul(form(n.a), ln2));
    }
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh:
    case Op::Abs: {
      const Id args[1] = {form(n.a)};
      return forms_.apply(symbolic::op_name(n.op), args);
    }
    case Op::Max: return extremum_of(node, true);
    case Op::Min: return extremum_of(node, false);
    case Op::Cmp: {
      using K = canonical::CanonicalForms::Cmp;
      static const K kinds[] = {K::Eq, K::Ne, K::Lt, K::Le, K::Gt, K::Ge};
      return forms_.compare(kinds[n.aux], form(n.a), form(n.b));
    }
    // Predicates are 0/1 values: the boolean operations are polynomials in them.
    case Op::And: return forms_.mul(form(n.a), form(n.b));
    case Op::Or: {
      const Id a = form(n.a), b = form(n.b);
      return forms_.sub(forms_.add(a, b), forms_.mul(a, b));
    }
    case Op::Xor: {
      const Id a = form(n.a), b = form(n.b);
      return forms_.sub(forms_.add(a, b), forms_.mul(forms_.constant(Coef(2)), forms_.mul(a, b)));
    }
    case Op::Not: return forms_.sub(forms_.constant(Coef(1)), form(n.a));
    case Op::Select: return forms_.select(form(n.a), form(n.b), form(n.c));
    case Op::Pack:
    case Op::Extract:
    case Op::BitOp:
      return forms_.undefined(fmt::format("a bit-level operation ({}) on data", symbolic::op_name(n.op)));
    default: return leaf(node);
  }
}

// Flattens a single-use chain of +, -, neg, fma (and scaling by constants) into parts and sums
// them at once.
Id DagForms::sum_of(ExprId root) {
  std::vector<Part> parts;
  std::vector<std::pair<ExprId, Coef>> stack{{root, Coef(1)}};
  while (!stack.empty()) {
    auto [id, scale] = stack.back();
    stack.pop_back();
    const Node n = store_.node(id);
    const bool expand = id == root || (!shared(id) && !memo_.count(id));
    if (!expand) {
      parts.push_back(Part{scale, id, 0});
      continue;
    }
    switch (n.op) {
      case Op::Add:
        stack.emplace_back(n.b, scale);
        stack.emplace_back(n.a, scale);
        break;
      case Op::Sub:
        stack.emplace_back(n.b, -scale);
        stack.emplace_back(n.a, scale);
        break;
      case Op::Neg:
        stack.emplace_back(n.a, -scale);
        break;
      case Op::Fma:
        stack.emplace_back(n.c, scale);
        parts.push_back(Part{scale, n.a, n.b});
        break;
      case Op::Mul:
        // Scaling by a constant stays in the chain (alpha * acc).
        if (is_const(n.a) && id != root) {
          stack.emplace_back(n.b, scale * coef_of(store_.rational(n.a)));
        } else if (is_const(n.b) && id != root) {
          stack.emplace_back(n.a, scale * coef_of(store_.rational(n.b)));
        } else {
          parts.push_back(Part{scale, n.a, n.b});
        }
        break;
      default:
        parts.push_back(Part{scale, id, 0});
        break;
    }
  }
  std::vector<Id> forms;
  forms.reserve(parts.size());
  for (const auto& p : parts) {
    Id f = p.b != 0 ? forms_.mul(form(p.a), form(p.b)) : form(p.a);
    if (!p.scale.is_one()) f = forms_.mul(forms_.constant(p.scale), f);
    forms.push_back(f);
  }
  return forms_.add_all(forms);
}

// Flattens a single-use chain of multiplications.
Id DagForms::product_of(ExprId root) {
  std::vector<ExprId> factors;
  std::vector<ExprId> stack{root};
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    const Node n = store_.node(id);
    if (n.op == Op::Mul && (id == root || (!shared(id) && !memo_.count(id)))) {
      stack.push_back(n.b);
      stack.push_back(n.a);
    } else {
      factors.push_back(id);
    }
  }
  Id acc = forms_.constant(Coef(1));
  for (ExprId f : factors) acc = forms_.mul(acc, form(f));
  return acc;
}

Id DagForms::extremum_of(ExprId root, bool is_max) {
  const Op op = is_max ? Op::Max : Op::Min;
  std::vector<Id> args;
  std::vector<ExprId> stack{root};
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    const Node n = store_.node(id);
    if (n.op == op && (id == root || (!shared(id) && !memo_.count(id)))) {
      stack.push_back(n.b);
      stack.push_back(n.a);
    } else {
      args.push_back(form(id));
    }
  }
  return is_max ? forms_.max(args) : forms_.min(args);
}

}  // namespace volta::prove
