#include "pair_check.hpp"

#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "emulator_oracle.hpp"
#include "engine/emulate/counterexample_run.hpp"
#include "engine/emulate/elem_type.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/session/entry_runner.hpp"
#include "engine/symbolic/rational.hpp"
#include "ptx_writer.hpp"
#include "value_taint.hpp"

namespace volta::pair_fuzz {

namespace fs = std::filesystem;

PairCase make_case(uint64_t seed, uint64_t index, const GenOptions& gen) {
  Rng rng = Rng::for_pair(seed, index);
  PairCase c;
  c.seed = seed;
  c.index = index;
  for (;;) {
    Kernel k = generate_kernel(rng, gen);
    const int count = static_cast<int>(rng.weighted({7, 2, 1})) + 1;
    auto m = mutate(k, rng, count);
    if (!m)
      continue;
    c.swapped = rng.chance(0.15);
    c.applied = m->applied;
    c.label = m->label;
    if (c.swapped) {
      c.ref = std::move(m->kernel);
      c.opt = std::move(k);
      // The reference's own division is an assumption: x*y/y there, x in the optimized kernel,
      // is equal wherever the reference is defined.
      if (c.label == Label::NeqDomain)
        c.label = Label::EqReals;
    } else {
      c.ref = std::move(k);
      c.opt = std::move(m->kernel);
    }
    return c;
  }
}

launch::KernelConfig kernel_config(const Kernel& k, const std::string& ptx_path,
                                   const std::string& entry, bool instrumented) {
  launch::KernelConfig c;
  c.ptx_path = ptx_path;
  c.entry = entry;
  c.block = {k.block, 1, 1};
  uint64_t base = 0x100000;
  auto add = [&](const std::string& name, PT type, uint32_t len, launch::ArrayKind kind) {
    launch::ArraySpec a;
    a.name = name;
    a.base = base;
    base += 0x100000;
    a.elem_width = static_cast<uint32_t>(elem_bytes(type));
    a.len = len;
    a.kind = kind;
    a.type = launch::elem_type_from(manifest_type(type)).value_or(launch::ElemType::Unknown);
    c.arrays.push_back(a);
    launch::ParamSpec p;
    p.kind = launch::ParamSpec::Kind::Ptr;
    p.name = name;
    p.text = "ptr:" + name;
    c.params.push_back(p);
  };
  for (const auto& a : k.inputs)
    add(a.name, a.type, a.len, launch::ArrayKind::In);
  for (const auto& a : k.outputs)
    add(a.name, a.type, a.len,
        a.kind == ArrayKind::Zero ? launch::ArrayKind::Zero : launch::ArrayKind::Out);
  if (instrumented)
    add(kFlagsArray, PT::U32, 2 * k.block, launch::ArrayKind::Out);
  return c;
}

namespace {

// Does the kernel store numbers of the array's own float format in output `a`?
bool stores_numbers(const Kernel& k, int a) {
  const ArrayDecl& arr = k.outputs[a];
  if (arr.kind == ArrayKind::Zero)
    return pt_float(arr.type);
  if (!pt_float(arr.type))
    return false;
  for (const auto& s : k.stores) {
    if (s.array != a)
      continue;
    // A float moved into an integer register unchanged (mov.b32) and stored is still float data
    // (docs/semantics.md, "Bit reinterpretation is never arithmetic": only an operation
    // interprets it), and the array's readers read it as the float it is (11:60019: fma.rp
    // against fma.rm, stored through mov.b32 into an f32 array, is EQUIVALENT over the reals).
    int id = s.value;
    while (k.nodes[id].op == Op::Bits && is_float(k.nodes[k.nodes[id].args[0]].ty))
      id = k.nodes[id].args[0];
    const Node& v = k.nodes[id];
    if (!is_float(v.ty) || natural_pt(v.ty) != arr.type)
      return false;
    if ((v.ty == Ty::F32 || v.ty == Ty::F64) && id == s.value && !pt_float(s.st))
      return false;
  }
  return true;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}

struct Element {
  std::string array;
  uint64_t index = 0;
};
std::optional<Element> parse_element(const std::string& s) {
  const auto open = s.find('['), close = s.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return std::nullopt;
  Element e;
  e.array = s.substr(0, open);
  try {
    e.index = std::stoull(s.substr(open + 1, close - open - 1));
  } catch (...) {
    return std::nullopt;
  }
  return e;
}

// Is every input value of the counterexample exactly what the emulator is given?
bool counterexample_representable(const launch::KernelConfig& config, const Counterexample& ce) {
  for (const auto& [name, text] : ce.inputs) {
    const auto q = symbolic::parse_rational(text);
    if (!q)
      return false;
    const auto e = parse_element(name);
    if (!e)
      continue; // a symbolic parameter (none are generated)
    const auto* a = config.find_array(e->array);
    if (!a)
      return false;
    if (name.find(":b", name.find(']')) != std::string::npos)
      continue; // an integer view: written exactly
    const auto type = launch::elem_type_from(launch::to_string(a->type));
    if (!type)
      return false;
    uint8_t bytes[8] = {};
    emulate::write_element(*type, symbolic::to_double(*q), bytes);
    std::optional<symbolic::Rational> back;
    uint64_t bits = 0;
    std::memcpy(&bits, bytes, a->elem_width);
    switch (*type) {
    case emulate::ElemType::F16:
      back = symbolic::rational_from_f16_bits(static_cast<uint16_t>(bits));
      break;
    case emulate::ElemType::BF16:
      back = symbolic::rational_from_bf16_bits(static_cast<uint16_t>(bits));
      break;
    case emulate::ElemType::F32:
      back = symbolic::rational_from_f32_bits(static_cast<uint32_t>(bits));
      break;
    case emulate::ElemType::F64:
      back = symbolic::rational_from_f64_bits(bits);
      break;
    default:
      // Integers: exact when integral and small enough for a double.
      if (q->get_den() != 1 || abs(q->get_num()) > mpz_class(1) << 53)
        return false;
      continue;
    }
    if (!back || *back != *q)
      return false;
  }
  return true;
}

class Judge {
public:
  Judge(const PairCase& c, CheckResult& r)
      : c_(c), r_(r), tr_(analyze(c.ref)), to_(analyze(c.opt)) {
    for (int a = 0; a < static_cast<int>(c.ref.outputs.size()); ++a) {
      // An array declared float holds reals whoever stores into it, integer bits included
      // (20:196737: the bits 0x00010001 stored by one kernel are the real 9.2e-41, which the
      // other's (c + a) - a equals over the reals): compared as numbers.
      by_value_.push_back(pt_float(c.ref.outputs[a].type) ||
                          (stores_numbers(c.ref, a) && stores_numbers(c.opt, a)));
      // An array declared float holds reals whoever stores into it, integer bits included
      // (docs/semantics.md, "The declared element type is the meaning of the bits"): its zeros
      // of either sign are equal (14:57233 one side storing numbers, 19:90103 neither).
      signless_zero_.push_back(true);
    }
  }

  void add(Severity s, std::string kind, std::string message, int set = -1) {
    for (const auto& f : r_.findings) {
      if (f.kind == kind)
        return; // one finding of a kind per pair is enough
    }
    r_.findings.push_back({s, std::move(kind), std::move(message), set});
  }

  void equivalent(int set, InputClass cls, const SideRun& ref, const SideRun& opt);
  void counterexample(const exec::Program& ref_p, const launch::KernelConfig& ref_c,
                      const exec::Program& opt_p, const launch::KernelConfig& opt_c);
  const std::vector<bool>& by_value() const { return by_value_; }

private:
  const PairCase& c_;
  CheckResult& r_;
  Taint tr_, to_;
  std::vector<bool> by_value_;
  std::vector<bool> signless_zero_; // compare_outputs: ±0 equal in a float array
};

constexpr uint32_t kRefNotDefined = kUndefined | kSpecial | kCondUndefined | kSpecialRealInput;

void Judge::equivalent(int set, InputClass cls, const SideRun& ref, const SideRun& opt) {
  const std::string where = fmt::format("input set {} ({})", set, to_string(cls));
  if (ref.ok && !opt.ok) {
    if (opt.error_kind == "undefined" && (ref.flags & kRefNotDefined) == 0)
      add(Severity::Suspicious, "eq-opt-emulation-undefined",
          fmt::format("{}: the reference runs, the optimized kernel stops: {}", where, opt.error),
          set);
    return;
  }
  if (!ref.ok || !opt.ok)
    return;
  const bool ref_exact = ref.flags == 0, opt_exact = opt.flags == 0;
  if (ref_exact && opt.flags == kUndefined)
    add(Severity::Disagreement, "eq-opt-undefined",
        fmt::format("{}: every float operation of the reference is exact and defined, the "
                    "optimized kernel computes something undefined at node {}",
                    where, opt.first_undefined),
        set);
  const auto diffs = compare_outputs(ref, opt, by_value_, signless_zero_);
  for (const auto& d : diffs) {
    const size_t k = d.array_position;
    const std::string what = fmt::format("{}: {}[{}] is {} (reference) vs {} (optimized)", where,
                                         d.array, d.index, d.ref, d.opt);
    const bool float_atomic = tr_.output_float_atomic[k] || to_.output_float_atomic[k];
    const bool schedule = tr_.output_schedule[k] || to_.output_schedule[k];
    const bool observed = tr_.output_rounding_observed[k] || to_.output_rounding_observed[k];
    if (schedule) {
      add(Severity::Suspicious, "eq-schedule-dependent", what, set);
      continue;
    }
    if (ref_exact && opt_exact && !float_atomic) {
      add(Severity::Disagreement, "eq-differs-exact", what, set);
      continue;
    }
    if ((ref.flags & kRefNotDefined) != 0) {
      add(Severity::Suspicious, "eq-differs-ref-special",
          what + fmt::format(" (reference flags {}, optimized flags {})", ref.flags, opt.flags),
          set);
      continue;
    }
    if ((opt.flags & kSpecialRealInput) != 0) {
      // The optimized kernel reads a NaN or an infinity from a float input the reference does
      // not read as such: an input outside the contract (its float inputs are reals).
      add(Severity::Suspicious, "eq-differs-opt-special-input",
          what + fmt::format(" (reference flags {}, optimized flags {})", ref.flags, opt.flags),
          set);
      continue;
    }
    if (!by_value_[k] && !observed && !float_atomic) {
      add(Severity::Disagreement, "eq-bits-differ",
          what + fmt::format(" (reference flags {}, optimized flags {})", ref.flags, opt.flags),
          set);
      continue;
    }
    if (observed) {
      add(Severity::Suspicious, "eq-rounding-observed", what, set);
      continue;
    }
    // Float values on inexact inputs: only far-apart values are worth a look.
    if (by_value_[k]) {
      const auto& a = ref.outputs[k];
      const auto& b = opt.outputs[k];
      const double x = a.value(d.index), y = b.value(d.index);
      if (std::isfinite(x) && std::isnan(y)) {
        add(Severity::Suspicious, "eq-nan-where-ref-finite", what, set);
      } else if (std::isfinite(x) && std::isfinite(y)) {
        const double scale = std::max({1.0, std::fabs(x), std::fabs(y)});
        const bool narrow = a.type == emulate::ElemType::F16 || a.type == emulate::ElemType::BF16;
        if (std::fabs(x - y) > (narrow ? 0.25 : 0.02) * scale)
          add(Severity::Suspicious, "eq-float-far", what, set);
      }
    }
  }
}

// The inputs of a counterexample, built here rather than by the engine's own runner (which is
// under test too): listed elements set, every other input 0. The real view of an element of an
// integer array is written as the IEEE encoding of its value in the element's width (binary16
// or bfloat16 for 2-byte elements, by `bf16`); an integer view ("A[3]:b32") as its bits.
std::optional<std::string> own_counterexample_inputs(const launch::KernelConfig& config,
                                                     const Counterexample& ce, bool bf16,
                                                     emulate::Inputs& in) {
  in = emulate::Inputs{};
  for (const auto& a : config.arrays) {
    const auto t = launch::elem_type_from(launch::to_string(a.type));
    if (!t)
      return fmt::format("array {} has no element type", a.name);
    in.types[a.name] = *t;
    if (a.kind == launch::ArrayKind::In || a.kind == launch::ArrayKind::InOut)
      in.arrays[a.name] = std::vector<uint8_t>(a.size_bytes(), 0);
  }
  for (const auto& [name, text] : ce.inputs) {
    const auto q = symbolic::parse_rational(text);
    const auto e = parse_element(name);
    if (!q || !e)
      return fmt::format("the input {} = {} is not an element and a number", name, text);
    const auto* a = config.find_array(e->array);
    if (!a || e->index >= a->len || !in.arrays.count(a->name))
      return fmt::format("the input {} is not an element of an input array", name);
    uint8_t* at = in.arrays[a->name].data() + e->index * a->elem_width;
    const auto type = in.types.at(a->name);
    const size_t view = name.find(":b", name.find(']'));
    const bool integer_view = view != std::string::npos;
    const unsigned long view_bits =
        integer_view ? std::strtoul(name.c_str() + view + 2, nullptr, 10) : 0;
    uint64_t bits = 0;
    if (integer_view && emulate::is_float(type) && view_bits != 8 * a->elem_width) {
      // The bits of the element's value in a wider format (an f16 widened by cvt.f32.f16 and
      // moved as bits): the element holds that value, not the low bytes of the bits.
      if (q->get_den() != 1 || q->get_num() < 0 || (view_bits != 32 && view_bits != 64) ||
          q->get_num() >= mpz_class(1) << view_bits)
        return fmt::format("the input {} = {} is no f32 or f64 pattern", name, text);
      mpz_export(&bits, nullptr, -1, sizeof(bits), 0, 0, q->get_num_mpz_t());
      const double value = view_bits == 32
                               ? double{std::bit_cast<float>(static_cast<uint32_t>(bits))}
                               : std::bit_cast<double>(bits);
      emulate::write_element(type, value, at);
      if (emulate::read_element(type, at) != value)
        return fmt::format("the input {} = {} is no value of {}'s elements", name, text, a->name);
    } else if (integer_view) {
      mpz_class z = q->get_num() % (mpz_class(1) << (8 * a->elem_width));
      if (z < 0)
        z += mpz_class(1) << (8 * a->elem_width);
      mpz_export(&bits, nullptr, -1, sizeof(bits), 0, 0, z.get_mpz_t());
      std::memcpy(at, &bits, a->elem_width);
    } else if (emulate::is_float(type)) {
      emulate::write_element(type, symbolic::to_double(*q), at);
    } else {
      switch (a->elem_width) {
      case 8:
        bits = symbolic::nearest_f64_bits(*q);
        break;
      case 4:
        bits = symbolic::nearest_f32_bits(*q);
        break;
      case 2: {
        uint8_t b[2];
        emulate::write_element(bf16 ? emulate::ElemType::BF16 : emulate::ElemType::F16,
                               symbolic::to_double(*q), b);
        bits = b[0] | (b[1] << 8);
        break;
      }
      default:
        emulate::write_element(type, symbolic::to_double(*q), at);
        continue;
      }
      std::memcpy(at, &bits, a->elem_width);
    }
  }
  return std::nullopt;
}

void Judge::counterexample(const exec::Program& ref_p, const launch::KernelConfig& ref_c,
                           const exec::Program& opt_p, const launch::KernelConfig& opt_c) {
  if (!r_.counterexample) {
    return;
  }
  const Counterexample& ce = *r_.counterexample;
  SideRun ref, opt;
  // A device witness (the engine's search for a point where the device shows the difference its
  // counterexample leaves below rounding) must show it here too.
  if (ce.device_witness) {
    Counterexample w = ce;
    w.inputs = ce.device_witness->inputs;
    bool differs = false;
    for (bool bf16 : {false, true}) {
      emulate::Inputs ri, oi;
      if (own_counterexample_inputs(ref_c, w, bf16, ri) ||
          own_counterexample_inputs(opt_c, w, bf16, oi))
        continue;
      ref = run_side(ref_p, ref_c, ri, true);
      opt = run_side(opt_p, opt_c, oi, true);
      const auto el = parse_element(ce.element);
      for (const auto& d : ref.ok&& opt.ok ? compare_outputs(ref, opt, by_value_, signless_zero_)
                                           : std::vector<ElementDiff>{})
        differs = differs || (el && d.array == el->array && d.index == el->index);
    }
    if (!differs)
      add(Severity::Disagreement, "cex-device-witness-wrong",
          fmt::format("counterexample {}: the report's device witness ({} vs {}) does not differ "
                      "there on this emulator run",
                      ce.element, ce.device_witness->reference_device,
                      ce.device_witness->optimized_device));
    return;
  }
  for (bool bf16 : {false, true}) {
    emulate::Inputs ri, oi;
    if (auto why = own_counterexample_inputs(ref_c, ce, bf16, ri)) {
      add(Severity::Suspicious, "neq-counterexample-not-runnable", *why);
      return;
    }
    if (auto why = own_counterexample_inputs(opt_c, ce, bf16, oi)) {
      add(Severity::Suspicious, "neq-counterexample-not-runnable", *why);
      return;
    }
    ref = run_side(ref_p, ref_c, ri, true);
    opt = run_side(opt_p, opt_c, oi, true);
    if (ref.ok && opt.ok && !compare_outputs(ref, opt, by_value_, signless_zero_).empty())
      break;
  }
  if (!ref.ok || !opt.ok) {
    if (!ref.ok && opt.ok)
      add(Severity::Suspicious, "neq-counterexample-ref-fails",
          fmt::format("the reference stops at the counterexample: {}", ref.error));
    return; // the optimized kernel stopping (an integer division by zero) confirms a difference
  }
  // Domain counterexamples: the optimized kernel undefined where the reference is not.
  if ((opt.flags & (kUndefined | kCondUndefined)) && !(ref.flags & kRefNotDefined))
    return;
  // One the instrumentation cannot judge: it gave up an operation's check (lg2 of 0 below an
  // integer product with the constant 1, 19:158973), and the stores may well agree where the
  // optimized kernel leaves its domain.
  bool unchecked = false;
  instrument_kinds(c_.opt, &unchecked);
  if (unchecked && ce.optimized_value.starts_with("undefined")) {
    add(Severity::Suspicious, "neq-domain-unchecked",
        fmt::format("counterexample {}: the optimized kernel is undefined there ({}), an "
                    "operation the instrumentation does not check",
                    ce.element, ce.optimized_value));
    return;
  }
  const auto diffs = compare_outputs(ref, opt, by_value_, signless_zero_);
  const auto el = parse_element(ce.element);
  bool element_differs = false;
  for (const auto& d : diffs)
    element_differs = element_differs || (el && d.array == el->array && d.index == el->index);
  if (element_differs) {
    // Confirmed here; the engine's own run of the counterexample must say so too.
    if (!ce.reference_device.empty() && ce.reference_device == ce.optimized_device)
      add(Severity::Disagreement, "cex-device-values-wrong",
          fmt::format("counterexample {}: the report says both kernels store {} there on the "
                      "emulator, but they store different values (inputs written as the real "
                      "values they stand for)",
                      ce.element, ce.reference_device));
    return;
  }
  const bool representable = counterexample_representable(ref_c, ce);
  // Float atomics round in the order of the schedule, which the instrumentation does not check.
  bool float_atomic_element = false;
  for (size_t k = 0; el && k < c_.ref.outputs.size(); ++k)
    float_atomic_element =
        float_atomic_element || (c_.ref.outputs[k].name == el->array &&
                                 (tr_.output_float_atomic[k] || to_.output_float_atomic[k]));
  const std::string what = fmt::format(
      "counterexample {} ({} vs {} over the reals; inputs {}): both kernels store the same "
      "there on the emulator{}",
      ce.element, ce.reference_value, ce.optimized_value,
      [&] {
        std::string s;
        for (const auto& [n, v] : ce.inputs)
          s += fmt::format("{}{}={}", s.empty() ? "" : ", ", n, v);
        return s;
      }(),
      diffs.empty() ? "" : fmt::format(" ({} other elements differ)", diffs.size()));
  if (ref.flags == 0 && opt.flags == 0 && representable && diffs.empty() && !float_atomic_element) {
    add(Severity::Disagreement, "neq-false-counterexample", what);
  } else if (diffs.empty()) {
    add(Severity::Suspicious,
        representable ? "neq-unconfirmed-inexact" : "neq-counterexample-rounded",
        what + fmt::format(" (flags {} / {})", ref.flags, opt.flags));
  }
}

} // namespace

CheckResult check_pair(const PairCase& c, const CheckOptions& o) {
  CheckResult r;
  fs::create_directories(o.work_dir);
  const std::string dir = o.work_dir;
  r.ref_ptx = (fs::path(dir) / "ref.ptx").string();
  r.opt_ptx = (fs::path(dir) / "opt.ptx").string();
  const std::string ref_inst = (fs::path(dir) / "ref.instrumented.ptx").string();
  const std::string opt_inst = (fs::path(dir) / "opt.instrumented.ptx").string();
  write_file(r.ref_ptx, write_ptx(c.ref, "fz_ref"));
  write_file(r.opt_ptx, write_ptx(c.opt, "fz_opt"));
  WriteOptions inst;
  inst.instrument = true;
  write_file(ref_inst, write_ptx(c.ref, "fz_ref", inst));
  write_file(opt_inst, write_ptx(c.opt, "fz_opt", inst));
  r.ref_racy = racy_by_construction(c.ref);
  r.opt_racy = racy_by_construction(c.opt);

  // Prove, as `volta-eg prove --pair` does.
  launch::ManifestEntry& e = r.entry;
  e.name = fmt::format("fz-{}-{}", c.seed, c.index);
  e.kind = launch::EntryKind::Equivalence;
  e.reference = kernel_config(c.ref, r.ref_ptx, "fz_ref", false);
  e.optimized = kernel_config(c.opt, r.opt_ptx, "fz_opt", false);
  Judge judge(c, r);
  const auto t0 = std::chrono::steady_clock::now();
  {
    exec::KernelCache kernels;
    entry::ProveOptions po;
    po.timeout_seconds = o.prove_timeout;
    session::Z3Settings z3;
    z3.enabled = o.z3 && (Rng::mix(c.index * 31 + c.seed) % 1000) < o.z3_fraction * 1000;
    r.used_z3 = z3.enabled;
    z3.timeout_ms = o.z3_timeout_ms;
    auto runner = session::make_entry_runner(po, z3, kernels);
    std::atomic<bool> cancel{false};
    try {
      const entry::EntryResult res = runner(e, cancel);
      r.verdict = res.verdict;
      r.detail = res.detail;
      r.guard = std::string(entry::guard_name(res.guard));
      r.counterexample = res.counterexample;
    } catch (const std::exception& ex) {
      r.verdict = Verdict::Error;
      r.detail = fmt::format("exception: {}", ex.what());
      judge.add(Severity::Disagreement, "exception", r.detail);
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  r.prove_seconds = std::chrono::duration<double>(t1 - t0).count();
  if (o.prove_timeout > 0 && r.prove_seconds > 5 * o.prove_timeout + 10)
    judge.add(Severity::Suspicious, "guard-overrun",
              fmt::format("the entry ran {:.1f}s under a time limit of {}s", r.prove_seconds,
                          o.prove_timeout));

  // The oracle's runs.
  const auto ref_cfg = kernel_config(c.ref, ref_inst, "fz_ref", true);
  const auto opt_cfg = kernel_config(c.opt, opt_inst, "fz_opt", true);
  const auto ref_l = exec::load_kernel(ref_inst, "fz_ref");
  const auto opt_l = exec::load_kernel(opt_inst, "fz_opt");
  if (!ref_l.kernel || !opt_l.kernel) {
    judge.add(Severity::Suspicious, "fuzzer-instrumented-load",
              fmt::format("the instrumented kernels do not load: {}",
                          !ref_l.kernel ? ref_l.failure_headline() : opt_l.failure_headline()));
    return r;
  }
  Rng rng = Rng::for_pair(c.seed ^ 0x5eed, c.index);
  std::vector<InputClass> classes;
  for (int i = 0; i < o.exact_sets; ++i)
    classes.push_back(InputClass::Exact);
  for (int i = 0; i < o.moderate_sets; ++i)
    classes.push_back(InputClass::Moderate);
  for (int i = 0; i < o.special_sets; ++i)
    classes.push_back(InputClass::Special);
  const bool racy = r.ref_racy || r.opt_racy;
  for (size_t s = 0; s < classes.size(); ++s) {
    InputSet set{classes[s], make_inputs(ref_cfg, classes[s], rng)};
    const SideRun ref = run_side(ref_l.kernel->program, ref_cfg, set.inputs, true);
    const SideRun opt = run_side(opt_l.kernel->program, opt_cfg, set.inputs, true);
    if (s == 0 && ref.ok) {
      // Self-check of the instrumentation: the plain reference stores what the instrumented one
      // does.
      const auto plain = exec::load_kernel(r.ref_ptx, "fz_ref");
      if (plain.kernel) {
        const SideRun p = run_side(plain.kernel->program, e.reference, set.inputs, false);
        // (The plain kernel may stop at an integer division by zero that the instrumented one
        // flags and steps over.
        // (Or at a dead one, which the instrumented kernel does not print.)
        const bool stepped_over = !p.ok && p.error_kind == "undefined";
        if (!stepped_over &&
            (!p.ok ||
             !compare_outputs(p, ref, std::vector<bool>(ref.outputs.size(), false)).empty()))
          judge.add(Severity::Suspicious, "fuzzer-instrumentation-changes-outputs",
                    p.ok ? "outputs differ" : p.error, static_cast<int>(s));
      }
    }
    if (ref.ok && opt.ok && ref.flags == 0 && opt.flags == 0)
      ++r.exact_inputs;
    if (r.verdict == Verdict::Equivalent && !racy)
      judge.equivalent(static_cast<int>(s), classes[s], ref, opt);
    r.inputs.push_back(std::move(set));
  }
  switch (r.verdict) {
  case Verdict::Equivalent:
    if (racy)
      judge.add(Severity::Disagreement, "eq-racy",
                fmt::format("EQUIVALENT, but the {} kernel reads a staged element another thread "
                            "(or an unwaited cp.async) writes without synchronization",
                            r.ref_racy ? "reference" : "optimized"));
    break;
  case Verdict::NotEquivalent:
    if (racy)
      judge.add(Severity::Suspicious, "neq-racy", "NOT_EQUIVALENT on a racy pair");
    else
      judge.counterexample(ref_l.kernel->program, ref_cfg, opt_l.kernel->program, opt_cfg);
    break;
  case Verdict::DataRace:
    if (!racy)
      judge.add(Severity::Disagreement, "false-race", r.detail);
    break;
  case Verdict::OutOfBounds:
  case Verdict::Deadlock:
  case Verdict::BarrierDivergence:
    judge.add(Severity::Disagreement, "false-safety", r.detail);
    break;
  case Verdict::Uninitialized:
    if (!racy)
      judge.add(Severity::Disagreement, "false-safety", r.detail);
    break;
  case Verdict::Error:
    judge.add(Severity::Disagreement, "error", r.detail);
    break;
  case Verdict::RaceFree:
    judge.add(Severity::Disagreement, "wrong-verdict-kind", r.detail);
    break;
  case Verdict::Inconsistent:
    // The prover's EQUIVALENT, contradicted by the tool's own emulator cross-check: never a
    // false EQUIVALENT (it is not printed as one), but a wrong proof or a false alarm of the
    // cross-check, worth its reproducer.
    judge.add(Severity::Suspicious, "inconsistent", r.detail);
    break;
  default:
    break;
  }
  r.oracle_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  return r;
}

} // namespace volta::pair_fuzz
