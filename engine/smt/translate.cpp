#include "engine/smt/translate.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "engine/symbolic/bit_equality.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/exact_terms.hpp"
#include "engine/symbolic/int_semantics.hpp"
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
  return symbolic::z3_supported(op);
}

// Integer operations are bit-vector terms (docs/semantics.md); reinterpretations of real data
// other than an input's integer view have no translation.
bool supported_node(const symbolic::ExprStore& store, ExprId id) {
  const Node& n = store.node(id);
  if (n.op == Op::FloatBits)
    return store.op(n.a) == Op::Input;
  // The translation rounds to the format's precision, not to its range: an f16 conversion that
  // may overflow to an infinity has none.
  if (n.op == Op::IntToReal && symbolic::int_to_real_may_overflow(n.aux))
    return false;
  if (n.op != Op::BitOp)
    return supported(n.op);
  switch (static_cast<symbolic::BitOpKind>(n.aux & 31)) {
  case symbolic::BitOpKind::Shl:
  case symbolic::BitOpKind::Shr:
  case symbolic::BitOpKind::And:
  case symbolic::BitOpKind::Or:
  case symbolic::BitOpKind::Xor:
  case symbolic::BitOpKind::Not:
  case symbolic::BitOpKind::CNot:
  case symbolic::BitOpKind::MulHi:
  case symbolic::BitOpKind::Mul24Lo:
  case symbolic::BitOpKind::Mul24Hi:
  case symbolic::BitOpKind::Div:
  case symbolic::BitOpKind::Rem:
  case symbolic::BitOpKind::Min:
  case symbolic::BitOpKind::Max:
  case symbolic::BitOpKind::Abs:
  case symbolic::BitOpKind::Sad:
  case symbolic::BitOpKind::Ext:
  case symbolic::BitOpKind::ExtSat:
  case symbolic::BitOpKind::SatAdd:
  case symbolic::BitOpKind::SatSub:
  case symbolic::BitOpKind::Popc:
  case symbolic::BitOpKind::Clz:
  case symbolic::BitOpKind::Brev:
  case symbolic::BitOpKind::Bfe:
  case symbolic::BitOpKind::Bfi:
  case symbolic::BitOpKind::Prmt:
  case symbolic::BitOpKind::Lop3:
  case symbolic::BitOpKind::ShfL:
  case symbolic::BitOpKind::ShfR:
  case symbolic::BitOpKind::Tuple: // the third and fourth operands of bfi, lop3, shf
    return true;
  default:
    return false;
  }
}

// z3::ite whose operands must have one sort and a Boolean condition: Z3_mk_ite crashed on a
// real arm against a bit-vector one (pair fuzzer, tests/fuzz/crashers/z3_ite_segfault). A
// mismatch is refused (translate_pair turns the logic_error into a refusal).
z3::expr checked_ite(const z3::expr& condition, const z3::expr& on_true, const z3::expr& on_false) {
  if (!condition.is_bool() || !z3::eq(on_true.get_sort(), on_false.get_sort()))
    throw std::logic_error("an if-then-else whose operands have different sorts");
  return z3::ite(condition, on_true, on_false);
}

// z3's ordering operators assert on operands of different sorts (and build a null term where
// asserts are off): a real against bit-vector bits is refused like checked_ite's mismatch.
const z3::expr& same_sort_as(const z3::expr& a, const z3::expr& b) {
  if (!(a.is_arith() && b.is_arith()) && !z3::eq(a.get_sort(), b.get_sort()))
    throw std::logic_error("a comparison whose operands have different sorts");
  return a;
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
      if (!supported_node(store_, id))
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

  // False when `cancel` was seen set (the translation is then incomplete).
  bool translate_all(const std::atomic<bool>* cancel) {
    size_t done = 0;
    for (ExprId id : order_) {
      if ((++done & 255) == 0 && cancel != nullptr && cancel->load(std::memory_order_relaxed))
        return false;
      if (inlined(id))
        continue;
      exprs_.emplace(id, translate(id));
      if (auto d = domain(id))
        defs_.emplace(id, *d);
    }
    out_.dag_nodes = order_.size();
    return true;
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
      return all_of({defined(n.a), defined(n.b), same_sort_as(get(n.b), zero_) != zero_});
    case Op::Rcp:
      return all_of({defined(n.a), same_sort_as(get(n.a), zero_) != zero_});
    case Op::Sqrt:
      return all_of({defined(n.a), same_sort_as(get(n.a), zero_) >= zero_});
    case Op::Rsqrt:
    case Op::Lg2:
      return all_of({defined(n.a), same_sort_as(get(n.a), zero_) > zero_});
    case Op::BitOp: {
      // PTX leaves integer division by zero undefined.
      const auto k = static_cast<symbolic::BitOpKind>(n.aux & 31);
      if (k == symbolic::BitOpKind::Div || k == symbolic::BitOpKind::Rem) {
        const uint32_t w = width_of_node(id);
        return all_of({defined(n.a), defined(n.b), bv(n.b, w) != ctx_.bv_val(0, w)});
      }
      // Every operand, the third (bfe's length, sad's addend, a Tuple) included.
      return all_of({defined(n.a), defined(n.b),
                     n.c == symbolic::kNoExpr ? std::optional<z3::expr>{} : defined(n.c)});
    }
    case Op::Select: {
      const auto on_true = defined(n.b), on_false = defined(n.c);
      std::optional<z3::expr> branch;
      if (on_true || on_false) {
        branch = checked_ite(holds(n.a), on_true ? *on_true : ctx_.bool_val(true),
                             on_false ? *on_false : ctx_.bool_val(true));
      }
      return all_of({defined(n.a), branch});
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
    case Op::Mul:
    case Op::Neg:
    case Op::Abs:
    case Op::Min:
    case Op::Max:
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
    case Op::Fresh: {
      std::vector<std::optional<z3::expr>> kids;
      const ExprId ids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i) {
        if (ids[i] != symbolic::kNoExpr)
          kids.push_back(defined(ids[i]));
      }
      return all_of(kids);
    }
    }
    symbolic::unknown_op(n.op); // a value outside ops.def
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

  // The value a rounding to an integer reads: the device's, which a float observed this way
  // must agree on as an IEEE computation (docs/semantics.md, "Floats observed as bits"). For an
  // exact operand that is its real value; any other operand (add.rn against add.rz, a sum
  // reassociated) is a real of its own, one per term, so that only the same computation in both
  // kernels rounds alike. Under .ftz an f32 subnormal reads as zero.
  z3::expr device_operand(ExprId operand, bool flush) {
    z3::expr x = get(operand);
    if (const auto key = device_key(operand)) {
      auto it = device_values_.find(*key);
      if (it == device_values_.end() && ++out_.device_values)
        it = device_values_
                 .emplace(*key,
                          ctx_.real_const(unique_name(fmt::format("device#{}", operand)).c_str()))
                 .first;
      x = it->second;
    }
    if (!flush)
      return x;
    const z3::expr smallest_normal =
        ctx_.real_val(fmt::format("1/{}", mpz_class(mpz_class(1) << 126).get_str()).c_str());
    return checked_ite(-smallest_normal < x && x < smallest_normal, zero_, x);
  }

  // The key of device_operand's real for an operand the device rounds: its bit class
  // (symbolic/bit_equality.hpp: the same IEEE computation, even as two nodes), else the node;
  // nullopt for an exact operand (its real value).
  std::optional<uint64_t> device_key(ExprId operand) {
    if (exact_.exact(operand))
      return std::nullopt;
    const uint32_t c = bits_.class_of(operand);
    return c != 0 ? c : (uint64_t{1} << 32) | operand;
  }

public:
  // The device_operand keys below `root`, sorted.
  std::vector<uint64_t> device_keys_below(ExprId root) {
    std::vector<uint64_t> keys;
    std::unordered_set<ExprId> seen{root};
    std::vector<ExprId> stack{root};
    while (!stack.empty()) {
      const ExprId id = stack.back();
      stack.pop_back();
      const Node& n = store_.node(id);
      if (n.op == Op::RealToInt || n.op == Op::RoundReal) {
        if (const auto key = device_key(n.a))
          keys.push_back(*key);
      }
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i) {
        if (kids[i] != symbolic::kNoExpr && seen.insert(kids[i]).second)
          stack.push_back(kids[i]);
      }
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
  }

private:
  z3::expr truth(const z3::expr& predicate) { return checked_ite(predicate, one_, zero_); }
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
      case Op::Fresh: // Fma
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
    same_sort_as(a, b);
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

public:
  uint32_t width_of_node(ExprId id) const {
    uint32_t w = 0;
    symbolic::kind_of(store_, id, &w);
    return w == 0 ? 32 : w;
  }

  // Child `id` as a bit-vector of width w: integer constants are numerals of that width.
  z3::expr bv(ExprId id, uint32_t w) {
    if (store_.op(id) == Op::Const) {
      mpz_class v = store_.rational(id).get_num() % (mpz_class(1) << w);
      if (v < 0)
        v += mpz_class(1) << w;
      return ctx_.bv_val(v.get_str().c_str(), w);
    }
    // A select among integer constants (a ballot's bit, selp.u32 1, 0) has no width of its own:
    // the operation using it gives one, as to a constant.
    if (store_.op(id) == Op::Select && symbolic::kind_of(store_, id) == symbolic::ValueKind::Any) {
      const symbolic::Node& n = store_.node(id);
      return checked_ite(holds(n.a), bv(n.b, w), bv(n.c, w));
    }
    z3::expr e = get(id);
    if (!e.is_bv() || e.get_sort().bv_size() != w)
      throw std::logic_error("integer operand of an unexpected width");
    return e;
  }

private:
  z3::expr resize(const z3::expr& e, uint32_t to, bool sign) {
    const uint32_t from = e.get_sort().bv_size();
    if (to == from)
      return e;
    if (to < from)
      return e.extract(to - 1, 0);
    return sign ? z3::sext(e, to - from) : z3::zext(e, to - from);
  }

  z3::expr less(const z3::expr& a, const z3::expr& b, bool sign) {
    return sign ? a < b : z3::ult(a, b);
  }

  z3::expr floor_of(const z3::expr& x) {
    z3::expr r(ctx_, Z3_mk_real2int(ctx_, x));
    ctx_.check_error();
    return r;
  }

  z3::expr rounded(const z3::expr& x, symbolic::RoundKind r) {
    same_sort_as(x, zero_);
    const z3::expr down = floor_of(x);
    switch (r) {
    case symbolic::RoundKind::Down:
      return down;
    case symbolic::RoundKind::Up:
      return -floor_of(-x);
    case symbolic::RoundKind::Zero:
      return checked_ite(x >= zero_, down, -floor_of(-x));
    case symbolic::RoundKind::NearestEven: {
      const z3::expr frac = x - z3::to_real(down);
      const z3::expr half = ctx_.real_val(1, 2);
      return checked_ite(
          frac > half, down + 1,
          checked_ite(frac < half, down, checked_ite(z3::mod(down, 2) == 0, down, down + 1)));
    }
    }
    return down;
  }

  // Integer operations as bit-vector terms, exactly as engine/symbolic/int_semantics.cpp.
  z3::expr integer(ExprId id, const Node& n) {
    using symbolic::BitOpKind;
    switch (n.op) {
    case Op::IAdd:
    case Op::IMul:
    case Op::INeg: {
      const uint32_t w = 8u << n.aux;
      if (n.op == Op::INeg)
        return -bv(n.a, w);
      return n.op == Op::IAdd ? bv(n.a, w) + bv(n.b, w) : bv(n.a, w) * bv(n.b, w);
    }
    case Op::ICmp: {
      const uint32_t w = 8u << (n.aux >> 4);
      const bool sign = (n.aux & 8) != 0;
      const z3::expr a = bv(n.a, w), b = bv(n.b, w);
      switch (static_cast<symbolic::CmpKind>(n.aux & 7)) {
      case symbolic::CmpKind::Eq:
        return truth(a == b);
      case symbolic::CmpKind::Ne:
        return truth(a != b);
      case symbolic::CmpKind::Lt:
        return truth(less(a, b, sign));
      case symbolic::CmpKind::Le:
        return truth(!less(b, a, sign));
      case symbolic::CmpKind::Gt:
        return truth(less(b, a, sign));
      default:
        return truth(!less(a, b, sign));
      }
    }
    case Op::IntToReal: {
      const symbolic::IntType t = symbolic::IntType::from_code(n.aux & 7);
      // Exact for every value of the source only; a rounding conversion has no translation.
      if (static_cast<int>(t.width()) - (t.is_signed ? 1 : 0) >
          symbolic::format_precision(static_cast<symbolic::FloatFormat>((n.aux >> 3) & 3)))
        throw std::logic_error("an integer to float conversion that rounds");
      return z3::to_real(z3::bv2int(bv(n.a, t.width()), t.is_signed));
    }
    case Op::RoundReal:
      return z3::to_real(rounded(device_operand(n.a, symbolic::rounding_flushes(n.aux)),
                                 symbolic::round_real_rounding(n.aux)));
    case Op::RealToInt: {
      const symbolic::IntType t = symbolic::IntType::from_code(n.aux & 7);
      const uint32_t w = t.width();
      const mpz_class lo = t.is_signed ? -(mpz_class(1) << (w - 1)) : mpz_class(0);
      const mpz_class hi = t.is_signed ? (mpz_class(1) << (w - 1)) - 1 : (mpz_class(1) << w) - 1;
      const z3::expr r = rounded(device_operand(n.a, symbolic::rounding_flushes(n.aux)),
                                 symbolic::real_to_int_rounding(n.aux));
      const z3::expr zlo = ctx_.int_val(lo.get_str().c_str()),
                     zhi = ctx_.int_val(hi.get_str().c_str());
      const z3::expr clamped = checked_ite(r < zlo, zlo, checked_ite(r > zhi, zhi, r));
      return z3::int2bv(w, clamped);
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
    case Op::AtomicResult:
    // conversions between the types, each its own operator
    case Op::FloatBits:
    case Op::BitsFloat:
    case Op::Fresh:
      break;
    }
    // BitOp
    const auto kind = static_cast<BitOpKind>(n.aux & 31);
    const symbolic::IntType t = symbolic::IntType::from_code(static_cast<uint8_t>(n.aux >> 5));
    const uint32_t w = t.width();
    const bool sign = t.is_signed;
    auto zero = [&](uint32_t width) { return ctx_.bv_val(0, width); };
    switch (kind) {
    case BitOpKind::Shl:
    case BitOpKind::Shr: {
      const z3::expr a = bv(n.a, w), amount = bv(n.b, 32);
      const z3::expr big = z3::uge(amount, ctx_.bv_val(w, 32));
      // Amounts of at least the width: 0, or all sign bits for an arithmetic shift.
      const z3::expr by = w >= 32 ? resize(amount, w, false) : amount.extract(w - 1, 0);
      if (kind == BitOpKind::Shl)
        return checked_ite(big, zero(w), z3::shl(a, by));
      if (sign)
        return checked_ite(big, z3::ashr(a, ctx_.bv_val(w - 1, w)), z3::ashr(a, by));
      return checked_ite(big, zero(w), z3::lshr(a, by));
    }
    case BitOpKind::And:
      return bv(n.a, w) & bv(n.b, w);
    case BitOpKind::Or:
      return bv(n.a, w) | bv(n.b, w);
    case BitOpKind::Xor:
      return bv(n.a, w) ^ bv(n.b, w);
    case BitOpKind::Not:
      return ~bv(n.a, w);
    case BitOpKind::CNot:
      return checked_ite(bv(n.a, w) == zero(w), ctx_.bv_val(1, w), zero(w));
    case BitOpKind::MulHi: {
      const z3::expr p = resize(bv(n.a, w), 2 * w, sign) * resize(bv(n.b, w), 2 * w, sign);
      return p.extract(2 * w - 1, w);
    }
    case BitOpKind::Mul24Lo:
    case BitOpKind::Mul24Hi: {
      const z3::expr a = resize(bv(n.a, w).extract(23, 0), 64, sign);
      const z3::expr b = resize(bv(n.b, w).extract(23, 0), 64, sign);
      const z3::expr p = a * b;
      return kind == BitOpKind::Mul24Lo ? resize(p, w, false)
                                        : resize(z3::lshr(p, ctx_.bv_val(16, 64)), w, false);
    }
    case BitOpKind::Div:
      return sign ? bv(n.a, w) / bv(n.b, w) : z3::udiv(bv(n.a, w), bv(n.b, w));
    case BitOpKind::Rem:
      return sign ? z3::srem(bv(n.a, w), bv(n.b, w)) : z3::urem(bv(n.a, w), bv(n.b, w));
    case BitOpKind::Min:
    case BitOpKind::Max: {
      const z3::expr a = bv(n.a, w), b = bv(n.b, w);
      const z3::expr a_first = kind == BitOpKind::Min ? !less(b, a, sign) : !less(a, b, sign);
      return checked_ite(a_first, a, b);
    }
    case BitOpKind::Abs: {
      const z3::expr a = bv(n.a, w);
      return checked_ite(a < zero(w), -a, a);
    }
    case BitOpKind::Sad: {
      const z3::expr a = bv(n.a, w), b = bv(n.b, w);
      return checked_ite(less(b, a, sign), a - b, b - a) + bv(n.c, w);
    }
    case BitOpKind::Ext:
    case BitOpKind::ExtSat: {
      const uint32_t code = static_cast<uint32_t>(store_.rational(n.c).get_num().get_ui());
      const uint32_t from = code & 0xff;
      const bool src_sign = kind == BitOpKind::Ext ? sign : (code & 0x100) != 0;
      const z3::expr a = bv(n.a, from);
      if (kind == BitOpKind::Ext)
        return resize(a, w, src_sign);
      // Clamp in a width that holds both ranges, then truncate.
      const uint32_t wide = std::max(from, w) + 2;
      const z3::expr x = resize(a, wide, src_sign);
      const mpz_class lo = sign ? -(mpz_class(1) << (w - 1)) : mpz_class(0);
      const mpz_class hi = sign ? (mpz_class(1) << (w - 1)) - 1 : (mpz_class(1) << w) - 1;
      auto num = [&](const mpz_class& v) {
        mpz_class u = v % (mpz_class(1) << wide);
        if (u < 0)
          u += mpz_class(1) << wide;
        return ctx_.bv_val(u.get_str().c_str(), wide);
      };
      const z3::expr clamped =
          checked_ite(x < num(lo), num(lo), checked_ite(num(hi) < x, num(hi), x));
      return resize(clamped, w, false);
    }
    case BitOpKind::SatAdd:
    case BitOpKind::SatSub: {
      const z3::expr a = resize(bv(n.a, w), w + 2, true), b = resize(bv(n.b, w), w + 2, true);
      const z3::expr r = kind == BitOpKind::SatAdd ? a + b : a - b;
      const mpz_class lo = -(mpz_class(1) << (w - 1)), hi = (mpz_class(1) << (w - 1)) - 1;
      auto num = [&](const mpz_class& v) {
        mpz_class u = v % (mpz_class(1) << (w + 2));
        if (u < 0)
          u += mpz_class(1) << (w + 2);
        return ctx_.bv_val(u.get_str().c_str(), w + 2);
      };
      return resize(checked_ite(r < num(lo), num(lo), checked_ite(num(hi) < r, num(hi), r)), w,
                    false);
    }
    case BitOpKind::Popc:
    case BitOpKind::Clz:
    case BitOpKind::Brev:
    case BitOpKind::Bfe:
    case BitOpKind::Bfi:
    case BitOpKind::Prmt:
    case BitOpKind::Lop3:
    case BitOpKind::ShfL:
    case BitOpKind::ShfR:
      return bit_permutation(kind, n, w, sign);
    case BitOpKind::Tuple: // read by its parent (operands()); a placeholder of its own
      return ctx_.bool_val(true);
    default:
      throw std::logic_error("untranslatable integer operation reached translate()");
    }
  }

  // The low `w` bits of an integer operand whose own width the operation does not fix (bfe's
  // position, prmt's selector, a lop3 table): every evaluator reads only those bits.
  z3::expr low_bits(ExprId id, uint32_t w) {
    if (store_.op(id) == Op::Const)
      return bv(id, w);
    const z3::expr e = get(id);
    if (!e.is_bv())
      throw std::logic_error("integer operand that is not a bit-vector");
    return resize(e, w, false);
  }

  // The bits below `n` of a w-bit vector: all ones for n >= w (bvshl by the width or more is 0).
  z3::expr low_mask(const z3::expr& n, uint32_t w) { return ~z3::shl(~ctx_.bv_val(0, w), n); }

  // The bit-permuting operations, exactly as eval_bitop (engine/symbolic/int_semantics.cpp).
  z3::expr bit_permutation(symbolic::BitOpKind kind, const Node& n, uint32_t w, bool sign) {
    using symbolic::BitOpKind;
    // Operands c and d travel as a Tuple node when there are four.
    ExprId c = n.c, d = symbolic::kNoExpr;
    if (c != symbolic::kNoExpr && store_.op(c) == Op::BitOp &&
        static_cast<BitOpKind>(store_.node(c).aux & 31) == BitOpKind::Tuple) {
      d = store_.node(c).b;
      c = store_.node(c).a;
    }
    auto bit = [&](const z3::expr& x, uint32_t i) { return x.extract(i, i); };
    switch (kind) {
    case BitOpKind::Popc: {
      // A balanced tree of adders, each one bit wider than its operands: far easier for Z3's
      // bit-blaster than a chain of w-bit additions (popc(a) = 32 - popc(~a): 12 s -> < 1 s).
      const z3::expr a = bv(n.a, w);
      std::vector<z3::expr> level;
      for (uint32_t i = 0; i < w; ++i)
        level.push_back(bit(a, i));
      while (level.size() > 1) {
        std::vector<z3::expr> next;
        for (size_t i = 0; i + 1 < level.size(); i += 2)
          next.push_back(z3::zext(level[i], 1) + z3::zext(level[i + 1], 1));
        if (level.size() % 2 != 0)
          next.push_back(z3::zext(level.back(), 1));
        level = std::move(next);
      }
      return resize(level[0], w, false);
    }
    case BitOpKind::Clz: {
      const z3::expr a = bv(n.a, w);
      z3::expr r = ctx_.bv_val(w, w);  // no bit set
      for (uint32_t i = 0; i < w; ++i) // the highest set bit decides: it is tested last
        r = checked_ite(bit(a, i) == ctx_.bv_val(1, 1), ctx_.bv_val(w - 1 - i, w), r);
      return r;
    }
    case BitOpKind::Brev: {
      const z3::expr a = bv(n.a, w);
      z3::expr r = bit(a, 0); // bit 0 becomes the most significant
      for (uint32_t i = 1; i < w; ++i)
        r = z3::concat(r, bit(a, i));
      return r;
    }
    case BitOpKind::Bfe: {
      // d[i] = (i < len && pos + i < w) ? a[pos + i] : sbit, with pos and len 8 bits each and
      // sbit = a[min(pos + len - 1, w - 1)] for a signed type and len > 0, else 0.
      const z3::expr a = bv(n.a, w);
      const z3::expr pos = z3::zext(low_bits(n.b, 8), 8), len = z3::zext(low_bits(c, 8), 8);
      const z3::expr width = ctx_.bv_val(w, 16);
      const z3::expr room = checked_ite(z3::ult(pos, width), width - pos, ctx_.bv_val(0, 16));
      const z3::expr count = checked_ite(z3::ult(len, room), len, room);
      const z3::expr valid = low_mask(resize(count, w, false), w);
      const z3::expr shifted = z3::lshr(a, resize(pos, w, false));
      if (!sign)
        return shifted & valid;
      const z3::expr top = pos + len - ctx_.bv_val(1, 16);
      const z3::expr index = checked_ite(z3::ult(top, width), top, ctx_.bv_val(w - 1, 16));
      const z3::expr sbit = z3::lshr(a, resize(index, w, false)).extract(0, 0);
      const z3::expr fill = checked_ite(len != ctx_.bv_val(0, 16) && sbit == ctx_.bv_val(1, 1),
                                        ~ctx_.bv_val(0, w), ctx_.bv_val(0, w));
      return (shifted & valid) | (fill & ~valid);
    }
    case BitOpKind::Bfi: {
      // bfi f, a, b, pos, len: b with bits [pos, pos + len) (those below w) taken from a.
      const z3::expr a = bv(n.a, w), b = bv(n.b, w);
      const z3::expr pos = z3::zext(low_bits(c, 8), 8), len = z3::zext(low_bits(d, 8), 8);
      const z3::expr width = ctx_.bv_val(w, 16);
      const z3::expr room = checked_ite(z3::ult(pos, width), width - pos, ctx_.bv_val(0, 16));
      const z3::expr count = checked_ite(z3::ult(len, room), len, room);
      const z3::expr shift = resize(pos, w, false);
      const z3::expr field = z3::shl(low_mask(resize(count, w, false), w), shift);
      return (b & ~field) | (z3::shl(a, shift) & field);
    }
    case BitOpKind::Prmt: {
      // Byte i of the result: byte (sel & 7) of b:a, or its sign replicated when sel & 8.
      const z3::expr bytes = z3::concat(low_bits(n.b, 32), low_bits(n.a, 32));
      const z3::expr selector = low_bits(c, 16);
      z3::expr r = ctx_.bv_val(0, 8);
      for (uint32_t i = 0; i < 4; ++i) {
        const z3::expr sel = selector.extract(4 * i + 3, 4 * i);
        z3::expr byte = bytes.extract(7, 0);
        for (uint32_t k = 1; k < 8; ++k)
          byte = checked_ite(sel.extract(2, 0) == ctx_.bv_val(k, 3),
                             bytes.extract(8 * k + 7, 8 * k), byte);
        byte = checked_ite(sel.extract(3, 3) == ctx_.bv_val(1, 1),
                           checked_ite(byte.extract(7, 7) == ctx_.bv_val(1, 1),
                                       ctx_.bv_val(0xff, 8), ctx_.bv_val(0, 8)),
                           byte);
        r = i == 0 ? byte : z3::concat(byte, r);
      }
      return resize(r, w, false);
    }
    case BitOpKind::Lop3: {
      // Bit i is bit (a[i] << 2 | b[i] << 1 | c[i]) of the table: the OR of the minterms the
      // table selects.
      const z3::expr a = low_bits(n.a, w), b = low_bits(n.b, w), cc = low_bits(c, w);
      const z3::expr table = low_bits(d, 8);
      z3::expr r = ctx_.bv_val(0, w);
      for (uint32_t idx = 0; idx < 8; ++idx) {
        const z3::expr term = ((idx & 4) ? a : ~a) & ((idx & 2) ? b : ~b) & ((idx & 1) ? cc : ~cc);
        r = r | checked_ite(table.extract(idx, idx) == ctx_.bv_val(1, 1), term, ctx_.bv_val(0, w));
      }
      return r;
    }
    case BitOpKind::ShfL:
    case BitOpKind::ShfR: {
      // d: 1 = .wrap (amount mod 32), 0 = .clamp (amount at most 32); on b:a, 64 bits.
      const z3::expr joined = z3::concat(low_bits(n.b, 32), low_bits(n.a, 32));
      const z3::expr amount = low_bits(c, 32);
      const z3::expr wrapped = amount & ctx_.bv_val(31, 32);
      const z3::expr clamped =
          checked_ite(z3::ult(amount, ctx_.bv_val(32, 32)), amount, ctx_.bv_val(32, 32));
      const z3::expr wrap = low_bits(d, 32) != ctx_.bv_val(0, 32);
      const z3::expr by = z3::zext(checked_ite(wrap, wrapped, clamped), 32);
      const z3::expr r = kind == BitOpKind::ShfL ? z3::shl(joined, by).extract(63, 32)
                                                 : z3::lshr(joined, by).extract(31, 0);
      return resize(r, w, false);
    }
    default:
      throw std::logic_error("untranslatable integer operation reached translate()");
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
    case Op::Narrow: // the same real: the rounding is idealized
      return get(n.a);
    case Op::Abs: {
      const z3::expr a = get(n.a);
      return checked_ite(a >= zero_, a, -a);
    }
    case Op::Min:
    case Op::Max: {
      const z3::expr a = get(n.a), b = get(n.b);
      return checked_ite(n.op == Op::Max ? a >= b : a <= b, a, b);
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
      return truth(compare(static_cast<symbolic::CmpKind>(n.aux & 7), get(n.a), get(n.b)));
    case Op::And:
      return truth(holds(n.a) && holds(n.b));
    case Op::Or:
      return truth(holds(n.a) || holds(n.b));
    case Op::Xor:
      return truth(holds(n.a) != holds(n.b));
    case Op::Not:
      return truth(!holds(n.a));
    case Op::Select:
      if (symbolic::kind_of(store_, id) == symbolic::ValueKind::Int) {
        const uint32_t w = width_of_node(id);
        return checked_ite(holds(n.a), bv(n.b, w), bv(n.c, w));
      }
      return checked_ite(holds(n.a), get(n.b), get(n.c));
    case Op::FloatBits: { // the integer view of an input element
      const uint32_t w = width_of_node(id);
      z3::expr c = ctx_.bv_const(
          unique_name(fmt::format("{}:b{}", symbolic::leaf_name(store_, n.a), w)).c_str(), w);
      out_.leaves.emplace_back(id, c);
      out_.bit_vectors = true;
      return c;
    }
    case Op::IAdd:
    case Op::IMul:
    case Op::INeg:
    case Op::ICmp:
    case Op::BitOp:
    case Op::IntToReal:
    case Op::RealToInt:
    case Op::RoundReal:
      out_.bit_vectors = true;
      return integer(id, n);
      // leaves
    case Op::Undef:
    case Op::PosInf:
    case Op::NegInf:
    case Op::RawBits:
    // bit-level views of symbolic values
    case Op::Pack:
    case Op::Extract:
    case Op::AtomicResult:
    // conversions between the types, each its own operator
    case Op::BitsFloat:
    case Op::Fresh: // refused in collect()
      throw std::logic_error("untranslatable node reached translate()");
    }
    symbolic::unknown_op(n.op); // a value outside ops.def
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
  symbolic::ExactTerms exact_{store_, /*flushing_roundings=*/true}; // device_operand models it
  symbolic::BitEquality bits_{store_};
  std::unordered_map<uint64_t, z3::expr> device_values_; // device_operand's reals (its key)
};

} // namespace

std::optional<TranslationRefusal> translation_refusal(const symbolic::ExprStore& store, ExprId ref,
                                                      ExprId opt, const TranslateOptions& options) {
  std::unordered_set<ExprId> seen;
  std::vector<ExprId> stack{ref, opt};
  while (!stack.empty()) {
    const ExprId id = stack.back();
    stack.pop_back();
    if (!seen.insert(id).second)
      continue;
    if (seen.size() > options.max_nodes)
      return TranslationRefusal{too_large(options.max_nodes), true};
    const Node& n = store.node(id);
    if (!supported_node(store, id))
      return TranslationRefusal{unsupported(store, id), false};
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
  try {
    Translator t(ctx, store, out);
    if (auto refused = t.collect({ref, opt}, options.max_nodes))
      return *refused;
    if (!t.translate_all(options.cancel))
      return std::string("cancelled");
    out.ref = t.get(ref);
    out.opt = t.get(opt);
    if (out.device_values > 0)
      out.device_values_differ = t.device_keys_below(ref) != t.device_keys_below(opt);
    // An integer element whose other side is a constant: the constant in the same width.
    if (out.ref.is_bv() != out.opt.is_bv()) {
      const bool ref_const = store.op(ref) == Op::Const, opt_const = store.op(opt) == Op::Const;
      if (out.ref.is_bv() && opt_const)
        out.opt = t.bv(opt, out.ref.get_sort().bv_size());
      else if (out.opt.is_bv() && ref_const)
        out.ref = t.bv(ref, out.opt.get_sort().bv_size());
      else
        return std::string("an integer element compared with a real one");
    }
    out.ref_defined = t.defined(ref);
    out.opt_defined = t.defined(opt);
  } catch (const std::logic_error& e) {
    // An integer operation whose operands do not have its type (bits of another width).
    return fmt::format("unsupported by the Z3 translation: {}", e.what());
  }
  return out;
}

} // namespace volta::smt
