#include "engine/prove/pair_prover.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <fmt/format.h>
#include <map>
#include <random>
#include <range/v3/algorithm/mismatch.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/map.hpp>
#include <range/v3/view/transform.hpp>
#include <range/v3/view/zip.hpp>
#include <tbb/parallel_invoke.h>

#include "engine/driver/safety_check.hpp"
#include "engine/prove/case_split.hpp"
#include "engine/prove/domain_conditions.hpp"
#include "engine/prove/evaluate.hpp"
#include "engine/prove/explanation_text.hpp"
#include "engine/prove/input_views.hpp"
#include "engine/prove/shared_egraph.hpp"
#include "engine/prove/templates.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::prove {

using driver::EntryResult;
using symbolic::ExprId;
using Clock = std::chrono::steady_clock;
using launch::ElemType;

namespace {

// The entry's guard when an element's limit left it UNKNOWN (Z3's own size limit is not one of
// the user's guards: only --max-terms makes it the term budget).
driver::Guard guard_of(Limit limit) {
  switch (limit) {
  case Limit::TermBudget:
    return driver::Guard::TermBudget;
  case Limit::ENodeBudget:
    return driver::Guard::ENodeBudget;
  case Limit::SaturationTime:
    return driver::Guard::SaturationTimeLimit;
  case Limit::None:
  case Limit::Z3TranslationSize:
    break;
  }
  return driver::Guard::None;
}

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

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// One entry's proving state: the shared e-graph of both kernels and all elements, so that the
// subterms elements share (a softmax row's exponentials) are added and canonicalized once.
class Session {
public:
  // `cases_store`: where a proof by cases builds its rewritten values (null: no such proofs).
  Session(const symbolic::ExprStore& store, const ProveOptions& options,
          symbolic::ExprStore* cases_store = nullptr)
      : store_(store), cases_store_(cases_store), options_(options),
        egraph_(store, options.rules ? *options.rules : shipped_rule_library(), options.term_budget,
                options.explanations) {}

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
    if (ref == 0 || opt == 0) {
      out.reason = "a stored bit pattern is not a finite float";
      return out;
    }
    if (ref == opt) {
      out.kind = ElementOutcome::Kind::Equivalent;
      out.decided_by = Decision::SameValue;
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
    if (auto cex = find_counterexample(ref, opt, element)) {
      out.kind = ElementOutcome::Kind::NotEquivalent;
      out.decided_by = Decision::Counterexample;
      out.counterexample = std::move(cex);
      return out;
    }
    // Selects on comparisons the signs do not decide (branches on data merged by the engine):
    // by cases on those comparisons.
    if (undefined_reason.empty() && cases_store_ != nullptr &&
        (has_undecided_select(store_, ref) || has_undecided_select(store_, opt))) {
      const CaseSplitResult cases =
          prove_by_cases(*cases_store_, ref, opt, [&](ExprId a, ExprId b) {
            try {
              egraph_.prepare({a, b});
              const egraph::Id x = egraph_.add(a), y = egraph_.add(b);
              return egraph_.check_forms(x, y).kind == SharedEgraph::FormCheck::Kind::Equal;
            } catch (const std::length_error&) {
              return false;
            }
          });
      if (cases.equal) {
        out.kind = ElementOutcome::Kind::Equivalent;
        out.decided_by = Decision::Cases;
        out.cases = cases.leaves;
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
      if (auto decided = options_.fallback(store_, ref, opt, element))
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
    c.confirmed = true; // concrete values: no input matters
    out.counterexample = c;
    return out;
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
    c.confirmed = true; // concrete values: no input matters
    out.counterexample = c;
    return out;
  }

  std::optional<Counterexample> find_counterexample(ExprId ref, ExprId opt,
                                                    const std::string& element) {
    const std::vector<ExprId> leaves = leaves_below(store_, {ref, opt});
    std::mt19937_64 rng(std::hash<std::string>{}(element) ^ 0x5eedULL);
    // Small rationals keep exponentials of long dot products finite and exact sums cheap.
    std::uniform_int_distribution<int> numerator(-8, 8);
    std::uniform_int_distribution<int> denominator_log(0, 2);
    for (int attempt = 0; attempt < options_.random_points; ++attempt) {
      Assignment point;
      for (ExprId leaf : leaves) {
        if (auto w = integer_leaf_width(store_, leaf)) {
          // Integer inputs take integer values: small ones, and ones near the ends of the
          // signed range so that wrap-around shows.
          const uint64_t m = symbolic::width_mask(*w);
          const uint64_t small = static_cast<uint64_t>(static_cast<int64_t>(numerator(rng)));
          const uint64_t bits = attempt % 3 == 2 ? ((m >> 1) + small) & m : small & m;
          point.values[key_of(leaf)] = symbolic::Rational(std::to_string(bits));
          continue;
        }
        symbolic::Rational v(numerator(rng), 1 << denominator_log(rng));
        v.canonicalize();
        point.values[key_of(leaf)] = v;
      }
      // A point that gives an element's real and integer views independent values is not an
      // input a GPU can be given (docs/semantics.md, "Inputs have two views"): make them agree
      // before evaluating, and again after minimizing (which zeroes views one by one).
      if (!reconcile_views(store_, leaves, point))
        continue;
      Evaluator ev(store_, point);
      EvalValue a = ev.eval(ref), b = ev.eval(opt);
      if (!certainly_different(a, b))
        continue;
      const Assignment found = point;
      minimize(point, leaves, ref, opt);
      if (!reconcile_views(store_, leaves, point) ||
          !certainly_different(Evaluator(store_, point).eval(ref),
                               Evaluator(store_, point).eval(opt)))
        point = found;
      Evaluator final_ev(store_, point);
      a = final_ev.eval(ref);
      b = final_ev.eval(opt);
      Counterexample c;
      c.element = element;
      c.confirmed = certainly_different(a, b);
      c.reference_value = a.to_string();
      c.optimized_value = b.to_string();
      c.reference_expr = symbolic::to_sexpr(store_, ref, 600);
      c.optimized_expr = symbolic::to_sexpr(store_, opt, 600);
      for (ExprId leaf : leaves) {
        auto it = point.values.find(key_of(leaf));
        if (it != point.values.end() && it->second != 0)
          c.inputs.emplace_back(symbolic::leaf_name(store_, leaf), it->second.get_str());
      }
      if (c.confirmed)
        return c;
    }
    return std::nullopt;
  }

  // Zeroes inputs, in chunks, while the values still certainly differ, so that the reported
  // assignment shows the inputs that matter.
  void minimize(Assignment& point, const std::vector<ExprId>& leaves, ExprId ref, ExprId opt) {
    size_t chunk = leaves.size() / 2;
    const size_t smallest = std::max<size_t>(1, leaves.size() / 256);
    int evaluations = 0;
    while (chunk >= smallest && evaluations < 300) {
      for (size_t start = 0; start < leaves.size() && evaluations < 300; start += chunk) {
        Assignment trial = point;
        bool changed = false;
        for (size_t i = start; i < std::min(leaves.size(), start + chunk); ++i) {
          auto& v = trial.values[key_of(leaves[i])];
          changed |= v != 0;
          v = 0;
        }
        if (!changed)
          continue;
        ++evaluations;
        Evaluator ev(store_, trial);
        if (certainly_different(ev.eval(ref), ev.eval(opt)))
          point = std::move(trial);
      }
      if (chunk == 1)
        break;
      chunk /= 2;
    }
  }

  uint64_t key_of(ExprId leaf) const { return Assignment::key_of(store_, leaf); }

  // Do the leaves hold two views (real and integer, or two widths) of one input element? A
  // point gives them independent values, which no GPU input can have.

  const symbolic::ExprStore& store_;
  symbolic::ExprStore* cases_store_;
  const ProveOptions& options_;
  SharedEgraph egraph_;
};

struct ElementJob {
  std::string array;
  uint64_t index = 0;
  ExprId ref = 0;
  ExprId opt = 0;
  ElemType ref_type = ElemType::F32; // type of the last store (see OutputArray::store_types)
  ElemType opt_type = ElemType::F32;
  std::string name() const { return fmt::format("{}[{}]", array, index); }
};

struct PairJobs {
  std::unique_ptr<symbolic::ExprStore> store = std::make_unique<symbolic::ExprStore>();
  std::optional<exec::KernelRun> ref_run, opt_run;
  std::vector<ElementJob> jobs;
};

const exec::OutputArray* find_output(const exec::KernelRun& run, const std::string& name) {
  for (const auto& o : run.outputs) {
    if (o.name == name)
      return &o;
  }
  return nullptr;
}

// What an element of `array` holds when its kernel never writes it, and the type to read it
// in: the initial contents of a zero or inout array (read in the declared type, else in the
// type the other kernel stored it with); nullopt for an `out` array (undefined).
std::optional<std::pair<ExprId, ElemType>> initial_content(const exec::OutputArray& array,
                                                           uint64_t index, ElemType written,
                                                           symbolic::ExprStore& store) {
  const ElemType type = array.declared != ElemType::Unknown ? array.declared : written;
  switch (array.kind) {
  case launch::ArrayKind::Zero: {
    // All bytes 0: as the writer's integer type when its type is not known (bytes compared).
    const ElemType as = type != ElemType::Unknown ? type
                        : array.elem_width == 1   ? ElemType::U8
                        : array.elem_width == 2   ? ElemType::U16
                        : array.elem_width == 4   ? ElemType::U32
                                                  : ElemType::U64;
    return std::make_pair(store.raw_bits(0, static_cast<int>(8 * array.elem_width)), as);
  }
  case launch::ArrayKind::InOut:
    // The input symbol, as memory holds it before any load (a value copied back unchanged is
    // this very node, whatever type it was loaded and stored with).
    return std::make_pair(
        store.input(store.add_array_name(array.name), static_cast<uint32_t>(index)), type);
  default:
    return std::nullopt;
  }
}

// The element type of an output array as the report shows it: declared, or inferred from the
// stores of each kernel ("mixed" when the elements were stored with different types).
driver::OutputType output_types(const exec::OutputArray& r, const exec::OutputArray& o) {
  auto inferred = [](const exec::OutputArray& a) -> std::string {
    if (a.store_types.empty())
      return "";
    for (ElemType t : a.store_types) {
      if (t != a.store_types.front())
        return "mixed";
    }
    return std::string(launch::to_string(a.store_types.front()));
  };
  driver::OutputType t;
  t.array = r.name;
  if (r.declared != ElemType::Unknown)
    t.declared = launch::to_string(r.declared);
  t.reference_stores = inferred(r);
  t.optimized_stores = inferred(o);
  return t;
}

} // namespace

ElementOutcome prove_element(const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                             const std::string& element, const ProveOptions& options) {
  Session session(store, options);
  session.prepare({ref, opt});
  return session.prove(ref, opt, element);
}

// Fail fast: parses and lowers both kernels (in parallel, into the cache that execution then
// reads) and checks both launch configurations before either kernel executes, so that a
// refusal in one kernel (an unknown opcode, a lowering error, a parameter that does not match
// its declaration) is reported at once instead of after the other kernel ran for seconds. On a
// problem it fills `result` (reference first) and returns false.
static bool preflight_pair(const launch::ManifestEntry& entry, driver::KernelCache& cache,
                           EntryResult& result) {
  const auto start = std::chrono::steady_clock::now();
  exec::LoadResult loads[2];
  tbb::parallel_invoke(
      [&] { loads[0] = cache.load(entry.reference.ptx_path, entry.reference.entry); },
      [&] { loads[1] = cache.load(entry.optimized.ptx_path, entry.optimized.entry); });
  result.phases["load"] +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const launch::KernelConfig* configs[2] = {&entry.reference, &entry.optimized};
  const char* roles[2] = {"reference", "optimized"};
  for (int i = 0; i < 2; ++i) {
    const std::string problem = loads[i].kernel
                                    ? exec::check_config(loads[i].kernel->program, *configs[i])
                                    : loads[i].failure_headline();
    if (problem.empty())
      continue;
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = fmt::format("{} kernel: {}", roles[i], problem);
    result.failure_kernel = roles[i];
    return false;
  }
  return true;
}

// Executes both kernels of an entry into one DAG and lists the element pairs to decide. On a
// bad input, a safety failure or a difference in the written index sets it fills `result`
// (verdict, detail) and returns false.
static bool prepare_pair(const launch::ManifestEntry& entry, driver::KernelCache& cache,
                         const ProveOptions& options, PairJobs& pair, EntryResult& result) {
  symbolic::ExprStore& store = *pair.store;
  auto finish = [] { return false; };
  if (!entry.error.empty()) {
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = entry.error;
    return finish();
  }

  if (!preflight_pair(entry, cache, result))
    return finish();

  // ---- execute both kernels into one DAG
  std::optional<exec::KernelRun>& ref_run = pair.ref_run;
  std::optional<exec::KernelRun>& opt_run = pair.opt_run;
  EntryResult ref_part, opt_part;
  tbb::parallel_invoke(
      [&] {
        ref_run = driver::execute_config(entry.reference, "reference", cache, store, options.run,
                                         ref_part, options.runs);
      },
      [&] {
        opt_run = driver::execute_config(entry.optimized, "optimized", cache, store, options.run,
                                         opt_part, options.runs);
      });
  for (auto* part : {&ref_part, &opt_part}) {
    result.kernels.insert(result.kernels.end(), part->kernels.begin(), part->kernels.end());
    for (const auto& [k, v] : part->phases)
      result.phases[k] += v;
  }
  // A bad input or a safety failure of either kernel decides the entry (reference first).
  for (auto* part : {&ref_part, &opt_part}) {
    if (!part->bad_input && !part->failure)
      continue;
    result.verdict = part->verdict;
    result.bad_input = part->bad_input;
    result.detail = fmt::format("{} kernel: {}", part->failure_kernel, part->detail);
    result.failure = part->failure;
    result.failure_kernel = part->failure_kernel;
    result.races = part->races;
    result.races_truncated = part->races_truncated;
    result.races_cut_short = part->races_cut_short;
    return finish();
  }
  if (!ref_run || !opt_run) {
    result.verdict = Verdict::Error;
    result.detail = "a kernel could not be executed";
    return finish();
  }
  for (auto* run : {&*ref_run, &*opt_run}) {
    if (auto f = driver::output_failure(*run, store, true)) {
      result.verdict = f->verdict;
      result.detail =
          fmt::format("{} kernel: {}", run == &*ref_run ? "reference" : "optimized", f->message);
      result.failure = f;
      result.failure_kernel = run == &*ref_run ? "reference" : "optimized";
      return finish();
    }
  }

  // ---- the compared arrays and their written index sets
  std::vector<std::string> arrays = entry.check_arrays;
  if (arrays.empty()) {
    arrays = entry.reference.arrays |
             ranges::views::filter([](const auto& a) { return launch::is_output(a.kind); }) |
             ranges::views::transform(&launch::ArraySpec::name) | ranges::to<std::vector>();
  }
  std::vector<ElementJob>& jobs = pair.jobs;
  // An array declared with an element type is compared in that type (docs/semantics.md): float
  // data in an integer array by its bits, integer data in a float array as a float's bits, both
  // opaque unless they cancel (the integer view of an input element).
  symbolic::Builder builder(store);
  auto as_declared = [&](ExprId v, ElemType declared, uint32_t width) {
    if (declared == ElemType::Unknown || width == 0 || width > 8)
      return v;
    const symbolic::ValueKind kind = symbolic::kind_of(store, v);
    const uint8_t wc = symbolic::width_code(8 * width);
    if (!launch::is_float(declared) && kind == symbolic::ValueKind::Real)
      return builder.float_bits(v, wc);
    if (launch::is_float(declared) && kind == symbolic::ValueKind::Int)
      return builder.bits_float(v, declared == ElemType::BF16 ? symbolic::kFormatBF16 : wc);
    return v;
  };
  for (const auto& name : arrays) {
    const exec::OutputArray* r = find_output(*ref_run, name);
    const exec::OutputArray* o = find_output(*opt_run, name);
    if (!r || !o) {
      result.verdict = Verdict::Error;
      result.bad_input = true;
      result.detail = fmt::format("array \"{}\" is not an output (out/inout/zero) of {} kernel",
                                  name, !r ? "the reference" : "the optimized");
      return finish();
    }
    // Both index lists are sorted and free of repeats: walk them together. The final contents
    // of memory are compared: an element written by one kernel only is compared with what the
    // other kernel leaves there, the array's initial contents (zero: 0, inout: the input
    // symbol). Only an `out` element, undefined until written, is a difference by itself.
    size_t i = 0, j = 0;
    while (i < r->elements.size() || j < o->elements.size()) {
      const bool has_r = i < r->elements.size(), has_o = j < o->elements.size();
      if (has_r && has_o && r->elements[i].first == o->elements[j].first) {
        jobs.push_back(ElementJob{name, r->elements[i].first,
                                  as_declared(r->elements[i].second, r->declared, r->elem_width),
                                  as_declared(o->elements[j].second, r->declared, r->elem_width),
                                  r->store_types[i], o->store_types[j]});
        ++i;
        ++j;
        continue;
      }
      const bool reference_writes =
          has_r && (!has_o || r->elements[i].first < o->elements[j].first);
      const auto& [index, value] = reference_writes ? r->elements[i] : o->elements[j];
      const ElemType type = reference_writes ? r->store_types[i] : o->store_types[j];
      const auto initial = initial_content(reference_writes ? *o : *r, index, type, store);
      if (!initial) {
        result.verdict = Verdict::NotEquivalent;
        result.detail = fmt::format("{}[{}] is written by the {} kernel but not by the {} kernel",
                                    name, index, reference_writes ? "reference" : "optimized",
                                    reference_writes ? "optimized" : "reference");
        Counterexample c;
        c.element = fmt::format("{}[{}]", name, index);
        const std::string written = symbolic::to_sexpr(store, value, 200);
        c.reference_value = reference_writes ? written : "(not written)";
        c.optimized_value = reference_writes ? "(not written)" : written;
        c.confirmed = true;
        result.counterexample = c;
        return finish();
      }
      if (reference_writes) {
        jobs.push_back(ElementJob{name, index, value, initial->first, type, initial->second});
        ++i;
      } else {
        jobs.push_back(ElementJob{name, index, initial->first, value, initial->second, type});
        ++j;
      }
    }
    result.output_types.push_back(output_types(*r, *o));
  }
  result.elements.total = jobs.size();
  return true;
}

EntryResult prove_pair_entry(const launch::ManifestEntry& entry, driver::KernelCache& cache,
                             const ProveOptions& options) {
  const auto start = Clock::now();
  EntryResult result;
  result.name = entry.name;
  result.kind = launch::EntryKind::Equivalence;
  result.expected = entry.expected;
  auto finish = [&]() -> EntryResult {
    result.seconds = since(start);
    return std::move(result);
  };
  PairJobs pair;
  if (!prepare_pair(entry, cache, options, pair, result))
    return finish();
  const symbolic::ExprStore& store = *pair.store;
  const std::vector<ElementJob>& jobs = pair.jobs;

  // ---- decide the elements
  const auto prove_start = Clock::now();
  Session session(store, options, pair.store.get());
  // Templates proved so far, most recently useful first. An element is matched against them
  // (an exact structural match with a one-to-one renaming of input leaves); one that matches
  // none is proved on its own and becomes a template.
  struct Template {
    std::unique_ptr<TemplateMatcher> matcher;
    ElementOutcome outcome;
    ElemType type; // of both stores: a proof holds for elements stored with the same type
  };
  std::vector<Template> templates;
  constexpr size_t kMaxTemplatesTried = 16;
  // Windows of elements are first matched against the templates known at the window's start on
  // all cores (ParallelTemplateMatch); an element matched there reuses that template's outcome,
  // any other goes the sequential way below. Only a speed-up: a template holds an EQUIVALENT
  // outcome, whichever of them an element matches.
  constexpr size_t kWindow = 512;
  ParallelTemplateMatch parallel_match;
  struct Known {
    ElementOutcome outcome;
    ElemType type;
    const TemplateMatcher* matcher;
  };
  std::vector<Known> window_templates;
  std::vector<int> window_match;
  size_t window_start = 0;
  const auto reusable = [&](const ElementJob& job) {
    return options.reuse_templates && !(job.ref == job.opt && job.ref_type == job.opt_type) &&
           store.op(job.ref) != symbolic::Op::RawBits &&
           store.op(job.opt) != symbolic::Op::RawBits && job.ref_type == job.opt_type;
  };
  std::optional<std::string> unknown_reason;
  std::string unknown_element;
  driver::Guard unknown_guard = driver::Guard::None; // the limit behind unknown_reason, if any
  bool stopped = false;
  // The slowest element so far and how it was decided: what a time limit names as the prover's
  // work when it stops the loop.
  std::string slowest_element, slowest_how;
  double slowest_seconds = -1;
  for (size_t k = 0; k < jobs.size() && !stopped; ++k) {
    if (options.timeout_seconds > 0 && since(start) > options.timeout_seconds) {
      unknown_reason = fmt::format("time limit of {}s reached after {} of {} elements",
                                   options.timeout_seconds, k, jobs.size());
      const std::string how = driver::decided_breakdown(result.elements);
      if (!how.empty())
        *unknown_reason += " (" + how + ")";
      if (slowest_seconds >= 0)
        *unknown_reason += fmt::format("; the slowest, {}, took {:.2f} s ({})", slowest_element,
                                       slowest_seconds, slowest_how);
      unknown_guard = driver::Guard::TimeLimit;
      result.elements.unknown += jobs.size() - k;
      break;
    }
    if (options.cancel && options.cancel->load()) {
      unknown_reason = "cancelled";
      result.elements.unknown += jobs.size() - k;
      break;
    }
    const ElementJob& job = jobs[k];
    if (options.reuse_templates && !templates.empty() && k >= window_start + window_match.size() &&
        jobs.size() - k >= 64) {
      window_start = k;
      window_templates.clear();
      std::vector<const TemplateMatcher*> matchers;
      for (size_t t = 0; t < templates.size() && t < kMaxTemplatesTried; ++t) {
        window_templates.push_back(
            Known{templates[t].outcome, templates[t].type, templates[t].matcher.get()});
        matchers.push_back(templates[t].matcher.get());
      }
      std::vector<std::pair<ExprId, ExprId>> roots;
      const size_t end = std::min(jobs.size(), k + kWindow);
      for (size_t e = k; e < end; ++e)
        roots.emplace_back(jobs[e].ref, jobs[e].opt);
      window_match = parallel_match.match(
          matchers, roots,
          [&](size_t e, size_t t) {
            const ElementJob& j = jobs[k + e];
            return reusable(j) && window_templates[t].type == j.ref_type;
          },
          options.cancel);
      // A cancelled window left elements unmatched that may match: it tells nothing.
      if (options.cancel != nullptr && options.cancel->load())
        window_match.clear();
    }
    const auto element_start = Clock::now();
    ElementOutcome outcome;
    bool reused = false;
    if (k >= window_start && k < window_start + window_match.size() &&
        window_match[k - window_start] >= 0) {
      outcome = window_templates[static_cast<size_t>(window_match[k - window_start])].outcome;
      reused = true;
    } else if (job.ref == job.opt && job.ref_type == job.opt_type) {
      outcome.kind = ElementOutcome::Kind::Equivalent;
      outcome.decided_by = Decision::SameNode;
    } else {
      // Roots that are plain bits are read in a type that depends on the element (not on the
      // template), and so are stores of different types: decided one by one, never reused.
      const bool bits_root = store.op(job.ref) == symbolic::Op::RawBits ||
                             store.op(job.opt) == symbolic::Op::RawBits ||
                             job.ref_type != job.opt_type;
      if (options.reuse_templates && !bits_root) {
        // A template of this element's window already failed to match it (matching is a
        // function of the template and the element): only newer ones are tried again.
        const bool in_window = k >= window_start && k < window_start + window_match.size();
        const auto tried = [&](const TemplateMatcher* m) {
          return in_window && std::any_of(window_templates.begin(), window_templates.end(),
                                          [&](const Known& known) { return known.matcher == m; });
        };
        for (size_t t = 0; t < templates.size() && t < kMaxTemplatesTried; ++t) {
          if (templates[t].type != job.ref_type || tried(templates[t].matcher.get()) ||
              !templates[t].matcher->matches(job.ref, job.opt))
            continue;
          outcome = templates[t].outcome;
          reused = true;
          std::rotate(templates.begin(), templates.begin() + static_cast<std::ptrdiff_t>(t),
                      templates.begin() + static_cast<std::ptrdiff_t>(t) + 1);
          break;
        }
      }
      if (!reused) {
        std::string key;
        if (options.cache) {
          key = template_key(store, job.ref, job.opt, job.ref_type, job.opt_type);
          if (options.cache->contains(key)) {
            outcome.kind = ElementOutcome::Kind::Equivalent;
            outcome.decided_by = Decision::Cache;
            ++result.cache_hits;
          }
        }
        if (outcome.decided_by != Decision::Cache) {
          session.prepare({job.ref, job.opt});
          outcome = session.prove(job.ref, job.opt, job.name(), job.ref_type, job.opt_type);
          if (options.cache && outcome.kind == ElementOutcome::Kind::Equivalent)
            options.cache->insert(key);
        }
        if (options.reuse_templates && !bits_root &&
            outcome.kind == ElementOutcome::Kind::Equivalent) {
          templates.insert(templates.begin(),
                           Template{std::make_unique<TemplateMatcher>(store, job.ref, job.opt),
                                    outcome, job.ref_type});
        }
      }
    }
    if (const double took = since(element_start); took > slowest_seconds) {
      slowest_seconds = took;
      slowest_element = job.name();
      slowest_how = reused                                          ? "template reuse"
                    : outcome.kind == ElementOutcome::Kind::Unknown ? "undecided: " + outcome.reason
                                                                    : outcome.how();
    }
    switch (outcome.kind) {
    case ElementOutcome::Kind::Equivalent:
      if (reused) {
        ++result.elements.reused;
      } else if (outcome.decided_by == Decision::Cache) {
        ++result.elements.cached;
      } else if (outcome.decided_by == Decision::Z3) {
        ++result.elements.z3;
      } else if (outcome.decided_by == Decision::Rules) {
        ++result.elements.rules;
      } else {
        ++result.elements.direct;
      }
      break;
    case ElementOutcome::Kind::NotEquivalent:
      ++result.elements.not_equivalent;
      if (!result.counterexample)
        result.counterexample = outcome.counterexample;
      if (options.stop_at_first_difference)
        stopped = true;
      break;
    case ElementOutcome::Kind::Unknown:
      ++result.elements.unknown;
      if (!unknown_reason) {
        unknown_reason = outcome.reason;
        unknown_element = job.name();
        unknown_guard = guard_of(outcome.limit);
      }
      break;
    }
  }
  result.phases["prove"] = since(prove_start);
  {
    egraph::EGraph& g = session.egraph().graph();
    g.rebuild();
    result.egraph =
        driver::EgraphStats{g.num_nodes(), g.num_classes(), session.egraph().analysis().merges(),
                            session.egraph().saturations(), session.egraph().rule_applications()};
  }

  // ---- domains: the optimized kernel must be defined wherever the reference is
  std::string domain_failure;
  if (result.elements.not_equivalent == 0 && !stopped) {
    const auto domain_start = Clock::now();
    DomainSide ref_side{"reference", {}, &*pair.ref_run}, opt_side{"optimized", {}, &*pair.opt_run};
    for (const ElementJob& job : jobs) {
      ref_side.elements.emplace_back(job.name(), job.ref);
      opt_side.elements.emplace_back(job.name(), job.opt);
    }
    const CanonicalOf canonical_of = [&](ExprId node) {
      return session.egraph().canonical_form(node);
    };
    DomainSummary summary;
    auto check = [&](const DomainSide& spec, const DomainSide& checked) {
      DomainOutcome d = check_refinement(store, spec, checked, canonical_of, pair.store.get(),
                                         &options.domain_prover);
      result.z3_calls += d.solver_queries;
      summary.assumptions += d.summary.assumptions;
      summary.obligations += d.summary.obligations;
      summary.by_sign += d.summary.by_sign;
      summary.by_guard += d.summary.by_guard;
      summary.by_assumption += d.summary.by_assumption;
      summary.by_z3 += d.summary.by_z3;
      summary.failed += d.summary.failed;
      summary.undecided += d.summary.undecided;
      if (d.counterexample && domain_failure.empty()) {
        domain_failure = d.failure_detail;
        result.counterexample = std::move(d.counterexample);
      } else if (!d.unknown_reason.empty() && !unknown_reason) {
        unknown_reason = d.unknown_reason;
      }
    };
    check(ref_side, opt_side);
    if (options.mutual) {
      summary.mutual = true;
      check(opt_side, ref_side);
    }
    result.domain = summary;
    result.phases["domains"] = since(domain_start);
  }

  if (!domain_failure.empty()) {
    result.verdict = Verdict::NotEquivalent;
    if (options.execute_counterexample)
      options.execute_counterexample(entry, *result.counterexample);
    result.detail = domain_failure;
  } else if (result.elements.not_equivalent > 0) {
    result.verdict = Verdict::NotEquivalent;
    if (options.execute_counterexample && result.counterexample->confirmed)
      options.execute_counterexample(entry, *result.counterexample);
    const auto& c = *result.counterexample;
    result.detail = fmt::format("{} differs: {} (reference) vs {} (optimized)", c.element,
                                c.reference_value, c.optimized_value);
  } else if (unknown_reason) {
    result.verdict = Verdict::Unknown;
    result.guard = unknown_guard;
    result.detail = unknown_element.empty()
                        ? *unknown_reason
                        : fmt::format("{}: {}", unknown_element, *unknown_reason);
  } else {
    result.verdict = Verdict::Equivalent;
    result.detail = fmt::format(
        "{} elements equal over the reals ({} direct, {} by template reuse, {}{} by Z3, "
        "{} from the proof cache)",
        result.elements.total, result.elements.direct, result.elements.reused,
        result.elements.rules ? fmt::format("{} by rules, ", result.elements.rules) : "",
        result.elements.z3, result.elements.cached);
    if (result.domain && result.domain->obligations > 0) {
      const DomainSummary& d = *result.domain;
      result.detail += fmt::format("; {} domain condition{} of the optimized kernel discharged "
                                   "({} by signs, {} by guards, {} by the reference's, {} by Z3)",
                                   d.obligations, d.obligations == 1 ? "" : "s", d.by_sign,
                                   d.by_guard, d.by_assumption, d.by_z3);
    }
  }
  return finish();
}

namespace {

// The size of a DAG node written out as a tree (saturating): explanations work on trees.
uint64_t tree_size(const symbolic::ExprStore& store, ExprId root, uint64_t cap) {
  std::unordered_map<ExprId, uint64_t> size;
  std::vector<std::pair<ExprId, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [id, expanded] = stack.back();
    stack.pop_back();
    if (size.count(id))
      continue;
    const symbolic::Node& n = store.node(id);
    const ExprId kids[3] = {n.a, n.b, n.c};
    if (!expanded) {
      stack.emplace_back(id, true);
      for (int i = 0; i < symbolic::child_count(n.op); ++i) {
        if (kids[i] != symbolic::kNoExpr && !size.count(kids[i]))
          stack.emplace_back(kids[i], false);
      }
      continue;
    }
    uint64_t total = 1;
    for (int i = 0; i < symbolic::child_count(n.op); ++i) {
      if (kids[i] != symbolic::kNoExpr)
        total = std::min(cap, total + size[kids[i]]);
    }
    size[id] = total;
  }
  return size[root];
}

} // namespace

ElementExplanation explain_element(const launch::ManifestEntry& entry, driver::KernelCache& cache,
                                   const ProveOptions& options, const std::string& element,
                                   size_t max_steps) {
  ElementExplanation out;
  out.element = element;
  EntryResult result;
  result.name = entry.name;
  result.kind = launch::EntryKind::Equivalence;
  PairJobs pair;
  if (!prepare_pair(entry, cache, options, pair, result)) {
    out.stopped = std::move(result);
    return out;
  }
  const symbolic::ExprStore& store = *pair.store;
  const ElementJob* job = nullptr;
  for (const auto& j : pair.jobs) {
    if (j.name() == element)
      job = &j;
  }
  if (job == nullptr) {
    out.note = fmt::format("no element {} is written by both kernels", element);
    return out;
  }
  // Printed far enough for `volta-eg explain` to show where two long values part.
  constexpr size_t kPrintedChars = 200'000;
  out.reference_expr = symbolic::to_sexpr(store, job->ref, kPrintedChars);
  out.optimized_expr = symbolic::to_sexpr(store, job->opt, kPrintedChars);
  constexpr uint64_t kMaxTree = 20'000;
  const bool small =
      tree_size(store, job->ref, kMaxTree + 1) + tree_size(store, job->opt, kMaxTree + 1) <=
      kMaxTree;
  ProveOptions o = options;
  o.explanations = small;
  Session session(store, o);
  session.prepare({job->ref, job->opt});
  out.outcome = session.prove(job->ref, job->opt, element, job->ref_type, job->opt_type);
  if (out.outcome.kind != ElementOutcome::Kind::Equivalent || !out.outcome.in_egraph) {
    if (out.outcome.kind == ElementOutcome::Kind::Equivalent)
      out.note = "decided without the e-graph";
    return out;
  }
  if (!small) {
    out.note = fmt::format(
        "the two values are too large to write out as trees (more than {} nodes), so no rewrite "
        "chain is recorded",
        kMaxTree);
    return out;
  }
  auto chain = session.egraph().explain(out.outcome.roots[0], out.outcome.roots[1]);
  if (!chain) {
    out.note = "the e-graph recorded no chain";
    return out;
  }
  const egraph::Language& lang = session.egraph().ml().lang;
  out.total_steps = chain->steps.size();
  const egraph::TreeTerm* before = &chain->start;
  for (size_t i = 0; i < chain->steps.size() && i < max_steps; ++i) {
    const auto& step = chain->steps[i];
    out.steps.push_back(describe_rewrite_step(i + 1, step, *before, lang));
    before = &step.term;
  }
  out.check = session.egraph().check_explanation(*chain);
  return out;
}

} // namespace volta::prove
