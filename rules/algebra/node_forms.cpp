#include "rules/algebra/node_forms.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <vector>

namespace volta::algebra {

using canonical::Coef;
using canonical::Id;
using Cmp = canonical::CanonicalForms::Cmp;

namespace {
// Symbol keys: interned symbol payloads are small; ln2 has a key of its own.
constexpr uint64_t kLn2Key = uint64_t{1} << 62;
} // namespace

Id NodeForms::unary_function(const char* name, Id arg) {
  const Id args[1] = {arg};
  return forms_.apply(name, args);
}

bool NodeForms::product_too_large(Id a, Id b) {
  // The terms of a form's expanded numerator: the product of its factors' sums' sizes.
  const auto terms = [&](Id id) {
    const canonical::Form& f = forms_.form(id);
    if (f.kind != canonical::Form::Kind::Finite)
      return std::size_t{1};
    std::size_t n = 1;
    for (const auto& [sum, power] : f.num) {
      for (int32_t k = 0; k < power && n <= kBooleanTerms; ++k)
        n *= forms_.sum(sum).terms.size();
    }
    return n;
  };
  const std::size_t x = terms(a), y = terms(b);
  return x > kBooleanTerms || y > kBooleanTerms || x * y > kBooleanTerms;
}

Id NodeForms::form(egraph::OpId op, egraph::Payload payload, std::span<const Id> kids) {
  const MlLanguage& m = ml_;
  auto kid = [&](std::size_t i) {
    if (i >= kids.size())
      throw std::invalid_argument("NodeForms: operator '" + lang_.op(op).name +
                                  "' has too few children");
    return kids[i];
  };
  if (op == m.num)
    return forms_.constant(Coef(lang_.rational(payload)));
  if (op == m.sym)
    return forms_.symbol(payload, lang_.symbol_name(payload));
  if (op == m.ln2)
    return forms_.positive_symbol(kLn2Key, "ln2");
  if (op == m.pos_inf)
    return forms_.pos_inf();
  if (op == m.neg_inf)
    return forms_.neg_inf();
  if (op == m.opaque)
    return forms_.undefined(opaque_reason_ ? opaque_reason_(payload)
                                           : "a value outside the algebra (opaque " +
                                                 std::to_string(payload) + ")");
  if (op == m.add)
    return forms_.add_all(kids);
  if (op == m.mul) {
    Id acc = forms_.constant(Coef(1));
    for (Id k : kids)
      acc = forms_.mul(acc, k);
    return acc;
  }
  if (op == m.max)
    return forms_.max(kids);
  if (op == m.min)
    return forms_.min(kids);
  if (op == m.div)
    return forms_.div(kid(0), kid(1));
  if (op == m.neg)
    return forms_.neg(kid(0));
  if (op == m.exp)
    return forms_.exp(kid(0));
  if (op == m.ex2)
    return forms_.exp(forms_.mul(kid(0), forms_.positive_symbol(kLn2Key, "ln2")));
  // Functions outside the algebra are atoms named by their ML word (rules/appliers.cpp reads
  // them back by it).
  if (op == m.sqrt || op == m.log2 || op == m.sin || op == m.cos || op == m.tanh || op == m.abs)
    return unary_function(lang_.op(op).name.c_str(), kid(0));
  if (op == m.rsqrt)
    return forms_.div(forms_.constant(Coef(1)),
                      unary_function(lang_.op(m.sqrt).name.c_str(), kid(0)));
  if (op == m.lt)
    return forms_.compare(Cmp::Lt, kid(0), kid(1));
  if (op == m.le)
    return forms_.compare(Cmp::Le, kid(0), kid(1));
  if (op == m.gt)
    return forms_.compare(Cmp::Gt, kid(0), kid(1));
  if (op == m.ge)
    return forms_.compare(Cmp::Ge, kid(0), kid(1));
  if (op == m.eq)
    return forms_.compare(Cmp::Eq, kid(0), kid(1));
  if (op == m.ne)
    return forms_.compare(Cmp::Ne, kid(0), kid(1));
  // Predicates are 0/1 values: the boolean operations are polynomials in them (as in the DAG).
  // Up to a size: the polynomial of a disjunction of n predicates (a + b - ab, nested) has 2^n
  // terms, so one of large operands is an uninterpreted function of them instead (a vote.any of
  // a warp is 32 of them; the expansion ran into the term budget after seconds). Sound either
  // way; equal only where both kernels build the same operands.
  if ((op == m.land || op == m.lor || op == m.lxor) && product_too_large(kid(0), kid(1))) {
    std::array<Id, 2> args{forms_.canonical(kid(0)), forms_.canonical(kid(1))};
    std::sort(args.begin(), args.end()); // each of the three commutes
    return forms_.apply(lang_.op(op).name, args);
  }
  if (op == m.land)
    return forms_.mul(kid(0), kid(1));
  if (op == m.lor)
    return forms_.sub(forms_.add(kid(0), kid(1)), forms_.mul(kid(0), kid(1)));
  if (op == m.lxor)
    return forms_.sub(forms_.add(kid(0), kid(1)),
                      forms_.mul(forms_.constant(Coef(2)), forms_.mul(kid(0), kid(1))));
  if (op == m.lnot)
    return forms_.sub(forms_.constant(Coef(1)), kid(0));
  if (op == m.select)
    return forms_.select(kid(0), kid(1), kid(2));
  return forms_.undefined("operator '" + lang_.op(op).name + "' has no canonical form");
}

Id NodeForms::form_of_tree(const egraph::TreeTerm& t) {
  // Iterative post-order: terms of long reductions are deep.
  struct Frame {
    const egraph::TreeTerm* term;
    std::size_t next = 0;
    std::vector<Id> kids;
  };
  std::vector<Frame> stack;
  stack.push_back(Frame{&t, 0, {}});
  Id result = 0;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.term->children.size()) {
      const egraph::TreeTerm* child = &top.term->children[top.next++];
      stack.push_back(Frame{child, 0, {}});
      continue;
    }
    const Id f = form(top.term->op, top.term->payload, top.kids);
    stack.pop_back();
    if (stack.empty())
      result = f;
    else
      stack.back().kids.push_back(f);
  }
  return result;
}

} // namespace volta::algebra
