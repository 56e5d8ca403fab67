#include "engine/prove/egraph_bridge.hpp"

#include <fmt/format.h>
#include <stdexcept>

#include "engine/symbolic/printer.hpp"
#include "support/invariant.hpp"

namespace volta::prove {

using egraph::Id;
using symbolic::ExprId;
using symbolic::Node;
using symbolic::Op;
using symbolic::Rational;

namespace {
constexpr int kMaxDepth = 20000;
} // namespace

EgraphBridge::EgraphBridge(const symbolic::ExprStore& store, algebra::MlLanguage& ml,
                           egraph::EGraph& g)
    : store_(store), ml_(ml), g_(g) {
  // The ML words of ops.def: a word the language lacks throws here (std::invalid_argument), for
  // every bridge, so the table and rules/algebra/ml_language.cpp cannot drift apart.
  for (size_t i = 0; i < symbolic::kOpCount; ++i) {
    const char* word = symbolic::kOps[i].ml;
    if (*word != '\0')
      ml_ops_[i] = ml.lang.op_id(word);
  }
}

egraph::OpId EgraphBridge::ml_op(Op op) const {
  // An operator without an ML word has no e-graph counterpart: mapping it to some other
  // operator's id would prove a wrong equality.
  if (*symbolic::ml_name(op) == '\0')
    VOLTA_UNREACHABLE("an operator without an ML word reached the e-graph bridge");
  return ml_ops_[static_cast<size_t>(op)];
}

EgraphBridge::CountPage& EgraphBridge::count_page(ExprId id) {
  const size_t index = id >> CountPage::kBits;
  if (index >= count_pages_.size())
    count_pages_.resize(index + 1);
  if (!count_pages_[index])
    count_pages_[index] = std::make_unique<CountPage>();
  return *count_pages_[index];
}

void EgraphBridge::count_parents(const std::vector<ExprId>& roots) {
  const uint32_t visit = ++visit_;
  constexpr uint32_t kMask = (1u << CountPage::kBits) - 1;
  std::vector<ExprId> stack;
  for (ExprId r : roots) {
    CountPage& page = count_page(r);
    if (page.parents[r & kMask] < 255)
      ++page.parents[r & kMask]; // a root is a sharing point: an extra parent
    if (page.seen[r & kMask] != visit) {
      page.seen[r & kMask] = visit;
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
      if (k == symbolic::kNoExpr)
        continue;
      CountPage& page = count_page(k);
      if (page.seen[k & kMask] != visit) {
        page.seen[k & kMask] = visit; // one parent edge per visit of the parent
        if (memo_.count(k) == 0)
          stack.push_back(k);
      }
      if (page.parents[k & kMask] < 255)
        ++page.parents[k & kMask];
    }
  }
}

bool EgraphBridge::shared(ExprId node) const {
  const size_t index = node >> CountPage::kBits;
  return index < count_pages_.size() && count_pages_[index] &&
         count_pages_[index]->parents[node & ((1u << CountPage::kBits) - 1)] > 1;
}

bool EgraphBridge::expandable(ExprId id, ExprId root) const {
  return id == root || (!shared(id) && memo_.count(id) == 0);
}

Id EgraphBridge::add(ExprId node) {
  if (auto it = memo_.find(node); it != memo_.end())
    return g_.find(it->second);
  if (++depth_ > kMaxDepth) {
    --depth_;
    throw std::length_error("expression nesting is too deep for the e-graph");
  }
  const Id id = compute(node);
  --depth_;
  if (shared(node) || symbolic::is_leaf(store_.op(node)))
    memo_.emplace(node, id);
  return id;
}

std::string EgraphBridge::opaque_reason(egraph::Payload payload) const {
  auto it = opaque_reasons_.find(payload);
  return it == opaque_reasons_.end() ? "a value outside the algebra" : it->second;
}

Id EgraphBridge::opaque(ExprId node, std::string reason) {
  // Nodes of one bit class are the same IEEE computation, hence the same value: one leaf. This
  // matters where hash-consing misses: a reduction chain is appended per kernel, not interned,
  // so the two kernels' (a + b) + c are two nodes, and their bits or their cvt.rni two leaves.
  ExprId key = node;
  if (const uint32_t c = bits_.class_of(node))
    key = opaque_of_class_.try_emplace(c, node).first->second;
  opaque_reasons_.emplace(key, std::move(reason));
  ++added_;
  return g_.add_leaf(ml_.opaque, key);
}

Id EgraphBridge::leaf(ExprId node) {
  const Node& n = store_.node(node);
  ++added_;
  switch (n.op) {
  case Op::Const:
    return g_.add_constant(store_.rational(node));
  case Op::Input:
    return g_.add_symbol(fmt::format("{}[{}]", store_.array_name(n.a), n.b));
  case Op::Param:
    return g_.add_symbol(store_.param_name(n.a));
  case Op::Ln2:
  case Op::PosInf:
  case Op::NegInf:
    return g_.add_leaf(ml_op(n.op), 0);
  case Op::Undef:
    return opaque(node, "an uninitialized value");
  case Op::AtomicResult:
    return opaque(node, "the value returned by an atomic");
    // leaves
  case Op::RawBits:
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
    --added_;
    return opaque(node,
                  fmt::format("unresolved bit-level value {}", symbolic::leaf_name(store_, node)));
  }
  symbolic::unknown_op(n.op); // a value outside ops.def
}

Id EgraphBridge::unary(egraph::OpId op, ExprId child) {
  const Id k = add(child);
  ++added_;
  return g_.add(op, {k});
}

Id EgraphBridge::compute(ExprId node) {
  const Node n = store_.node(node);
  auto binary = [&](egraph::OpId op) {
    const Id a = add(n.a), b = add(n.b);
    ++added_;
    return g_.add(op, {a, b});
  };
  switch (n.op) {
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Select:
    // A condition the signs decide over the reals (a sum of exponentials == 0, x > -inf):
    // its operands' domain conditions are checked apart (prove/domain_conditions.hpp).
    if (auto decided = signs_.decide(n.op == Op::Select ? n.a : node)) {
      if (n.op == Op::Select)
        return add(*decided ? n.b : n.c);
      ++added_;
      return g_.add_constant(*decided ? 1 : 0);
    }
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
  switch (n.op) {
  case Op::Add:
  case Op::Sub:
  case Op::Fma:
  case Op::Neg:
    return sum_of(node);
  case Op::IAdd: // integer ring operations: a polynomial identity over Z holds modulo 2^w
  case Op::INeg:
    return sum_of(node);
  case Op::Mul:
  case Op::IMul:
    return product_of(node);
  case Op::FloatBits:
    if (store_.op(n.a) == Op::Input) { // the integer view of an input: a symbol of its own
      const Node& x = store_.node(n.a);
      ++added_;
      return g_.add_symbol(fmt::format("{}[{}]:b{}", store_.array_name(x.a), x.b,
                                       n.aux == symbolic::kFormatBF16 ? 16u : 8u << n.aux));
    }
    return opaque(node, "the bits of a float used as an integer");
  case Op::BitsFloat:
    return opaque(node, "integer bits read as a float");
  case Op::ICmp:
  case Op::BitOp:
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
    // Exact operations outside the algebra: equal only to the same term.
    return opaque(node, fmt::format("the {} operation on data", symbolic::op_name(n.op)));
  case Op::Fresh:
    return opaque(node, "a value that depends on the schedule or the hardware");
  case Op::Narrow: // the same real number: a rounding to a narrower format is idealized
    return add(n.a);
  case Op::Div:
  case Op::And:
  case Op::Or:
  case Op::Xor:
    return binary(ml_op(n.op));
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Exp:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
  case Op::Abs:
  case Op::Not:
    return unary(ml_op(n.op), n.a);
  case Op::Rcp: {
    const Id x = add(n.a);
    ++added_;
    return g_.add(ml_.div, {g_.add_constant(1), x});
  }
  case Op::Max:
    return extremum_of(node, true);
  case Op::Min:
    return extremum_of(node, false);
  case Op::Cmp: {
    const egraph::OpId ops[] = {ml_.eq, ml_.ne, ml_.lt, ml_.le, ml_.gt, ml_.ge};
    return binary(ops[n.aux & 7]);
  }
  case Op::Select: {
    const Id c = add(n.a), a = add(n.b), b = add(n.c);
    ++added_;
    return g_.add(ml_.select, {c, a, b});
  }
  case Op::Pack:
  case Op::Extract:
    return opaque(node, fmt::format("a bit-level operation ({}) on data", symbolic::op_name(n.op)));
    // leaves
  case Op::Const:
  case Op::Input:
  case Op::Param:
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
  case Op::Ln2:
  // bit-level views of symbolic values
  case Op::AtomicResult:
    return leaf(node);
  }
  symbolic::unknown_op(n.op); // a value outside ops.def
}

// A single-use chain of +, -, neg, fma and constant scalings as one n-ary sum.
Id EgraphBridge::sum_of(ExprId root) {
  std::vector<Part> parts;
  std::vector<std::pair<ExprId, Rational>> stack{{root, Rational(1)}};
  auto is_const = [&](ExprId id) { return store_.op(id) == Op::Const; };
  while (!stack.empty()) {
    auto [id, scale] = stack.back();
    stack.pop_back();
    const Node n = store_.node(id);
    if (!expandable(id, root)) {
      parts.push_back(Part{scale, id, 0});
      continue;
    }
    switch (n.op) {
    case Op::Add:
    case Op::IAdd:
      stack.emplace_back(n.b, scale);
      stack.emplace_back(n.a, scale);
      break;
    case Op::Sub:
      stack.emplace_back(n.b, -scale);
      stack.emplace_back(n.a, scale);
      break;
    case Op::Neg:
    case Op::INeg:
      stack.emplace_back(n.a, -scale);
      break;
    case Op::Fma:
      stack.emplace_back(n.c, scale);
      parts.push_back(Part{scale, n.a, n.b});
      break;
    case Op::Mul:
    case Op::IMul:
      // Scaling by a constant stays in the chain (alpha * acc).
      if (is_const(n.a) && id != root) {
        stack.emplace_back(n.b, scale * store_.rational(n.a));
      } else if (is_const(n.b) && id != root) {
        stack.emplace_back(n.a, scale * store_.rational(n.b));
      } else {
        parts.push_back(Part{scale, n.a, n.b});
      }
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
    case Op::Div:
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
    case Op::ICmp:
    // conversions between the types, each its own operator
    case Op::IntToReal:
    case Op::RealToInt:
    case Op::RoundReal:
    case Op::FloatBits:
    case Op::BitsFloat:
    case Op::Fresh:
      parts.push_back(Part{scale, id, 0});
      break;
    }
  }
  std::vector<Id> elements;
  elements.reserve(parts.size());
  for (const auto& p : parts) {
    std::vector<Id> factors;
    if (p.b != 0) {
      collect_factors(p.a, false, factors);
      collect_factors(p.b, false, factors);
    } else {
      factors.push_back(add(p.a));
    }
    if (p.scale != 1 && p.scale != -1)
      factors.push_back(g_.add_constant(p.scale));
    Id element = factors[0];
    if (factors.size() > 1) {
      ++added_;
      element = g_.add(ml_.mul, factors);
    }
    if (p.scale == -1) {
      ++added_;
      element = g_.add(ml_.neg, {element});
    }
    elements.push_back(element);
  }
  if (elements.size() == 1)
    return elements[0];
  ++added_;
  return g_.add(ml_.add, elements);
}

// Appends the factors of a chain of single-use multiplications below `root` (root itself is
// expanded when `expand_root`, else only if it is single-use too).
void EgraphBridge::collect_factors(ExprId root, bool expand_root, std::vector<Id>& factors) {
  std::vector<ExprId> stack{root};
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    const Node n = store_.node(id);
    const bool expand = (n.op == Op::Mul || n.op == Op::IMul) &&
                        (id == root ? expand_root || expandable(id, 0) : expandable(id, root));
    if (expand) {
      stack.push_back(n.b);
      stack.push_back(n.a);
    } else {
      factors.push_back(add(id));
    }
  }
}

Id EgraphBridge::product_of(ExprId root) {
  std::vector<Id> factors;
  collect_factors(root, true, factors);
  if (factors.size() == 1)
    return factors[0];
  ++added_;
  return g_.add(ml_.mul, factors);
}

Id EgraphBridge::extremum_of(ExprId root, bool is_max) {
  const Op op = is_max ? Op::Max : Op::Min;
  std::vector<Id> args;
  std::vector<ExprId> stack{root};
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    const Node n = store_.node(id);
    if (n.op == op && expandable(id, root)) {
      stack.push_back(n.b);
      stack.push_back(n.a);
    } else {
      args.push_back(add(id));
    }
  }
  if (args.size() == 1)
    return args[0];
  ++added_;
  return g_.add(is_max ? ml_.max : ml_.min, args);
}

} // namespace volta::prove
