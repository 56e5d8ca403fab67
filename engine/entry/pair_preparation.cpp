#include "engine/entry/pair_preparation.hpp"

#include <fmt/format.h>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/transform.hpp>
#include <tbb/parallel_invoke.h>

#include "engine/entry/batch_runs.hpp"
#include "engine/entry/run_configuration.hpp"
#include "engine/entry_progress.hpp"
#include "engine/exec/global_memory.hpp"
#include "engine/launch/cluster.hpp"
#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/exact_terms.hpp"
#include "engine/symbolic/float_fold.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::entry {

using launch::ElemType;
using symbolic::ExprId;

namespace {

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
OutputType output_types(const exec::OutputArray& r, const exec::OutputArray& o) {
  auto inferred = [](const exec::OutputArray& a) -> std::string {
    if (a.store_types.empty())
      return "";
    for (ElemType t : a.store_types) {
      if (t != a.store_types.front())
        return "mixed";
    }
    return std::string(launch::to_string(a.store_types.front()));
  };
  OutputType t;
  t.array = r.name;
  if (r.declared != ElemType::Unknown)
    t.declared = launch::to_string(r.declared);
  t.reference_stores = inferred(r);
  t.optimized_stores = inferred(o);
  return t;
}

// Every compared element of jobs[first...] holds integer data (or raw bits) on both sides —
// constants, whose type their use decides, do not count — and at least one does.
bool integer_values(const symbolic::ExprStore& store, const std::vector<prove::ElementJob>& jobs,
                    size_t first) {
  bool any = false;
  for (size_t i = first; i < jobs.size(); ++i) {
    for (ExprId v : {jobs[i].ref, jobs[i].opt}) {
      switch (symbolic::kind_of(store, v)) {
      case symbolic::ValueKind::Int:
      case symbolic::ValueKind::Pred:
      case symbolic::ValueKind::Bits:
        any = true;
        break;
      case symbolic::ValueKind::Any:
        break;
      default:
        return false;
      }
    }
  }
  return any;
}

// The two kernels read an input array by its name, and both read one symbol per element: the
// element types must agree where they give the bytes a meaning (docs/semantics.md, "Memory
// formats"): the width, and for 2-byte elements bf16 or not (an undeclared one is an f16).
std::optional<std::string> input_type_conflict(const launch::KernelConfig& ref,
                                               const launch::KernelConfig& opt) {
  auto is_input = [](const launch::ArraySpec& a) {
    return a.kind == launch::ArrayKind::In || a.kind == launch::ArrayKind::InOut;
  };
  for (const auto& r : ref.arrays) {
    for (const auto& o : opt.arrays) {
      if (r.name != o.name || (!is_input(r) && !is_input(o)))
        continue;
      const bool both_declared = r.type != ElemType::Unknown && o.type != ElemType::Unknown;
      const bool bf16_differs =
          r.elem_width == 2 && (r.type == ElemType::BF16) != (o.type == ElemType::BF16);
      if (r.elem_width == o.elem_width && !bf16_differs && (!both_declared || r.type == o.type))
        continue;
      auto type = [](const launch::ArraySpec& a) {
        return a.type == ElemType::Unknown ? fmt::format("{}-byte elements", a.elem_width)
                                           : std::string(launch::to_string(a.type));
      };
      return fmt::format("input array \"{}\" has {} in the reference and {} in the optimized "
                         "kernel; both kernels read its one set of bytes, which has one meaning",
                         r.name, type(r), type(o));
    }
  }
  return std::nullopt;
}

// The run of one side, standing for the other side's (the same kernel and configuration,
// `one_run` in prepare_pair): recorded as not executed, its failure the other side's too.
void other_side(const launch::KernelConfig& config, bool is_optimized,
                const std::optional<exec::KernelRun>& run, std::optional<exec::KernelRun>& other,
                const EntryResult& run_part, EntryResult& part) {
  if (!run)
    return;
  other = *run;
  const uint32_t line = run_part.kernels.empty() ? 0 : run_part.kernels.back().entry_line;
  record_reused_run(*run, config, is_optimized ? "optimized" : "reference", line, 0,
                    is_optimized ? "reference" : "optimized", part);
}

// Arrays of one name have one element type in both configurations (or are in one only).
bool same_array_types(const launch::KernelConfig& a, const launch::KernelConfig& b) {
  for (const auto& x : a.arrays) {
    const launch::ArraySpec* y = b.find_array(x.name);
    if (y != nullptr && y->type != x.type)
      return false;
  }
  return true;
}

} // namespace

// Fail fast: parses and lowers both kernels (in parallel, into the cache that execution then
// reads) and checks both launch configurations before either kernel executes, so that a
// refusal in one kernel (an unknown opcode, a lowering error, a parameter that does not match
// its declaration) is reported at once instead of after the other kernel ran for seconds. On a
// problem it fills `result` (reference first) and returns false.
bool preflight_pair(const launch::ManifestEntry& entry, exec::KernelCache& cache,
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
    std::string problem = loads[i].kernel
                              ? exec::check_config(loads[i].kernel->program, *configs[i])
                              : loads[i].failure_headline();
    if (problem.empty() && loads[i].kernel) // a cluster the kernel's directives forbid
      problem = launch::cluster_problem_of(loads[i].kernel->module, *configs[i]);
    if (problem.empty())
      continue;
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = fmt::format("{} kernel: {}", roles[i], problem);
    result.failure_kernel = roles[i];
    return false;
  }
  if (auto conflict = input_type_conflict(entry.reference, entry.optimized)) {
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = *conflict;
    return false;
  }
  return true;
}

bool prepare_pair(const launch::ManifestEntry& entry, exec::KernelCache& cache,
                  const exec::RunOptions& run, exec::RunCache* runs, PreparedPair& pair,
                  EntryResult& result, BatchRuns* batch, bool share_runs) {
  auto finish = [] { return false; };
  if (!entry.error.empty()) {
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = entry.error;
    result.input_where = entry.error_where;
    return finish();
  }

  if (!preflight_pair(entry, cache, result))
    return finish();

  // ---- execute both kernels into one DAG
  report_progress("executing");
  std::optional<exec::KernelRun>& ref_run = pair.ref_run;
  std::optional<exec::KernelRun>& opt_run = pair.opt_run;
  EntryResult ref_part, opt_part;
  const auto ref_kernel = cache.load(entry.reference.ptx_path, entry.reference.entry).kernel;
  const auto opt_kernel = cache.load(entry.optimized.ptx_path, entry.optimized.entry).kernel;
  // The same PTX bytes, entry, configuration and options on both sides: one run stands for both.
  const std::optional<std::string> ref_key = run_key(entry.reference, run);
  const bool one_run = share_runs && ref_key && ref_key == run_key(entry.optimized, run) &&
                       ref_kernel && opt_kernel &&
                       ref_kernel->source_text == opt_kernel->source_text;
  // The side this entry takes from the batch, when another entry executes it too. Not when the
  // other kernel marks an array of the same name with another type: the two kernels' marks meet
  // in one store (exec/global_memory.cpp), so the kept run must not have been made without them.
  std::optional<std::string> shared_role = batch ? batch->shared_role(entry) : std::nullopt;
  if (shared_role && !one_run && !same_array_types(entry.reference, entry.optimized))
    shared_role.reset();
  if (shared_role) {
    const bool ref_side = *shared_role == "reference";
    const launch::KernelConfig& config = ref_side ? entry.reference : entry.optimized;
    const auto& kernel = ref_side ? ref_kernel : opt_kernel;
    std::optional<exec::KernelRun>& side_run = ref_side ? ref_run : opt_run;
    EntryResult& part = ref_side ? ref_part : opt_part;
    const auto start = std::chrono::steady_clock::now();
    BatchRuns::Taken taken = batch->take(entry, *shared_role, kernel, run.cancel);
    if (taken.kept) {
      // A fork of the kept store: the kept nodes under the same ids, the other kernel's added.
      pair.store = symbolic::ExprStore::fork(taken.kept->store);
      side_run = std::move(taken.kept->run);
      record_reused_run(
          *side_run, config, *shared_role, taken.kept->entry_line,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          taken.kept->executed_by, part);
    } else if (taken.production) {
      auto own = std::make_unique<symbolic::ExprStore>();
      side_run = execute_config(config, *shared_role, cache, *own, run, part, runs);
      if (side_run && !part.kernels.empty()) {
        std::shared_ptr<const symbolic::ExprStore> kept;
        own = taken.production->offer(std::move(own), *side_run, part.kernels.back().entry_line,
                                      entry.name, kernel, kept);
        pair.store = own ? std::move(own) : symbolic::ExprStore::fork(std::move(kept));
      } else {
        pair.store = std::move(own);
      }
    } else {
      side_run = execute_config(config, *shared_role, cache, *pair.store, run, part, runs);
    }
    if (one_run) {
      other_side(ref_side ? entry.optimized : entry.reference, ref_side, side_run,
                 ref_side ? opt_run : ref_run, part, ref_side ? opt_part : ref_part);
    } else {
      const launch::KernelConfig& other = ref_side ? entry.optimized : entry.reference;
      (ref_side ? opt_run : ref_run) =
          execute_config(other, ref_side ? "optimized" : "reference", cache, *pair.store, run,
                         ref_side ? opt_part : ref_part, runs);
    }
  } else if (one_run) {
    ref_run = execute_config(entry.reference, "reference", cache, *pair.store, run, ref_part, runs);
    other_side(entry.optimized, true, ref_run, opt_run, ref_part, opt_part);
  } else {
    symbolic::ExprStore& store = *pair.store;
    exec::mark_declared_types(store, entry.reference);
    exec::mark_declared_types(store, entry.optimized);
    tbb::parallel_invoke(
        [&] {
          ref_run = execute_config(entry.reference, "reference", cache, store, run, ref_part, runs);
        },
        [&] {
          opt_run = execute_config(entry.optimized, "optimized", cache, store, run, opt_part, runs);
        });
  }
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
  return pair_outputs(entry, pair, result);
}

std::vector<std::string> compared_arrays(const launch::ManifestEntry& entry) {
  if (!entry.check_arrays.empty())
    return entry.check_arrays;
  return entry.reference.arrays |
         ranges::views::filter([](const auto& a) { return launch::is_output(a.kind); }) |
         ranges::views::transform(&launch::ArraySpec::name) | ranges::to<std::vector>();
}

bool pair_outputs(const launch::ManifestEntry& entry, PreparedPair& pair, EntryResult& result) {
  symbolic::ExprStore& store = *pair.store;
  const exec::KernelRun& ref_run = *pair.ref_run;
  const exec::KernelRun& opt_run = *pair.opt_run;
  auto finish = [] { return false; };
  for (const exec::KernelRun* run : {&ref_run, &opt_run}) {
    if (auto f = output_failure(*run, store, true)) {
      const char* role = run == &ref_run ? "reference" : "optimized";
      result.verdict = f->verdict;
      result.detail = fmt::format("{} kernel: {}", role, f->message);
      result.failure = f;
      result.failure_kernel = role;
      return finish();
    }
  }

  // ---- the compared arrays and their written index sets
  const std::vector<std::string> arrays = compared_arrays(entry);
  std::vector<prove::ElementJob>& jobs = pair.jobs;
  // An array declared with an element type is compared in that type (docs/semantics.md): float
  // data in an integer array by its bits, integer data in a float array as a float's bits, both
  // opaque unless they cancel (the integer view of an input element).
  symbolic::Builder builder(store);
  // A 16-bit float of one format in an array declared with the other (an f16 store into a bf16
  // array) is its bits read in the declared format: another number, bit-observed.
  // The float a RawBits node of the element's width encodes in the declared format; nullopt for
  // another width and for a NaN pattern (which stays bits, compared as bits).
  auto float_of_raw_bits = [&](ExprId raw, ElemType declared,
                               uint32_t width) -> std::optional<ExprId> {
    const symbolic::Node& n = store.node(raw);
    if (n.aux != 8 * width)
      return std::nullopt;
    const uint64_t pattern = uint64_t{n.b} << 32 | n.a;
    return declared == ElemType::BF16 && width == 2
               ? store.bf16_bits(static_cast<uint16_t>(pattern))
               : store.float_bits(pattern, static_cast<int>(8 * width));
  };
  // `became_float` is set where a constant's bits become the float they encode (the bytes are
  // those of that float, so a float store of the other kernel compares with it as a value).
  auto as_declared = [&](ExprId v, ElemType declared, uint32_t width, ElemType& stored,
                         bool& became_float) {
    if (declared == ElemType::Unknown || width == 0 || width > 8)
      return v;
    const symbolic::ValueKind kind = symbolic::kind_of(store, v);
    const uint8_t wc = symbolic::width_code(8 * width);
    if (!launch::is_float(declared) && kind == symbolic::ValueKind::Real) {
      // Float data in an integer array is its bits: an unsigned integer of the element's
      // width from here on, not a float store of that integer (the bits of -0.0 folded to
      // the constant 2^31 were then encoded as the f32 2^31 = 0x4F000000: a false EQUIVALENT
      // against a kernel storing 0x4F000000; fuzzer 20:383061).
      // (Its format is the store's: a bf16 is 16 bits of another encoding than an f16.)
      const ExprId bits =
          builder.float_bits(v, stored == ElemType::BF16 ? symbolic::kFormatBF16 : wc);
      if (launch::is_float(stored))
        stored = width == 1   ? ElemType::U8
                 : width == 2 ? ElemType::U16
                 : width == 4 ? ElemType::U32
                              : ElemType::U64;
      return bits;
    }
    const auto half_code = [](ElemType t) {
      return t == ElemType::BF16 ? symbolic::kFormatBF16 : symbolic::kFormatF16;
    };
    const bool halves = width == 2 && (stored == ElemType::F16 || stored == ElemType::BF16) &&
                        (declared == ElemType::F16 || declared == ElemType::BF16);
    // (A float constant too: neg.f16 of neg.f16 of 0x4400 folds to the f16 constant 4, whose
    // bytes a bf16 array reads as 512; fuzzer 20:173656.)
    if (halves && stored != declared &&
        (kind == symbolic::ValueKind::Real || symbolic::is_float_const(store, v))) {
      became_float = true;
      return builder.bits_float(builder.float_bits(v, half_code(stored)), half_code(declared));
    }
    const uint8_t float_code = declared == ElemType::BF16 ? symbolic::kFormatBF16 : wc;
    // Integer data read in the declared float format is a value of that type from here on,
    // and is compared as one: kept as an integer store, a float of the other kernel was read
    // back as an integer against it (the bytes of 2^-133 as the u32 65536 against the float
    // the optimized kernel's bits encode; fuzzer 24:179639).
    // (A store narrower than the element leaves other bytes: its bits are not the element's,
    // and the store keeps its own type, compared by its bytes.)
    if (launch::is_float(declared) && kind == symbolic::ValueKind::Int) {
      if (launch::byte_width(stored) != width)
        return v;
      stored = declared;
      return builder.bits_float(v, float_code);
    }
    // A select of integer bit patterns stored by an integer store (selp.b32 1, 0 and st.b32)
    // into a float array: the select of the floats its arms encode, not the integers as numbers
    // (fuzzer 15:19957; a float store converts it as it stores: exec_memory.cpp).
    // So is such a select folded to one arm, an integer constant (fuzzer 17:135489: 0xC0300000
    // stored by st.b32 is -2.75, not 3224371200).
    if (launch::is_float(declared) && !launch::is_float(stored) &&
        launch::byte_width(stored) == width && kind == symbolic::ValueKind::Any &&
        store.op(v) == symbolic::Op::Select) {
      const symbolic::Node n = store.node(v);
      stored = declared;
      return builder.select(n.a, builder.bits_float(n.b, float_code),
                            builder.bits_float(n.c, float_code), n.aux);
    }
    if (launch::is_float(declared) && !launch::is_float(stored) &&
        launch::byte_width(stored) == width && kind == symbolic::ValueKind::Any &&
        store.op(v) == symbolic::Op::Const) {
      became_float = true;
      return builder.bits_float(v, float_code);
    }
    if (launch::is_float(declared) && !launch::is_float(stored) &&
        launch::byte_width(stored) == width && store.op(v) == symbolic::Op::RawBits) {
      if (const auto id = float_of_raw_bits(v, declared, width)) {
        became_float = true;
        return *id;
      }
    }
    return v;
  };
  symbolic::ExactTerms exact(store);
  for (const auto& name : arrays) {
    const exec::OutputArray* r = find_output(ref_run, name);
    const exec::OutputArray* o = find_output(opt_run, name);
    if (!r || !o) {
      result.verdict = Verdict::Error;
      result.bad_input = true;
      result.detail = fmt::format("array \"{}\" is not an output (out/inout/zero) of {} kernel",
                                  name, !r ? "the reference" : "the optimized");
      return finish();
    }
    const size_t first_job = jobs.size();
    // Both index lists are sorted and free of repeats: walk them together. The final contents
    // of memory are compared: an element written by one kernel only is compared with what the
    // other kernel leaves there, the array's initial contents (zero: 0, inout: the input
    // symbol). Only an `out` element, undefined until written, is a difference by itself.
    size_t i = 0, j = 0;
    while (i < r->elements.size() || j < o->elements.size()) {
      const bool has_r = i < r->elements.size(), has_o = j < o->elements.size();
      if (has_r && has_o && r->elements[i].first == o->elements[j].first) {
        ElemType ref_stored = r->store_types[i], opt_stored = o->store_types[j];
        bool ref_float = false, opt_float = false;
        ExprId rv =
            as_declared(r->elements[i].second, r->declared, r->elem_width, ref_stored, ref_float);
        ExprId ov =
            as_declared(o->elements[j].second, r->declared, r->elem_width, opt_stored, opt_float);
        // Bits made a float against a float store of that type: one type, compared as values
        // (fuzzer 17:135489).
        if (ref_float && opt_stored == r->declared)
          ref_stored = r->declared;
        if (opt_float && ref_stored == r->declared)
          opt_stored = r->declared;
        // Both made floats of the declared type (bits, or a 16-bit float of the other format):
        // each is the element's bytes read as the array declares them (fuzzer 20:173656).
        if (ref_float && opt_float)
          ref_stored = opt_stored = r->declared;
        // Against an integer store the constant stays the bits it was: a value and its type
        // change together, or a float is read back as an integer (fuzzer 24:179639).
        if (ref_float && ref_stored != r->declared)
          rv = r->elements[i].second;
        if (opt_float && opt_stored != r->declared)
          ov = o->elements[j].second;
        // Concrete bits against a value of the other kernel that as_declared made a float: the
        // bits are that float too (else integer bits meet a float, one pattern two numbers).
        // Bits against bits stay bits (compared as such: +0/-0, NaN payloads).
        // (Against a constant the bytes decide, element_prover.cpp's compare_bytes.)
        const bool r_bits = store.op(rv) == symbolic::Op::RawBits;
        const bool o_bits = store.op(ov) == symbolic::Op::RawBits;
        const auto symbolic_float = [&](ExprId x) {
          return symbolic::kind_of(store, x) == symbolic::ValueKind::Real &&
                 store.op(x) != symbolic::Op::PosInf && store.op(x) != symbolic::Op::NegInf &&
                 !store.is_neg_zero(x);
        };
        if (r_bits != o_bits && launch::is_float(r->declared) && symbolic_float(r_bits ? ov : rv)) {
          ExprId& bits = r_bits ? rv : ov;
          if (const auto id = float_of_raw_bits(bits, r->declared, r->elem_width))
            bits = *id;
        }
        jobs.push_back(
            prove::ElementJob{name, r->elements[i].first, rv, ov, ref_stored, opt_stored});
        ++i;
        ++j;
        continue;
      }
      const bool reference_writes =
          has_r && (!has_o || r->elements[i].first < o->elements[j].first);
      const auto& [index, value] = reference_writes ? r->elements[i] : o->elements[j];
      const ElemType type = reference_writes ? r->store_types[i] : o->store_types[j];
      const auto initial = initial_content(reference_writes ? *o : *r, index, type, store);
      ++pair.one_sided;
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
        jobs.push_back(
            prove::ElementJob{name, index, value, initial->first, type, initial->second});
        ++i;
      } else {
        jobs.push_back(
            prove::ElementJob{name, index, initial->first, value, initial->second, type});
        ++j;
      }
    }
    result.output_types.push_back(output_types(*r, *o));
    result.output_types.back().integer = integer_values(store, jobs, first_job);
    // The elements both kernels compute without rounding: the cross-check holds them to
    // equality on the device (symbolic/exact_terms.hpp).
    for (size_t k = first_job; k < jobs.size(); ++k) {
      if (exact.exact(jobs[k].ref) && exact.exact(jobs[k].opt))
        result.output_types.back().exact_elements.insert(jobs[k].index);
    }
  }
  return true;
}

} // namespace volta::entry
