#include "engine/smt/translate.hpp"

#include <fmt/format.h>
#include <unordered_map>
#include <unordered_set>

#include "engine/symbolic/printer.hpp"

namespace volta::smt {

using symbolic::ExprId;
using symbolic::Node;
using symbolic::Op;

const char* fn_name(Fn fn) {
  switch (fn) {
  case Fn::Exp:
    return "exp";
  case Fn::Sqrt:
    return "sqrt";
  case Fn::Lg2:
    return "lg2";
  case Fn::Sin:
    return "sin";
  case Fn::Cos:
    return "cos";
  default:
    return "tanh";
  }
}

namespace {

constexpr int kFnCount = 6;

bool supported(Op op) {
  switch (op) {
  case Op::Undef:
  case Op::PosInf:
  case Op::NegInf:
  case Op::RawBits:
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
    return false;
  default:
    return op < Op::Count_;
  }
}

std::string unsupported(const symbolic::ExprStore& store, ExprId id) {
  return fmt::format("unsupported by the Z3 translation: {} in {}", symbolic::op_name(store.op(id)),
                     symbolic::to_sexpr(store, id, 120));
}

std::string too_large(size_t max_nodes) {
  return fmt::format("the element has more than {} DAG nodes (Z3 translation limit)", max_nodes);
}

bool is_sum(Op op) {
  return op == Op::Add || op == Op::Sub || op == Op::Fma;
}

class Translator {
public:
  Translator(z3::context& ctx, const symbolic::ExprStore& store, Translation& out)
      : ctx_(ctx), store_(store), out_(out), zero_(ctx.real_val(0)), one_(ctx.real_val(1)) {
    // Function names are reserved first so that a parameter can never share a name with one.
    for (int f = 0; f < kFnCount; ++f)
      used_names_.insert(fn_name(static_cast<Fn>(f)));
    used_names_.insert("ln2");
  }

  // Visits the DAG below the roots once: post order, parent counts, refusals.
  std::optional<std::string> collect(const std::vector<ExprId>& roots, size_t max_nodes) {
    std::vector<std::pair<ExprId, bool>> stack;
    for (ExprId r : roots)
      stack.emplace_back(r, false);
    while (!stack.empty()) {
      auto [id, expanded] = stack.back();
      stack.pop_back();
      if (expanded) {
        order_.push_back(id);
        continue;
      }
      Info& me = info_[id];
      if (me.visited)
        continue;
      me.visited = true;
      if (++visited_ > max_nodes)
        return too_large(max_nodes);
      const Node& n = store_.node(id);
      if (!supported(n.op))
        return unsupported(store_, id);
      stack.emplace_back(id, true);
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i) {
        if (kids[i] == symbolic::kNoExpr)
          continue;
        Info& k = info_[kids[i]]; // references into an unordered_map survive rehashing
        ++k.parents;
        // The accumulator operands of a sum may be folded into it (see inlined()).
        k.sum_operand |= is_sum(n.op) && (n.op != Op::Fma || i == 2);
        if (!k.visited)
          stack.emplace_back(kids[i], false);
      }
    }
    for (ExprId r : roots)
      info_[r].root = true;
    return std::nullopt;
  }

  void translate_all() {
    for (ExprId id : order_) {
      if (inlined(id))
        continue;
      exprs_.emplace(id, translate(id));
      if (auto d = domain(id))
        defs_.emplace(id, *d);
    }
    out_.dag_nodes = order_.size();
  }

  z3::expr get(ExprId id) const { return exprs_.at(id); }
  // Where the node is defined; nullopt: everywhere.
  std::optional<z3::expr> defined(ExprId id) const {
    auto it = defs_.find(id);
    if (it == defs_.end())
      return std::nullopt;
    return it->second;
  }

private:
  struct Info {
    uint32_t parents = 0;
    bool sum_operand = false;
    bool root = false;
    bool visited = false;
  };

  // A sum used once, as an operand of another sum, is folded into that sum: a K-term reduction
  // chain becomes one K-ary Z3 sum instead of K nested binary ones (shallower terms, fewer
  // memo entries). Shared sums keep their own term so that Z3 sees the sharing.
  bool inlined(ExprId id) const {
    const Info& i = info_.at(id);
    return is_sum(store_.op(id)) && i.parents == 1 && i.sum_operand && !i.root;
  }

  std::string unique_name(std::string name) {
    if (used_names_.insert(name).second)
      return name;
    for (int k = 1;; ++k) {
      std::string candidate = fmt::format("{}!{}", name, k);
      if (used_names_.insert(candidate).second)
        return candidate;
    }
  }

  z3::func_decl function(Fn fn) {
    auto& slot = functions_[static_cast<int>(fn)];
    if (!slot)
      slot = z3::function(fn_name(fn), ctx_.real_sort(), ctx_.real_sort());
    return *slot;
  }

  z3::expr apply(Fn fn, const z3::expr& arg, ExprId node) {
    z3::expr app = function(fn)(arg);
    if (seen_uses_.insert(Z3_get_ast_id(ctx_, app)).second) {
      out_.uses.push_back(FnUse{fn, arg, app, node});
    }
    return app;
  }

  z3::expr divide(const z3::expr& num, const z3::expr& den) {
    ++out_.divisions;
    return num / den;
  }

  // The conjunction of the conditions that are not `true`; nullopt when none is left. One
  // condition is passed on as it is, so chains of defined-everywhere nodes build no terms.
  std::optional<z3::expr> all_of(const std::vector<std::optional<z3::expr>>& conditions) {
    std::vector<Z3_ast> parts;
    const z3::expr* single = nullptr;
    for (const auto& c : conditions) {
      if (!c)
        continue;
      parts.push_back(*c);
      single = &*c;
    }
    if (parts.empty())
      return std::nullopt;
    if (parts.size() == 1)
      return *single;
    z3::expr conj(ctx_, Z3_mk_and(ctx_, static_cast<unsigned>(parts.size()), parts.data()));
    ctx_.check_error();
    return conj;
  }

  // Where node `id` is defined over the reals, from its children's conditions.
  std::optional<z3::expr> domain(ExprId id) {
    const Node& n = store_.node(id);
    switch (n.op) {
    case Op::Add:
    case Op::Sub:
    case Op::Fma:
      return all_of(sum_domains(id));
    case Op::Div:
      return all_of({defined(n.a), defined(n.b), get(n.b) != zero_});
    case Op::Rcp:
      return all_of({defined(n.a), get(n.a) != zero_});
    case Op::Sqrt:
      return all_of({defined(n.a), get(n.a) >= zero_});
    case Op::Rsqrt:
    case Op::Lg2:
      return all_of({defined(n.a), get(n.a) > zero_});
    case Op::Select: {
      const auto on_true = defined(n.b), on_false = defined(n.c);
      std::optional<z3::expr> branch;
      if (on_true || on_false) {
        branch = z3::ite(holds(n.a), on_true ? *on_true : ctx_.bool_val(true),
                         on_false ? *on_false : ctx_.bool_val(true));
      }
      return all_of({defined(n.a), branch});
    }
    default: {
      std::vector<std::optional<z3::expr>> kids;
      const ExprId ids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i) {
        if (ids[i] != symbolic::kNoExpr)
          kids.push_back(defined(ids[i]));
      }
      return all_of(kids);
    }
    }
  }

  // The domains of the operands of a sum, through the sums folded into it.
  std::vector<std::optional<z3::expr>> sum_domains(ExprId root) {
    std::vector<std::optional<z3::expr>> out;
    std::vector<ExprId> stack{root};
    while (!stack.empty()) {
      const ExprId id = stack.back();
      stack.pop_back();
      if (id != root && !inlined(id)) {
        out.push_back(defined(id));
        continue;
      }
      const Node& n = store_.node(id);
      stack.push_back(n.a);
      stack.push_back(n.b);
      if (n.op == Op::Fma)
        stack.push_back(n.c);
    }
    return out;
  }

  z3::expr ln2() {
    if (!out_.ln2)
      out_.ln2 = ctx_.real_const("ln2");
    return *out_.ln2;
  }

  z3::expr truth(const z3::expr& predicate) { return z3::ite(predicate, one_, zero_); }
  z3::expr holds(ExprId id) { return get(id) != zero_; }

  z3::expr leaf(ExprId id) {
    z3::expr c = ctx_.real_const(unique_name(symbolic::leaf_name(store_, id)).c_str());
    out_.leaves.emplace_back(id, c);
    return c;
  }

  // The terms of a sum, walking down through the sums folded into it.
  z3::expr sum(ExprId root) {
    std::vector<Z3_ast> terms;
    z3::expr_vector keep(ctx_); // owns the terms built here until Z3_mk_add takes them
    auto add_term = [&](const z3::expr& t, bool negative) {
      keep.push_back(negative ? -t : t);
      terms.push_back(keep.back());
    };
    std::vector<std::pair<ExprId, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [id, negative] = stack.back();
      stack.pop_back();
      if (id != root && !inlined(id)) {
        add_term(get(id), negative);
        continue;
      }
      const Node& n = store_.node(id);
      switch (n.op) {
      case Op::Add:
        stack.emplace_back(n.b, negative);
        stack.emplace_back(n.a, negative);
        break;
      case Op::Sub:
        stack.emplace_back(n.b, !negative);
        stack.emplace_back(n.a, negative);
        break;
      default: // Fma
        add_term(get(n.a) * get(n.b), negative);
        stack.emplace_back(n.c, negative);
        break;
      }
    }
    Z3_ast s = Z3_mk_add(ctx_, static_cast<unsigned>(terms.size()), terms.data());
    ctx_.check_error();
    return z3::expr(ctx_, s);
  }

  z3::expr compare(symbolic::CmpKind k, const z3::expr& a, const z3::expr& b) {
    switch (k) {
    case symbolic::CmpKind::Eq:
      return a == b;
    case symbolic::CmpKind::Ne:
      return a != b;
    case symbolic::CmpKind::Lt:
      return a < b;
    case symbolic::CmpKind::Le:
      return a <= b;
    case symbolic::CmpKind::Gt:
      return a > b;
    default:
      return a >= b;
    }
  }

  z3::expr translate(ExprId id) {
    const Node& n = store_.node(id);
    switch (n.op) {
    case Op::Const:
      return ctx_.real_val(store_.rational(id).get_str().c_str());
    case Op::Input:
    case Op::Param:
      return leaf(id);
    case Op::Ln2:
      return ln2();
    case Op::Add:
    case Op::Sub:
    case Op::Fma:
      return sum(id);
    case Op::Mul:
      return get(n.a) * get(n.b);
    case Op::Div:
      return divide(get(n.a), get(n.b));
    case Op::Rcp:
      return divide(one_, get(n.a));
    case Op::Neg:
      return -get(n.a);
    case Op::Abs: {
      const z3::expr a = get(n.a);
      return z3::ite(a >= zero_, a, -a);
    }
    case Op::Min:
    case Op::Max: {
      const z3::expr a = get(n.a), b = get(n.b);
      return z3::ite(n.op == Op::Max ? a >= b : a <= b, a, b);
    }
    case Op::Sqrt:
      return apply(Fn::Sqrt, get(n.a), id);
    case Op::Rsqrt:
      return divide(one_, apply(Fn::Sqrt, get(n.a), id));
    case Op::Exp:
      return apply(Fn::Exp, get(n.a), id);
    // 2^x = e^(x ln 2) for every real x: one exp function, so that the exp laws relate ex2
    // and exp terms (softmax kernels mix __expf and exp2f).
    case Op::Ex2:
      return apply(Fn::Exp, get(n.a) * ln2(), id);
    case Op::Lg2:
      return apply(Fn::Lg2, get(n.a), id);
    case Op::Sin:
      return apply(Fn::Sin, get(n.a), id);
    case Op::Cos:
      return apply(Fn::Cos, get(n.a), id);
    case Op::Tanh:
      return apply(Fn::Tanh, get(n.a), id);
    // Predicates are the reals 0 and 1 in the DAG; any nonzero value counts as true, as in
    // the evaluator.
    case Op::Cmp:
      return truth(compare(static_cast<symbolic::CmpKind>(n.aux), get(n.a), get(n.b)));
    case Op::And:
      return truth(holds(n.a) && holds(n.b));
    case Op::Or:
      return truth(holds(n.a) || holds(n.b));
    case Op::Xor:
      return truth(holds(n.a) != holds(n.b));
    case Op::Not:
      return truth(!holds(n.a));
    case Op::Select:
      return z3::ite(holds(n.a), get(n.b), get(n.c));
    default: // refused in collect()
      throw std::logic_error("untranslatable node reached translate()");
    }
  }

  z3::context& ctx_;
  const symbolic::ExprStore& store_;
  Translation& out_;
  z3::expr zero_;
  z3::expr one_;
  std::unordered_map<ExprId, Info> info_;
  size_t visited_ = 0;
  std::vector<ExprId> order_; // post order: children before parents
  std::unordered_map<ExprId, z3::expr> exprs_;
  std::unordered_map<ExprId, z3::expr> defs_; // only nodes not defined everywhere
  std::optional<z3::func_decl> functions_[kFnCount];
  std::unordered_set<unsigned> seen_uses_;
  std::unordered_set<std::string> used_names_;
};

} // namespace

std::optional<std::string> translation_refusal(const symbolic::ExprStore& store, ExprId ref,
                                               ExprId opt, const TranslateOptions& options) {
  std::unordered_set<ExprId> seen;
  std::vector<ExprId> stack{ref, opt};
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    if (!seen.insert(id).second)
      continue;
    if (seen.size() > options.max_nodes)
      return too_large(options.max_nodes);
    const Node& n = store.node(id);
    if (!supported(n.op))
      return unsupported(store, id);
    const ExprId kids[3] = {n.a, n.b, n.c};
    for (int i = 0; i < symbolic::child_count(n.op); ++i) {
      if (kids[i] != symbolic::kNoExpr)
        stack.push_back(kids[i]);
    }
  }
  return std::nullopt;
}

std::variant<Translation, std::string> translate_pair(z3::context& ctx,
                                                      const symbolic::ExprStore& store, ExprId ref,
                                                      ExprId opt, const TranslateOptions& options) {
  Translation out(ctx);
  {
    Translator t(ctx, store, out);
    if (auto refused = t.collect({ref, opt}, options.max_nodes))
      return *refused;
    t.translate_all();
    out.ref = t.get(ref);
    out.opt = t.get(opt);
    out.ref_defined = t.defined(ref);
    out.opt_defined = t.defined(opt);
  }
  return out;
}

} // namespace volta::smt
