#include "engine/prove/element_prover.hpp"

#include <bit>
#include <fmt/format.h>
#include <unordered_set>

#include "engine/prove/case_split.hpp"
#include "engine/prove/counterexample_search.hpp"
#include "engine/prove/domain_conditions.hpp"
#include "engine/prove/input_views.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::prove {

using launch::ElemType;
using symbolic::ExprId;

namespace {

// Stores whose bytes follow from their values in the same way: the same float format, or
// integers of one width (signed or not, the bytes of a value are the same).
bool same_byte_class(ElemType a, ElemType b) {
  if (a == ElemType::Unknown || b == ElemType::Unknown)
    return false;
  if (a == b)
    return true;
  return !launch::is_float(a) && !launch::is_float(b) &&
         launch::byte_width(a) == launch::byte_width(b);
}

} // namespace

class ElementProver::Impl {
public:
  // `cases_store`: where a proof by cases builds its rewritten values (null: no such proofs).
  Impl(const symbolic::ExprStore& store, const ElementOptions& options,
       symbolic::ExprStore* cases_store = nullptr)
      : store_(store), cases_store_(cases_store), options_(options),
        egraph_(store, options.rules ? *options.rules : shipped_rule_library(), options.term_budget,
                options.explanations) {
    egraph_.set_cancel(options.cancel);
  }

  void prepare(const std::vector<ExprId>& roots) { egraph_.prepare(roots); }
  SharedEgraph& egraph() { return egraph_; }

  // `ref_type` / `opt_type`: the type of the element's last store in each kernel (see
  // exec::OutputArray::store_types). Stores of different types are compared by their bytes;
  // stores of one type by their values (floats over the reals).
  ElementOutcome prove(ExprId ref, ExprId opt, const std::string& element,
                       ElemType ref_type = ElemType::F32, ElemType opt_type = ElemType::F32) {
    ElementOutcome out;
    const bool concrete = is_concrete(ref) && is_concrete(opt);
    if (concrete && ref_type != opt_type)
      return compare_bytes(ref, ref_type, opt, opt_type, element);
    if (!same_byte_class(ref_type, opt_type))
      return compare_across_types(ref, ref_type, opt, opt_type, element);
    if (ref == opt) {
      out.kind = ElementOutcome::Kind::Equivalent;
      out.decided_by = Decision::SameNode;
      return out;
    }
    // Integer bits on one side, float data on the other (docs/semantics.md): equal only if
    // their bytes are, which a real value does not determine.
    {
      const symbolic::ValueKind rk = symbolic::kind_of(store_, ref),
                                ok = symbolic::kind_of(store_, opt);
      const auto definite = [](symbolic::ValueKind k) {
        return k == symbolic::ValueKind::Real || k == symbolic::ValueKind::Int;
      };
      if (definite(rk) && definite(ok) && rk != ok) {
        out.reason = fmt::format("{}: one kernel stores integer data, the other float data; "
                                 "their bytes are not determined by the real value",
                                 element);
        return out;
      }
    }
    // Concrete values stored as plain bits (st.u16 of a half constant, st.u32 of a count):
    // two bit patterns are compared as bits (as integers; +0/-0 and NaN patterns stay
    // UNKNOWN); bits against a value of the other kernel are read in the stores' type: as the
    // float of their width when it is float data, else as an unsigned integer.
    const bool as_float = launch::is_float(ref_type);
    const bool ref_bits = store_.op(ref) == symbolic::Op::RawBits;
    const bool opt_bits = store_.op(opt) == symbolic::Op::RawBits;
    if (ref_bits && opt_bits)
      return compare_bits(ref, opt, element);
    if (ref_bits)
      ref = as_float ? bits_as_float(ref) : bits_as_integer(ref);
    if (opt_bits)
      opt = as_float ? bits_as_float(opt) : bits_as_integer(opt);
    if (!as_float) {
      // Concrete bits stored signed are their signed value (st.s32 of -36960), a bit-level
      // integer node is its unsigned bits (the evaluator, bits_as_integer): against such a node
      // a negative constant is read as its bits (2^32 - 36960), else one value is two numbers.
      ref = unsigned_against(ref, opt, ref_type);
      opt = unsigned_against(opt, ref, opt_type);
    }
    if (ref == 0 || opt == 0) {
      out.reason = "a stored bit pattern is not a finite float";
      return out;
    }
    if (ref == opt) {
      out.kind = ElementOutcome::Kind::Equivalent;
      out.decided_by = Decision::SameValue;
      return out;
    }
    // Integer bits read as a float may be a NaN, on which no identity of the reals holds
    // (NaN * 0 is not 0, fmaxf(NaN, 0) is 0, NaN != NaN): decided only as the same term
    // (above), or refuted at a point where the bits are numbers.
    if ((store_.taint(ref) | store_.taint(opt)) & symbolic::kTaintNaN) {
      if (auto same = same_bits(ref, opt, as_float))
        return *same;
      if (auto cex = find_counterexample(store_, ref, opt, element, options_.random_points,
                                         options_.specification)) {
        out.kind = ElementOutcome::Kind::NotEquivalent;
        out.decided_by = Decision::Counterexample;
        out.counterexample = std::move(cex);
        return out;
      }
      out.reason = fmt::format(
          "{} depends on integer bits read as a float ({}), which may be a NaN or an infinity: "
          "the two kernels compute it differently, and identities of the reals do not hold for "
          "NaN",
          element, symbolic::to_sexpr(store_, first_nan_source(ref, opt), 120));
      return out;
    }
    // Both roots into the shared e-graph: equal on insertion, or by their canonical forms.
    std::string undefined_reason;
    std::string case_note;
    egraph::Id r = 0, o = 0;
    try {
      r = egraph_.add(ref);
      o = egraph_.add(opt);
      const SharedEgraph::FormCheck forms = egraph_.check_forms(r, o);
      if (forms.kind == SharedEgraph::FormCheck::Kind::Equal) {
        out.kind = ElementOutcome::Kind::Equivalent;
        out.decided_by = forms.decided_by;
        out.roots = {r, o};
        out.in_egraph = true;
        return out;
      }
      if (forms.kind == SharedEgraph::FormCheck::Kind::Undefined) {
        undefined_reason = forms.reason;
        if (forms.over_budget)
          out.limit = Limit::TermBudget;
      }
    } catch (const std::length_error& e) {
      undefined_reason = e.what();
    }
    if (auto cex = find_counterexample(store_, ref, opt, element, options_.random_points,
                                       options_.specification)) {
      out.kind = ElementOutcome::Kind::NotEquivalent;
      out.decided_by = Decision::Counterexample;
      out.counterexample = std::move(cex);
      return out;
    }
    // Selects on comparisons the signs do not decide (branches on data merged by the engine):
    // by cases on those comparisons.
    if (undefined_reason.empty() && cases_store_ != nullptr &&
        (has_undecided_select(store_, ref) || has_undecided_select(store_, opt))) {
      CaseSplitLimits limits;
      limits.cancel = options_.cancel;
      limits.local_cache = &local_cases_;
      if (options_.specification != nullptr) {
        limits.outside_domain =
            [spec = options_.specification](const std::vector<std::pair<ExprId, bool>>& facts) {
              return spec->excludes(facts);
            };
      }
      const CaseSplitResult cases = prove_by_cases(
          *cases_store_, ref, opt,
          [&](ExprId a, ExprId b) {
            try {
              egraph_.prepare({a, b});
              const egraph::Id x = egraph_.add(a), y = egraph_.add(b);
              return egraph_.check_forms(x, y).kind == SharedEgraph::FormCheck::Kind::Equal;
            } catch (const std::length_error&) {
              return false;
            }
          },
          limits);
      if (cases.equal) {
        out.kind = ElementOutcome::Kind::Equivalent;
        out.decided_by = Decision::Cases;
        out.cases = cases.leaves;
        out.uses_reference_domain = cases.outside_domain > 0;
        return out;
      }
      case_note = "; by cases: " + cases.reason;
    }
    // Outside the decided class (max of shifted values, sqrt, selects): the rule library. Its
    // rules are identities over the reals; integer elements (the ring operations share `+` and
    // `*` in the e-graph, sound for canonical forms over Z) never go through it.
    std::string saturation_note;
    const bool integer_element = symbolic::kind_of(store_, ref) == symbolic::ValueKind::Int ||
                                 symbolic::kind_of(store_, opt) == symbolic::ValueKind::Int;
    if (undefined_reason.empty() && options_.saturate && !integer_element) {
      const SharedEgraph::Saturation sat =
          egraph_.saturate(r, o, options_.saturation, options_.cancel);
      if (sat.equal) {
        out.kind = ElementOutcome::Kind::Equivalent;
        out.decided_by = sat.decided_by;
        out.rules_used = sat.rules_used;
        out.roots = {r, o};
        out.in_egraph = true;
        return out;
      }
      saturation_note =
          fmt::format("; the rule library did not unify them ({} rewrites, stopped: {})",
                      sat.applied, sat.stop);
      out.limit = sat.limit;
    }
    if (options_.fallback) {
      if (auto decided = options_.fallback(store_, ref, opt, element, options_.specification))
        return *decided;
    }
    out.kind = ElementOutcome::Kind::Unknown;
    out.reason = undefined_reason.empty()
                     ? "the canonical forms differ, the values agree at every sampled point" +
                           case_note + saturation_note + ", and no fallback proved it"
                     : "cannot canonicalize: " + undefined_reason;
    return out;
  }

private:
  // A BitsFloat node below `a` or `b` (for the message): the first found in a walk that enters
  // only NaN-tainted nodes, each once.
  // Integer bits read as a float against bits read in the same format, or against a float
  // constant of that format: the same bits are the same float, a NaN's payload included, so the
  // element is proved by its bits, an integer identity (the canonical forms over Z: equal there
  // is equal modulo 2^w). Only a proof: different bits may still be one real (+0 and -0), so
  // anything else falls through to the search for a counterexample. (fuzzer 24:179639: the bits
  // of 2^-133 as (65536 + k) - k against the f32 constant 2^-133.)
  // (`as_float`: the element is float data, so a constant is a real number, not bits.)
  std::optional<ElementOutcome> same_bits(ExprId ref, ExprId opt, bool as_float) {
    const symbolic::Node &rn = store_.node(ref), &on = store_.node(opt);
    const bool rb = rn.op == symbolic::Op::BitsFloat, ob = on.op == symbolic::Op::BitsFloat;
    if (!rb && !ob)
      return std::nullopt;
    const uint8_t format = rb ? rn.aux : on.aux;
    // The bits of a finite float constant in `format`, as an integer constant (in the store
    // the proof by cases writes to; none without one). (-0 is left to the search.)
    const auto bits_of_constant = [&](ExprId c) -> std::optional<ExprId> {
      if (cases_store_ == nullptr || !as_float || !store_.is_const(c))
        return std::nullopt;
      const std::optional<uint64_t> bits = float_encoding(store_.rational(c), format);
      if (!bits)
        return std::nullopt;
      return cases_store_->constant(symbolic::Rational(std::to_string(*bits)));
    };
    std::optional<ExprId> a, b;
    if (rb && ob) {
      if (rn.aux != on.aux)
        return std::nullopt;
      a = rn.a;
      b = on.a;
    } else {
      a = rb ? std::optional(rn.a) : bits_of_constant(ref);
      b = ob ? std::optional(on.a) : bits_of_constant(opt);
    }
    if (!a || !b)
      return std::nullopt;
    // The canonical forms are over Z (an identity there holds modulo 2^w for every w): each side
    // must be an integer of the format's own width (or a constant), so that equal forms are the
    // same bits the format reads.
    const uint32_t format_bits = format == symbolic::kFormatBF16 ? 16u : 8u << format;
    const auto of_format_width = [&](ExprId v) {
      uint32_t w = 0;
      const symbolic::ValueKind k = symbolic::kind_of(store_, v, &w);
      return k == symbolic::ValueKind::Any ? store_.is_const(v)
                                           : k == symbolic::ValueKind::Int && w == format_bits;
    };
    if (!of_format_width(*a) || !of_format_width(*b))
      return std::nullopt;
    try {
      const egraph::Id x = egraph_.add(*a), y = egraph_.add(*b);
      const SharedEgraph::FormCheck forms = egraph_.check_forms(x, y);
      if (forms.kind != SharedEgraph::FormCheck::Kind::Equal)
        return std::nullopt;
      ElementOutcome out;
      out.kind = ElementOutcome::Kind::Equivalent;
      out.decided_by = forms.decided_by;
      out.roots = {x, y};
      out.in_egraph = true;
      return out;
    } catch (const std::length_error&) {
      return std::nullopt;
    }
  }

  ExprId first_nan_source(ExprId a, ExprId b) const {
    std::vector<ExprId> stack{a, b};
    std::unordered_set<ExprId> seen;
    while (!stack.empty()) {
      const ExprId id = stack.back();
      stack.pop_back();
      if (id == symbolic::kNoExpr || !(store_.taint(id) & symbolic::kTaintNaN) ||
          !seen.insert(id).second)
        continue;
      const symbolic::Node& n = store_.node(id);
      if (n.op == symbolic::Op::BitsFloat)
        return id;
      const ExprId kids[3] = {n.a, n.b, n.c};
      for (int i = 0; i < symbolic::child_count(n.op); ++i)
        stack.push_back(kids[i]);
    }
    return a;
  }

  bool is_concrete(ExprId id) const {
    const symbolic::Op op = store_.op(id);
    return op == symbolic::Op::Const || op == symbolic::Op::RawBits || op == symbolic::Op::PosInf ||
           op == symbolic::Op::NegInf;
  }

  // The bytes a concrete value stored with type `type` leaves in memory (little-endian, as an
  // integer), or nullopt when they are not known: a real constant that the float format cannot
  // hold exactly, or a fraction stored as an integer.
  std::optional<uint64_t> stored_bytes(ExprId id, ElemType type) const {
    const symbolic::Node& n = store_.node(id);
    const uint32_t width = launch::byte_width(type);
    if (width == 0)
      return std::nullopt;
    const uint64_t mask = width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
    if (n.op == symbolic::Op::RawBits)
      return (uint64_t{n.b} << 32 | n.a) & mask;
    if (n.op == symbolic::Op::PosInf || n.op == symbolic::Op::NegInf) {
      const bool neg = n.op == symbolic::Op::NegInf;
      switch (type) {
      case ElemType::F16:
        return neg ? 0xFC00u : 0x7C00u;
      case ElemType::BF16:
        return neg ? 0xFF80u : 0x7F80u;
      case ElemType::F32:
        return neg ? 0xFF800000u : 0x7F800000u;
      case ElemType::F64:
        return neg ? 0xFFF0000000000000ull : 0x7FF0000000000000ull;
      default:
        return std::nullopt;
      }
    }
    if (n.op != symbolic::Op::Const)
      return std::nullopt;
    const symbolic::Rational& q = store_.rational(id);
    if (!launch::is_float(type)) {
      if (q.get_den() != 1)
        return std::nullopt;
      mpz_class r;
      mpz_fdiv_r_2exp(r.get_mpz_t(), q.get_num().get_mpz_t(), 8 * width); // two's complement
      return std::stoull(r.get_str(16), nullptr, 16);
    }
    const double d = symbolic::to_double(q);
    std::optional<uint64_t> bits;
    std::optional<symbolic::Rational> back;
    switch (type) {
    case ElemType::F16: {
      const auto h = std::bit_cast<uint16_t>(static_cast<_Float16>(d));
      bits = h;
      back = symbolic::rational_from_f16_bits(h);
      break;
    }
    case ElemType::BF16: {
      const auto f = std::bit_cast<uint32_t>(static_cast<float>(d));
      bits = f >> 16;
      back = symbolic::rational_from_bf16_bits(static_cast<uint16_t>(f >> 16));
      break;
    }
    case ElemType::F32:
      if (auto f = symbolic::exact_f32_bits(q))
        return *f;
      return std::nullopt;
    case ElemType::F64:
      if (auto f = symbolic::exact_f64_bits(q))
        return *f;
      return std::nullopt;
    default:
      return std::nullopt;
    }
    if (!back || *back != q)
      return std::nullopt; // not exactly representable: the device's bytes are not known
    return bits;
  }

  // Bytes read back as a value of `type`: the float they encode (nullopt for NaN and -0, whose
  // bytes no real value stands for), or the integer.
  std::optional<ExprId> value_of_bytes(uint64_t bytes, ElemType type) {
    auto& s = const_cast<symbolic::ExprStore&>(store_); // interning changes no existing node
    const uint32_t width = launch::byte_width(type);
    if (launch::is_float(type)) {
      if (bytes == uint64_t{1} << (8 * width - 1))
        return std::nullopt;
      return type == ElemType::BF16 ? s.bf16_bits(static_cast<uint16_t>(bytes))
                                    : s.float_bits(bytes, static_cast<int>(8 * width));
    }
    if (launch::is_signed_int(type) && width < 8) {
      const int shift = 64 - 8 * static_cast<int>(width);
      return s.constant(
          symbolic::Rational(std::to_string(static_cast<int64_t>(bytes << shift) >> shift)));
    }
    if (launch::is_signed_int(type))
      return s.constant(symbolic::Rational(std::to_string(static_cast<int64_t>(bytes))));
    return s.constant(symbolic::Rational(std::to_string(bytes)));
  }

  // An element stored with different types (an integer and a float, floats of different
  // formats), at least one side symbolic. A concrete side is read back in the other side's
  // type (its bytes decoded) and compared as a value of that type. Anything else is not
  // compared: the bytes of a symbolic float are not known (a real-valued node may stand for a
  // value that went through idealized width conversions, so even FloatBits(x) against an
  // integer copy of x's bits would claim too much).
  ElementOutcome compare_across_types(ExprId ref, ElemType ref_type, ExprId opt, ElemType opt_type,
                                      const std::string& element) {
    ElementOutcome out;
    const std::string types =
        fmt::format("the reference stores it as {}, the optimized kernel as {}",
                    launch::to_string(ref_type), launch::to_string(opt_type));
    const uint32_t width = launch::byte_width(ref_type);
    if (width == 0 || width != launch::byte_width(opt_type)) {
      out.reason =
          fmt::format("{}: {}; its bytes come from stores of different widths", element, types);
      return out;
    }
    const bool ref_concrete = is_concrete(ref), opt_concrete = is_concrete(opt);
    if (ref_concrete != opt_concrete) {
      const ExprId c = ref_concrete ? ref : opt;
      const ElemType as = ref_concrete ? opt_type : ref_type;
      const auto bytes = stored_bytes(c, ref_concrete ? ref_type : opt_type);
      const auto value = bytes ? value_of_bytes(*bytes, as) : std::nullopt;
      if (value) {
        return ref_concrete ? prove(*value, opt, element, as, as)
                            : prove(ref, *value, element, as, as);
      }
      out.reason = fmt::format("{}: {}; the stored constant {} has no value as {}", element, types,
                               symbolic::leaf_name(store_, c), launch::to_string(as));
      return out;
    }
    out.reason = fmt::format("{}: {}; stores of different types are compared by their bytes, "
                             "which symbolic values of different types do not determine",
                             element, types);
    return out;
  }

  static bool is_float_zero_bits(uint64_t bits, ElemType type) {
    const uint32_t width = launch::byte_width(type);
    return launch::is_float(type) && (bits == 0 || bits == uint64_t{1} << (8 * width - 1));
  }

  // An element stored with different types by the two kernels (an integer and a float, or
  // floats of different formats): equal exactly when the bytes in memory are. Decided when
  // both stored values are concrete; symbolic data behind different types is not compared.
  ElementOutcome compare_bytes(ExprId ref, ElemType ref_type, ExprId opt, ElemType opt_type,
                               const std::string& element) {
    ElementOutcome out;
    const std::string types =
        fmt::format("the reference stores it as {}, the optimized kernel as {}",
                    launch::to_string(ref_type), launch::to_string(opt_type));
    const auto rb = stored_bytes(ref, ref_type), ob = stored_bytes(opt, opt_type);
    if (!is_concrete(ref) || !is_concrete(opt)) {
      out.reason = fmt::format("{}: {}; stores of different types are compared by their bytes, "
                               "and the stored values are not concrete",
                               element, types);
      return out;
    }
    if (!rb || !ob) {
      out.reason = fmt::format("{}: {}; the bytes of the stored constant {} are not known", element,
                               types, symbolic::leaf_name(store_, !rb ? ref : opt));
      return out;
    }
    // A subnormal float constant: flush-to-zero arithmetic (.ftz) may have stored 0 instead;
    // the model computes over the reals and does not know.
    auto subnormal = [](ExprId id, uint64_t bits, ElemType type, const symbolic::ExprStore& st) {
      if (!launch::is_float(type) || st.op(id) != symbolic::Op::Const)
        return false;
      const uint32_t mantissa = type == ElemType::F16    ? 10
                                : type == ElemType::BF16 ? 7
                                : type == ElemType::F32  ? 23
                                                         : 52;
      const uint32_t exponent = 8 * launch::byte_width(type) - 1 - mantissa;
      const uint64_t e = (bits >> mantissa) & ((uint64_t{1} << exponent) - 1);
      return e == 0 && (bits & ((uint64_t{1} << mantissa) - 1)) != 0;
    };
    if (subnormal(ref, *rb, ref_type, store_) || subnormal(opt, *ob, opt_type, store_)) {
      out.reason = fmt::format("{}: {}; a stored float constant is subnormal, and flush-to-zero "
                               "arithmetic may have stored 0 instead",
                               element, types);
      return out;
    }
    if (*rb == *ob) {
      out.kind = ElementOutcome::Kind::Equivalent;
      out.decided_by = Decision::SameBytes;
      return out;
    }
    // A float zero read from a constant may have been -0.0 on the device (the constant table
    // keeps one zero): its bytes are not known to the sign bit.
    if ((is_float_zero_bits(*rb, ref_type) && store_.op(ref) == symbolic::Op::Const) ||
        (is_float_zero_bits(*ob, opt_type) && store_.op(opt) == symbolic::Op::Const)) {
      out.reason =
          fmt::format("{}: {}; the bytes differ at most in the sign of a zero", element, types);
      return out;
    }
    out.kind = ElementOutcome::Kind::NotEquivalent;
    out.decided_by = Decision::DifferentBytes;
    Counterexample c;
    c.element = element;
    const int digits = static_cast<int>(2 * launch::byte_width(ref_type));
    c.reference_value =
        fmt::format("{} stored as {} (bytes 0x{:0{}x})", symbolic::leaf_name(store_, ref),
                    launch::to_string(ref_type), *rb, digits);
    c.optimized_value =
        fmt::format("{} stored as {} (bytes 0x{:0{}x})", symbolic::leaf_name(store_, opt),
                    launch::to_string(opt_type), *ob, digits);
    c.confirmed = true; // concrete values: no input matters...
    return with_inputs_in_domain(std::move(out), std::move(c), element);
  }

  // `c` as the unsigned bits of its element type when it is a negative integer constant and
  // `other` a bit-level integer (ValueKind::Int), or when constants and selects of constants
  // meet; else `c`.
  ExprId unsigned_against(ExprId c, ExprId other, ElemType type) {
    const uint32_t width = launch::byte_width(type);
    if (width == 0 || width > 8 || c == 0 || other == 0)
      return c;
    // A select of untyped constants (selp.b32 0xFFFFFFFF, 1) holds bit patterns too: against a
    // constant or another such select, both sides are read as unsigned bits (fuzzer 18:25844:
    // -1 stored by st.s32 against that select).
    const auto constant_select = [&](ExprId x) {
      return store_.op(x) == symbolic::Op::Select &&
             symbolic::kind_of(store_, x) == symbolic::ValueKind::Any;
    };
    const auto patterns = [&](ExprId x) {
      return store_.op(x) == symbolic::Op::Const || constant_select(x);
    };
    if (patterns(c) && patterns(other) && (constant_select(c) || constant_select(other)))
      return unsigned_constants(c, width);
    if (store_.op(c) != symbolic::Op::Const ||
        symbolic::kind_of(store_, other) != symbolic::ValueKind::Int)
      return c;
    const symbolic::Rational& q = store_.rational(c);
    if (q.get_den() != 1 || q >= 0)
      return c;
    const mpz_class modulus = mpz_class(1) << (8 * width);
    if (q.get_num() < -modulus)
      return c;                                         // not an integer of this width
    auto& s = const_cast<symbolic::ExprStore&>(store_); // interning a constant changes no node
    return s.constant(symbolic::Rational(mpz_class(q.get_num() + modulus)));
  }

  // `v` with every integer constant (in selects of constants, a few levels deep) read as the
  // unsigned bits of `width` bytes: -1 as 2^32 - 1 for 4 bytes. Anything else is left as it is.
  ExprId unsigned_constants(ExprId v, uint32_t width, int depth = 0) {
    auto& s = const_cast<symbolic::ExprStore&>(store_); // interning changes no existing node
    const symbolic::Node n = store_.node(v);
    if (n.op == symbolic::Op::Const) {
      const symbolic::Rational& q = store_.rational(v);
      const mpz_class modulus = mpz_class(1) << (8 * width);
      if (q.get_den() != 1 || q >= 0 || q.get_num() < -modulus)
        return v;
      return s.constant(symbolic::Rational(mpz_class(q.get_num() + modulus)));
    }
    if (n.op != symbolic::Op::Select || depth >= 4 ||
        symbolic::kind_of(store_, v) != symbolic::ValueKind::Any)
      return v;
    const ExprId b = unsigned_constants(n.b, width, depth + 1);
    const ExprId c = unsigned_constants(n.c, width, depth + 1);
    if (b == n.b && c == n.c)
      return v;
    return s.intern(symbolic::Node{symbolic::Op::Select, n.aux, 0, n.a, b, c});
  }

  ExprId bits_as_integer(ExprId id) {
    const symbolic::Node& n = store_.node(id);
    auto& s = const_cast<symbolic::ExprStore&>(store_); // interning a constant changes no node
    return s.constant(symbolic::Rational(std::to_string(uint64_t{n.b} << 32 | n.a)));
  }

  ExprId bits_as_float(ExprId id) {
    const symbolic::Node& n = store_.node(id);
    const uint64_t bits = uint64_t{n.b} << 32 | n.a;
    // Interning a constant changes no existing node: the store stays logically const.
    auto& s = const_cast<symbolic::ExprStore&>(store_);
    return s.float_bits(bits, n.aux).value_or(0);
  }

  ElementOutcome compare_bits(ExprId ref, ExprId opt, const std::string& element) {
    ElementOutcome out;
    const symbolic::Node& a = store_.node(ref);
    const symbolic::Node& b = store_.node(opt);
    if (a.a == b.a && a.b == b.b) {
      out.kind = ElementOutcome::Kind::Equivalent;
      out.decided_by = Decision::SameBits;
      return out;
    }
    const ExprId fa = bits_as_float(ref), fb = bits_as_float(opt);
    const bool same_as_float = fa != 0 && fa == fb; // +0 and -0
    if (same_as_float || fa == 0 || fb == 0) {
      out.reason = "the stored bit patterns differ but may be the same float (+0/-0 or NaN)";
      return out;
    }
    out.kind = ElementOutcome::Kind::NotEquivalent;
    out.decided_by = Decision::DifferentBits;
    Counterexample c;
    c.element = element;
    c.reference_value = symbolic::leaf_name(store_, ref);
    c.optimized_value = symbolic::leaf_name(store_, opt);
    c.confirmed = true; // concrete values: no input matters...
    return with_inputs_in_domain(std::move(out), std::move(c), element);
  }

  // ...but the reference must be defined at the input shown: a point in its domain, or
  // UNKNOWN where none is found (a reference defined nowhere proves nothing).
  ElementOutcome with_inputs_in_domain(ElementOutcome out, Counterexample c,
                                       const std::string& element) const {
    const auto inputs = inputs_in_domain(store_, options_.specification);
    if (!inputs) {
      out.kind = ElementOutcome::Kind::Unknown;
      out.decided_by = Decision::Undecided;
      out.reason = fmt::format("{}: the kernels store different constants, but no input tried "
                               "lies where the reference is defined",
                               element);
      return out;
    }
    c.inputs = *inputs;
    out.counterexample = std::move(c);
    return out;
  }

  const symbolic::ExprStore& store_;
  symbolic::ExprStore* cases_store_;
  LocalCaseCache local_cases_; // of cases_store_, across this prover's elements
  const ElementOptions& options_;
  SharedEgraph egraph_;
};

ElementProver::ElementProver(const symbolic::ExprStore& store, const ElementOptions& options,
                             symbolic::ExprStore* cases_store)
    : impl_(std::make_unique<Impl>(store, options, cases_store)) {}

ElementProver::~ElementProver() = default;

void ElementProver::prepare(const std::vector<ExprId>& roots) {
  impl_->prepare(roots);
}

ElementOutcome ElementProver::prove(ExprId ref, ExprId opt, const std::string& element,
                                    ElemType ref_type, ElemType opt_type) {
  return impl_->prove(ref, opt, element, ref_type, opt_type);
}

SharedEgraph& ElementProver::egraph() {
  return impl_->egraph();
}

ElementOutcome prove_element(const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                             const std::string& element, const ElementOptions& options) {
  ElementProver prover(store, options);
  prover.prepare({ref, opt});
  return prover.prove(ref, opt, element);
}

} // namespace volta::prove
