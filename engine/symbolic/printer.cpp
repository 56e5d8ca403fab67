#include "engine/symbolic/printer.hpp"

#include <fmt/format.h>

namespace volta::symbolic {
namespace {

const char* round_name(RoundKind r) {
  static const char* const names[] = {"rni", "rzi", "rmi", "rpi"};
  return names[static_cast<size_t>(r)];
}

const char* symbol_of(const Node& n) {
  switch (n.op) {
  case Op::Add:
    return "+";
  case Op::Sub:
    return "-";
  case Op::Mul:
    return "*";
  case Op::Div:
    return "/";
  case Op::Neg:
    return "neg";
  default:
    return op_name(n.op);
  }
}

class Printer {
public:
  Printer(const ExprStore& store, size_t max_chars) : store_(store), max_(max_chars) {}

  void print(ExprId id) {
    if (out_.size() > max_) {
      truncated_ = true;
      return;
    }
    const Node& n = store_.node(id);
    if (is_leaf(n.op)) {
      out_ += leaf_name(store_, id);
      return;
    }
    out_ += '(';
    out_ += symbol_of(n);
    if (n.op == Op::Cmp)
      fmt::format_to(std::back_inserter(out_), ".{}", cmp_name(static_cast<CmpKind>(n.aux)));
    if (n.op == Op::BitOp) {
      const IntType t = IntType::from_code(static_cast<uint8_t>(n.aux >> 5));
      fmt::format_to(std::back_inserter(out_), ".{}.{}{}",
                     bitop_name(static_cast<BitOpKind>(n.aux & 31)), t.is_signed ? 's' : 'u',
                     t.width());
    }
    if (n.op == Op::IAdd || n.op == Op::IMul || n.op == Op::INeg)
      fmt::format_to(std::back_inserter(out_), ".{}", 8u << n.aux);
    if (n.op == Op::ICmp)
      fmt::format_to(std::back_inserter(out_), ".{}.{}{}",
                     cmp_name(static_cast<CmpKind>(n.aux & 7)), (n.aux & 8) ? 's' : 'u',
                     8u << (n.aux >> 4));
    if (n.op == Op::IntToReal) {
      const IntType t = IntType::from_code(n.aux & 7);
      static const char* const formats[] = {"f32", "f16", "f64", "bf16"};
      fmt::format_to(std::back_inserter(out_), ".{}.{}{}.{}",
                     round_name(static_cast<RoundKind>((n.aux >> 5) & 3)), t.is_signed ? 's' : 'u',
                     t.width(), formats[(n.aux >> 3) & 3]);
    }
    if (n.op == Op::FloatBits || n.op == Op::BitsFloat) {
      const IntType t = IntType::from_code(n.aux);
      // The bf16 format apart from the 16-bit integer / f16 one: a bf16's bits are not an f16's.
      if (n.aux == kFormatBF16)
        out_ += ".bf16";
      else
        fmt::format_to(std::back_inserter(out_), ".{}", t.width());
    }
    if (n.op == Op::RealToInt) {
      const IntType t = IntType::from_code(n.aux & 7);
      fmt::format_to(std::back_inserter(out_), ".{}.{}{}",
                     round_name(static_cast<RoundKind>(n.aux >> 3)), t.is_signed ? 's' : 'u',
                     t.width());
    }
    if (n.op == Op::RoundReal)
      fmt::format_to(std::back_inserter(out_), ".{}", round_name(static_cast<RoundKind>(n.aux)));
    if (n.op == Op::Pack)
      fmt::format_to(std::back_inserter(out_), ".{}", n.aux);
    if (n.op == Op::Extract) {
      fmt::format_to(std::back_inserter(out_), ".{}.{}", n.aux, n.b);
      out_ += ' ';
      print(n.a);
      out_ += ')';
      return;
    }
    const ExprId kids[3] = {n.a, n.b, n.c};
    const int count = n.op == Op::Pack ? 2 : arity(n.op);
    for (int i = 0; i < count; ++i) {
      if (kids[i] == kNoExpr)
        continue;
      out_ += ' ';
      print(kids[i]);
      if (truncated_)
        return;
    }
    out_ += ')';
  }

  std::string finish() {
    if (truncated_)
      out_ += "...";
    return std::move(out_);
  }

private:
  const ExprStore& store_;
  size_t max_;
  std::string out_;
  bool truncated_ = false;
};

} // namespace

std::string leaf_name(const ExprStore& store, ExprId id) {
  const Node& n = store.node(id);
  switch (n.op) {
  case Op::Const:
    return to_string(store.rational(id));
  case Op::Input:
    return fmt::format("{}[{}]", store.array_name(n.a), n.b);
  case Op::Param:
    return store.param_name(n.a);
  case Op::Undef:
    return fmt::format("undef@{}", n.a);
  case Op::PosInf:
    return "inf";
  case Op::NegInf:
    return "-inf";
  case Op::RawBits:
    return fmt::format("{}", uint64_t{n.b} << 32 | n.a); // untyped bits, as unsigned
  case Op::AtomicResult:
    return fmt::format("atomic-old@{}", n.a);
  case Op::Fresh:
    return n.aux == static_cast<uint8_t>(FreshKind::AtomicOld)
               ? fmt::format("atomic-old#{}@{}", n.a, n.b)
               : fmt::format("special-register#{}@{}", n.a, n.b);
  case Op::Ln2:
    return "ln2";
  case Op::FloatBits:
    // The integer view of an input element (docs/semantics.md): A[3]:b32.
    if (store.op(n.a) == Op::Input) {
      const Node& x = store.node(n.a);
      return fmt::format("{}[{}]:b{}", store.array_name(x.a), x.b,
                         n.aux == kFormatBF16 ? 16u : 8u << n.aux);
    }
    return op_name(n.op);
  default:
    return op_name(n.op);
  }
}

std::string to_sexpr(const ExprStore& store, ExprId id, size_t max_chars) {
  Printer p(store, max_chars);
  p.print(id);
  return p.finish();
}

} // namespace volta::symbolic
