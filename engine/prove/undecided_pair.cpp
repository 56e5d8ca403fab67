#include "engine/prove/undecided_pair.hpp"

#include <fmt/format.h>
#include <map>
#include <unordered_map>
#include <vector>

#include "engine/symbolic/post_order.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::prove {

using symbolic::ExprId;
using symbolic::Op;

UndecidedPair smallest_undecided(const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                                 const std::function<bool(ExprId, ExprId)>& known_equal) {
  UndecidedPair at{ref, opt};
  for (;;) {
    const symbolic::Node &r = store.node(at.ref), &o = store.node(at.opt);
    const int count = symbolic::child_count(r.op);
    if (r.op != o.op || r.aux != o.aux || count == 0 || count != symbolic::child_count(o.op))
      return at;
    const ExprId rk[3] = {r.a, r.b, r.c}, ok[3] = {o.a, o.b, o.c};
    int open = -1, opened = 0;
    for (int i = 0; i < count; ++i) {
      if (rk[i] == ok[i] || known_equal(rk[i], ok[i]))
        continue;
      open = i;
      ++opened;
    }
    if (opened != 1)
      return at; // several operand pairs open (or none: the operation itself): stop here
    at = UndecidedPair{rk[open], ok[open]};
  }
}

namespace {

// The ML language's word for a DAG operator read as a function of its children (ops.def's ml
// column, docs/rules.md), or "". Leaves are printed apart.
const char* ml_word(Op op) {
  return symbolic::is_leaf(op) ? "" : symbolic::ml_name(op);
}

// Prints DAG nodes as the e-graph bridge reads them (engine/prove/egraph_bridge.hpp), so that a
// rule of the printed shape matches there: subtraction as (+ a (neg b)), fma as (+ (* a b) c),
// rcp as (/ 1 x), and a single-use chain of + * max min as one n-ary node.
class RulePrinter {
public:
  RulePrinter(const symbolic::ExprStore& store, size_t max_chars)
      : store_(store), max_(max_chars) {}

  // Counts, for every node below `roots`, its parents there (once per DAG edge).
  void count_uses(const std::vector<ExprId>& roots) {
    std::unordered_map<ExprId, bool> seen;
    for (ExprId root : roots) {
      symbolic::post_order(
          store_, root, [&](ExprId id) { return seen.count(id) != 0; },
          [](ExprId, const symbolic::Node&) { return true; },
          [&](ExprId id) {
            seen.emplace(id, true);
            const symbolic::Node& n = store_.node(id);
            const ExprId k[3] = {n.a, n.b, n.c};
            for (int i = 0; i < symbolic::child_count(n.op); ++i)
              ++uses_[k[i]];
          });
    }
  }

  std::optional<std::string> print(ExprId root) {
    bool ok = true;
    symbolic::post_order(
        store_, root, [&](ExprId id) { return !ok || terms_.count(id) != 0; },
        [](ExprId, const symbolic::Node&) { return true; },
        [&](ExprId id) {
          if (!ok)
            return;
          auto t = node_term(id);
          if (!t || t->text.size() > max_) {
            ok = false;
            return;
          }
          terms_.emplace(id, std::move(*t));
        });
    if (!ok)
      return std::nullopt;
    return terms_.at(root).text;
  }

private:
  struct Term {
    std::string word;              // the operator ("" for a leaf)
    std::vector<std::string> args; // its operands, printed
    std::string text;
  };
  static bool associative(const std::string& w) {
    return w == "+" || w == "*" || w == "max" || w == "min";
  }
  static Term leaf(std::string text) { return Term{"", {}, std::move(text)}; }
  static Term apply(std::string word, std::vector<std::string> args) {
    std::string text = "(" + word;
    for (const std::string& a : args)
      text += " " + a;
    return Term{std::move(word), std::move(args), text + ")"};
  }
  // The operands of an n-ary `word` node with operand `id` spliced in when it is a single-use
  // node of the same operator.
  void add_operand(const std::string& word, ExprId id, std::vector<std::string>& args) {
    const Term& t = terms_.at(id);
    if (t.word == word && associative(word) && uses_[id] <= 1)
      args.insert(args.end(), t.args.begin(), t.args.end());
    else
      args.push_back(t.text);
  }

  std::optional<Term> node_term(ExprId id) {
    const symbolic::Node& n = store_.node(id);
    const ExprId k[3] = {n.a, n.b, n.c};
    switch (n.op) {
    case Op::Const:
      return leaf(symbolic::to_sexpr(store_, id, 200));
    case Op::Input: {
      const std::string name = symbolic::leaf_name(store_, id);
      auto it = vars_.find(name);
      if (it == vars_.end())
        it = vars_.emplace(name, fmt::format("?x{}", vars_.size())).first;
      return leaf(it->second);
    }
    case Op::Sub: {
      std::vector<std::string> args;
      add_operand("+", k[0], args);
      args.push_back("(neg " + terms_.at(k[1]).text + ")");
      return apply("+", std::move(args));
    }
    case Op::Fma: {
      std::vector<std::string> product, args;
      add_operand("*", k[0], product);
      add_operand("*", k[1], product);
      args.push_back(apply("*", std::move(product)).text);
      add_operand("+", k[2], args);
      return apply("+", std::move(args));
    }
    case Op::Rcp:
      return apply("/", {"1", terms_.at(k[0]).text});
    case Op::Narrow:
      return terms_.at(k[0]); // read as exact over the reals (docs/semantics.md)
                              // leaves
    case Op::Param:
    case Op::Undef:
    case Op::PosInf:
    case Op::NegInf:
    case Op::RawBits:
    case Op::Ln2:
    // arithmetic over the reals
    case Op::Add:
    case Op::Mul:
    case Op::Div:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
    case Op::Sqrt:
    case Op::Rsqrt:
    case Op::Exp:
    case Op::Ex2:
    case Op::Lg2:
    case Op::Sin:
    case Op::Cos:
    case Op::Tanh:
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
    const std::string word = ml_word(n.op);
    if (word.empty())
      return std::nullopt;
    std::vector<std::string> args;
    for (int i = 0; i < symbolic::child_count(n.op); ++i)
      add_operand(word, k[i], args);
    return apply(word, std::move(args));
  }

  const symbolic::ExprStore& store_;
  size_t max_;
  std::unordered_map<ExprId, Term> terms_;
  std::unordered_map<ExprId, uint32_t> uses_;
  std::map<std::string, std::string> vars_; // input name -> ?variable (shared by both sides)
};

} // namespace

std::optional<std::string> rule_of_shape(const symbolic::ExprStore& store, UndecidedPair pair,
                                         const std::string& name, size_t max_chars) {
  RulePrinter printer(store, max_chars);
  printer.count_uses({pair.ref, pair.opt});
  const auto lhs = printer.print(pair.ref);
  if (!lhs)
    return std::nullopt;
  const auto rhs = printer.print(pair.opt);
  if (!rhs)
    return std::nullopt;
  return fmt::format("(rule {} {} {})", name, *lhs, *rhs);
}

} // namespace volta::prove
