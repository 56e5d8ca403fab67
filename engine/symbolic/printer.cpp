#include "engine/symbolic/printer.hpp"

#include <fmt/format.h>

namespace volta::symbolic {
namespace {

const char* round_name(RoundKind r) {
  static const char* const names[] = {"rni", "rzi", "rmi", "rpi"};
  return names[static_cast<size_t>(r)];
}

// The value-changing modifiers of a float operation that differ from a plain PTX instruction's
// (".rz", ".ftz", ".approx", ".NaN"); a narrowing also names its format.
std::string float_mods_suffix(Op op, FloatMods m) {
  static const char* const modes[] = {"", "", ".rn", ".rz", ".rm", ".rp", ".approx", ".full"};
  static const char* const formats[] = {"", ".f16", ".f32", ".f64", ".bf16", ".tf32", "", ""};
  std::string out = modes[static_cast<size_t>(m.mode)];
  if (m.ftz)
    out += ".ftz";
  if (m.nan_propagating)
    out += liftable(op) ? ".lifted" : op == Op::Narrow ? ".satfinite" : ".NaN";
  if (op == Op::Narrow)
    out += formats[m.format & 7];
  return out;
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
    if (store_.is_neg_zero(id)) {
      out_ += "-0";
      return;
    }
    // Over the reals a rounding to a narrower format is the value itself, and modifiers change
    // nothing: they are printed only where the value is observed as bits.
    if (n.op == Op::Narrow && !bits_) {
      print(n.a);
      return;
    }
    out_ += '(';
    out_ += symbolic::symbol_of(n.op);
    if (n.op == Op::Cmp)
      fmt::format_to(std::back_inserter(out_), ".{}{}", cmp_name(static_cast<CmpKind>(n.aux & 7)),
                     (n.aux & 8) ? "u" : "");
    if (has_float_mods(n.op) && bits_)
      out_ += float_mods_suffix(n.op, FloatMods::of(n.aux));
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
      fmt::format_to(std::back_inserter(out_), ".{}.{}{}", round_name(real_to_int_rounding(n.aux)),
                     t.is_signed ? 's' : 'u', t.width());
    }
    if (n.op == Op::RoundReal)
      fmt::format_to(std::back_inserter(out_), ".{}", round_name(round_real_rounding(n.aux)));
    if ((n.op == Op::RealToInt || n.op == Op::RoundReal) && rounding_flushes(n.aux))
      out_ += ".ftz";
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
    const bool outer_bits = bits_;
    bits_ = bits_ || n.op == Op::FloatBits || n.op == Op::RealToInt;
    for (int i = 0; i < count; ++i) {
      if (kids[i] == kNoExpr)
        continue;
      out_ += ' ';
      print(kids[i]);
      if (truncated_)
        break;
    }
    bits_ = outer_bits;
    if (!truncated_)
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
  bool bits_ = false; // below a bit observation (float-bits, r2i): modifiers are printed
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
  case Op::BitsFloat:
    return op_name(n.op);
  }
  unknown_op(n.op); // a value outside ops.def
}

std::string to_sexpr(const ExprStore& store, ExprId id, size_t max_chars) {
  Printer p(store, max_chars);
  p.print(id);
  return p.finish();
}

} // namespace volta::symbolic
