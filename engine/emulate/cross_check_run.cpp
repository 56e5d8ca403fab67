#include "engine/emulate/cross_check_run.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fmt/format.h>
#include <mutex>
#include <new>
#include <tbb/parallel_invoke.h>
#include <thread>

#include "engine/emulate/edge_inputs.hpp"
#include "engine/emulate/run_memo.hpp"

namespace volta::emulate {

namespace {

using Clock = std::chrono::steady_clock;

// The element types the reference reads its arrays in: both kernels get values made for them.
std::map<std::string, ElemType> reference_types(const launch::KernelConfig& config) {
  std::map<std::string, ElemType> types = declared_elem_types(config);
  for (const auto& a : config.arrays)
    types.emplace(a.name, default_elem_type(a));
  return types;
}

using SideRun = MemoizedRun;

// Stops the runs of one cross-check at its deadline or when the entry is cancelled: the flag the
// emulator polls, set by a watcher thread that looks every few milliseconds.
class Stopper {
public:
  Stopper(Clock::time_point start, double deadline_seconds, const std::atomic<bool>* cancel)
      : watcher_([this, start, deadline_seconds, cancel] {
          std::unique_lock lock(mutex_);
          while (!done_) {
            const bool late =
                deadline_seconds > 0 &&
                std::chrono::duration<double>(Clock::now() - start).count() > deadline_seconds;
            if (late || (cancel && cancel->load())) {
              late_ = late;
              stop_ = true;
              return;
            }
            wake_.wait_for(lock, std::chrono::milliseconds(5));
          }
        }) {}
  ~Stopper() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    watcher_.join();
  }
  const std::atomic<bool>* flag() const { return &stop_; }
  bool late() const { return stop_ && late_; }

private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> late_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread watcher_; // last: it starts once the members above exist
};

SideRun run_side(const exec::Program& program, const launch::KernelConfig& config, Inputs inputs,
                 uint64_t max_instructions, const std::vector<uint32_t>& ctas,
                 const std::atomic<bool>* cancel) {
  const auto start = Clock::now();
  SideRun s;
  EmulateOptions options;
  options.ctas = ctas;
  options.max_instructions = max_instructions;
  options.cancel = cancel;
  options.sparse_outputs = true; // a large array costs the pages the run touched
  // The events are this thread's: a run stays on the thread that started it.
  reset_real_arithmetic_events();
  try {
    s.result = emulate(program, config, std::move(inputs), options);
  } catch (const std::bad_alloc&) { // the proof stands; only its check could not run
    EmulationError e;
    e.kind = "out of memory";
    e.message = "the emulator ran out of memory";
    s.result.error = std::move(e);
  }
  s.events = real_arithmetic_events();
  s.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return s;
}

// The emulator's pace, thread-instructions a second of one kernel's run, learned from the runs
// made in this process (a prior before the first): what predicts a set's cost. The two kernels
// of a set run in parallel, so a set costs about its longer run.
std::atomic<double> g_rate{0};

double emulator_rate(double prior) {
  const double r = g_rate.load();
  return r > 0 ? r : prior;
}

void learn_rate(uint64_t instructions, double seconds) { // of one kernel's run
  if (instructions < 1'000'000 || seconds <= 0)          // small runs measure their set-up
    return;
  const double measured = static_cast<double>(instructions) / seconds;
  const double old = g_rate.load();
  g_rate.store(old > 0 ? 0.5 * old + 0.5 * measured : measured);
}

// Atomics on global memory combine the stores of CTAs: a sample of the CTAs is not the launch.
bool has_global_atomics(const exec::Program& program) {
  for (const auto& in : program.insts) {
    if ((in.op == exec::XOp::Atom || in.op == exec::XOp::Red) &&
        (in.space == exec::Space::Global || in.space == exec::Space::Generic))
      return true;
  }
  return false;
}

uint64_t ctas_run(const launch::KernelConfig& config) {
  return config.ctas == launch::CtaMode::All ? config.cta_count() : 1;
}

// The CTAs sampled from a launch of `config`: the first and the last (the tail tile), or every
// CTA it runs when that is one.
std::vector<uint32_t> sample_of(const launch::KernelConfig& config) {
  const uint64_t n = ctas_run(config);
  if (n <= 1)
    return {0};
  return {0, static_cast<uint32_t>(n - 1)};
}

std::string ctas_text(const std::vector<uint32_t>& ctas, uint64_t of) {
  std::string list;
  for (uint32_t c : ctas)
    list += fmt::format("{}{}", list.empty() ? "" : ", ", c);
  return fmt::format("CTA{} {{{}}} of {}", ctas.size() == 1 ? "" : "s", list, of);
}

// What the cross-check compared, in words: "3 input sets, CTAs {0, 15} of 16, 512 elements
// compared".
std::string checked_text(const CrossCheck& c, const launch::ManifestEntry& entry) {
  std::string launch;
  if (!c.reference_ctas.empty()) {
    const std::string ref = ctas_text(c.reference_ctas, ctas_run(entry.reference));
    const std::string opt = ctas_text(c.optimized_ctas, ctas_run(entry.optimized));
    launch = ref == opt ? ref : fmt::format("{} (reference), {} (optimized)", ref, opt);
  } else {
    const uint64_t n = std::max(ctas_run(entry.reference), ctas_run(entry.optimized));
    const uint64_t grid = std::max(entry.reference.cta_count(), entry.optimized.cta_count());
    launch = n > 1      ? fmt::format("every CTA of {}", n)
             : grid > 1 ? fmt::format("CTA 0 of {} (ctas: first)", grid)
                        : "the launch's one CTA";
  }
  return fmt::format("{} input set{}, {}, {} elements compared", c.inputs, c.inputs == 1 ? "" : "s",
                     launch, c.elements);
}

} // namespace

double emulator_rate_now() {
  return emulator_rate(CrossCheckOptions{}.prior_rate);
}

CrossCheck cross_check(const launch::ManifestEntry& entry, const exec::Program& reference,
                       const exec::Program& optimized, const CrossCheckRequest& request,
                       const CrossCheckOptions& options) {
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  CrossCheck check;
  check.inputs_planned = std::min(options.inputs, kEdgeInputSets);
  check.budget_seconds = options.budget_seconds;
  check.tolerance = request.tolerance; // compare_outputs holds each element to it
  auto finish = [&] {
    check.ran = check.inputs > 0;
    check.seconds = elapsed();
    if (check.ran)
      check.checked = checked_text(check, entry);
    return check;
  };
  if (request.cancel && request.cancel->load()) {
    check.skipped_reason = "the entry was cancelled";
    return finish();
  }

  // The plan, decided before anything runs: the whole launch when its predicted cost fits the
  // budget, else a sample of its CTAs when that is sound and fits, else nothing (skipped, with
  // the prediction) — a run is never started only to be stopped.
  const double rate = emulator_rate(options.prior_rate);
  const bool known = request.reference_instructions > 0 && request.optimized_instructions > 0;
  const uint64_t ref_ctas = ctas_run(entry.reference), opt_ctas = ctas_run(entry.optimized);
  uint64_t ref_work = request.reference_instructions, opt_work = request.optimized_instructions;
  // What the runs of a set not kept in the memo (below) cost: the kernels run in parallel.
  struct Work {
    uint64_t reference = 0, optimized = 0;
    double seconds(double pace) const {
      return static_cast<double>(std::max(reference, optimized)) / pace;
    }
    std::string text(double pace) const {
      return fmt::format("{} + {} thread-instructions, about {:.2g}s at the emulator's {:.3g} "
                         "thread-instructions/s, the two kernels in parallel",
                         reference, optimized, seconds(pace), pace);
    }
  };
  const auto value_types = reference_types(entry.reference);
  auto sample_key = [](const std::vector<uint32_t>& ctas) {
    std::string key;
    for (uint32_t c : ctas)
      key += fmt::format("|cta {}", c);
    return key;
  };
  // Each set's memo keys (a fingerprint of the whole program and configuration), made once: the
  // plan and the runs read them.
  std::vector<std::string> ref_keys, opt_keys;
  for (uint32_t set = 0; set < std::max(1u, check.inputs_planned); ++set) { // the plan reads set 0
    ref_keys.push_back(run_key(reference, entry.reference, set, value_types));
    opt_keys.push_back(run_key(optimized, entry.optimized, set, value_types));
  }
  // What a set costs is the runs not kept in the memo: the reference of an entry that follows
  // another of the same reference costs nothing, nor does the optimized kernel where it is the
  // reference. (A sample's runs have keys of their own.)
  const auto fresh_work = [&](uint32_t set, const std::string& ref_suffix,
                              const std::string& opt_suffix) {
    const std::string ref_key = ref_keys[set] + ref_suffix;
    const std::string opt_key = opt_keys[set] + opt_suffix;
    const bool ref_kept = options.reuse_runs && memoized_run(ref_key) != nullptr;
    const bool opt_kept =
        opt_key == ref_key || (options.reuse_runs && memoized_run(opt_key) != nullptr);
    return Work{ref_kept ? 0 : ref_work, opt_kept ? 0 : opt_work};
  };
  const double whole_seconds = fresh_work(0, "", "").seconds(rate);
  std::vector<uint32_t> ref_sample, opt_sample; // empty: the whole launch
  const bool over = options.budget_seconds > 0 && known && whole_seconds > options.budget_seconds;
  if (over) {
    const std::string whole =
        fmt::format("the whole launch ({}) does not fit the cross-check's budget of {:.2g}s",
                    fresh_work(0, "", "").text(rate), options.budget_seconds);
    const bool atomics = has_global_atomics(reference) || has_global_atomics(optimized);
    if (!options.sample_ctas || (ref_ctas <= 1 && opt_ctas <= 1)) {
      check.skipped_reason = whole;
      return finish();
    }
    if (atomics) {
      check.skipped_reason = fmt::format(
          "{}, and a sample of its CTAs is not the launch: the {} kernel uses atomics on "
          "global memory",
          whole, has_global_atomics(reference) ? "reference" : "optimized");
      return finish();
    }
    ref_sample = sample_of(entry.reference);
    opt_sample = sample_of(entry.optimized);
    // A CTA's share of its launch's work (CTAs of a launch run the same program).
    ref_work = ref_work / ref_ctas * ref_sample.size();
    opt_work = opt_work / opt_ctas * opt_sample.size();
    const Work sample_work = fresh_work(0, sample_key(ref_sample), sample_key(opt_sample));
    if (sample_work.seconds(rate) > options.budget_seconds) {
      check.skipped_reason = fmt::format("{}, nor does a sample of {} and {} ({})", whole,
                                         ctas_text(ref_sample, ref_ctas),
                                         ctas_text(opt_sample, opt_ctas), sample_work.text(rate));
      return finish();
    }
    check.reference_ctas = ref_sample;
    check.optimized_ctas = opt_sample;
  }
  const bool sampled = !ref_sample.empty();

  const auto budget = [&](uint64_t symbolic) {
    if (symbolic == 0)
      return EmulateOptions{}.max_instructions; // not known (a kept result): the default
    return std::max(options.min_instructions, static_cast<uint64_t>(options.instruction_factor *
                                                                    static_cast<double>(symbolic)));
  };
  const uint64_t ref_budget = budget(ref_work);
  const uint64_t opt_budget = budget(opt_work);
  const Stopper stopper(start, options.deadline_seconds, request.cancel);
  const std::string ran_out =
      fmt::format("the cross-check's time limit of {:.3g}s ran out", options.deadline_seconds);
  double set_seconds = 0; // the longest set run so far, emulated afresh

  for (uint32_t set = 0; set < check.inputs_planned; ++set) {
    if (stopper.late()) {
      check.notes.push_back(
          fmt::format("stopped after {} of {} input sets: {}", set, check.inputs_planned, ran_out));
      break;
    }
    if (request.cancel && request.cancel->load()) {
      if (set == 0)
        check.skipped_reason = "the entry was cancelled";
      else
        check.notes.push_back(
            fmt::format("stopped after {} of {} input sets: cancelled", set, check.inputs_planned));
      break;
    }
    // A further set starts only when its predicted cost (the longest set so far, or the
    // symbolic counts) still fits the budget.
    const double next = std::max(
        set_seconds,
        known ? fresh_work(set, sample_key(ref_sample), sample_key(opt_sample)).seconds(rate)
              : 0.0);
    const double sets_budget = options.further_sets_budget_seconds > 0
                                   ? options.further_sets_budget_seconds
                                   : options.budget_seconds;
    if (set > 0 && options.budget_seconds > 0 && elapsed() + next > sets_budget) {
      check.notes.push_back(fmt::format(
          "stopped after {} of {} input sets: another would not fit the cross-check's budget of "
          "{:.2g}s (about {:.2g}s each)",
          set, check.inputs_planned, sets_budget, next));
      break;
    }
    const auto set_start = Clock::now();
    // A run made before (the same kernel, configuration, CTAs and input set) is not made again.
    const std::string ref_key = ref_keys[set] + sample_key(ref_sample);
    const std::string opt_key = opt_keys[set] + sample_key(opt_sample);
    std::shared_ptr<const SideRun> ref = options.reuse_runs ? memoized_run(ref_key) : nullptr;
    std::shared_ptr<const SideRun> opt =
        opt_key == ref_key || !options.reuse_runs ? ref : memoized_run(opt_key);
    check.reused_runs += (ref ? 1 : 0) + (opt ? 1 : 0);
    // Made page by page as the runs touch them: a CTA that reads a few pages of a 64 MiB
    // array costs those pages, not the array.
    std::optional<Inputs> ref_in, opt_in;
    if (!ref)
      ref_in = generated_edge_inputs(entry.reference, set, value_types);
    if (!opt && opt_key != ref_key)
      opt_in = generated_edge_inputs(entry.optimized, set, value_types);
    auto run_ref = [&] {
      if (ref_in)
        ref =
            std::make_shared<const SideRun>(run_side(reference, entry.reference, std::move(*ref_in),
                                                     ref_budget, ref_sample, stopper.flag()));
    };
    auto run_opt = [&] {
      if (opt_in)
        opt =
            std::make_shared<const SideRun>(run_side(optimized, entry.optimized, std::move(*opt_in),
                                                     opt_budget, opt_sample, stopper.flag()));
    };
    // Each run holds the pages it touched: both run at once.
    tbb::parallel_invoke(run_ref, run_opt);
    if (!opt) // the optimized kernel is the reference (the same program and configuration)
      opt = ref;
    const uint64_t fresh =
        (ref_in ? ref->result.instructions : 0) + (opt_in ? opt->result.instructions : 0);
    check.instructions += fresh;
    const double this_set = std::chrono::duration<double>(Clock::now() - set_start).count();
    if (ref_in || opt_in)
      set_seconds = std::max(set_seconds, this_set);
    if (ref_in && ref->result.ok())
      learn_rate(ref->result.instructions, ref->seconds);
    if (opt_in && opt->result.ok())
      learn_rate(opt->result.instructions, opt->seconds);
    if (options.reuse_runs) {
      memoize_run(ref_key, ref);
      memoize_run(opt_key, opt);
    }
    std::string why;
    if (!ref->result.ok() || !opt->result.ok()) {
      const bool ref_failed = !ref->result.ok();
      const EmulationError& e = ref_failed ? *ref->result.error : *opt->result.error;
      why = e.kind == "cancelled"
                ? (stopper.late() ? fmt::format("{} during input set {} ('{}')", ran_out, set,
                                                edge_input_name(set))
                                  : std::string("the entry was cancelled"))
            : e.kind == "instruction budget"
                ? fmt::format(
                      "the {} kernel ran past the emulator's budget of {} thread-instructions "
                      "({} times its symbolic run)",
                      ref_failed ? "reference" : "optimized", ref_failed ? ref_budget : opt_budget,
                      options.instruction_factor)
                : fmt::format("the {} kernel does not run on the emulator: {}",
                              ref_failed ? "reference" : "optimized", e.text());
    } else if (sampled && (ref->result.foreign_reads > 0 || opt->result.foreign_reads > 0)) {
      // What the sampled CTAs stored may depend on what other CTAs wrote: not compared.
      why = fmt::format("the {} kernel's sampled CTAs read global memory that they did not "
                        "write and other CTAs may (a sample is not the launch), and {}",
                        ref->result.foreign_reads > 0 ? "reference" : "optimized",
                        fmt::format("the whole launch (about {:.2g}s) does not fit the "
                                    "cross-check's budget of {:.2g}s",
                                    whole_seconds, options.budget_seconds));
    }
    if (!why.empty()) {
      if (set == 0) {
        check.skipped_reason = std::move(why);
      } else {
        check.notes.push_back(fmt::format("stopped after {} of {} input sets: on input '{}' {}",
                                          set, check.inputs_planned, edge_input_name(set), why));
      }
      break;
    }
    EmulatedPair pair{&ref->result, &opt->result, ref->events, opt->events, set};
    const uint64_t before = check.elements;
    compare_outputs(request.arrays, pair, check, sampled);
    if (sampled && check.elements == before && !check.contradiction) {
      // Nothing in common: the two kernels tile the output differently.
      const std::string none = fmt::format(
          "the sampled {} of the reference and {} of the optimized kernel write no common "
          "element of the compared arrays",
          ctas_text(ref_sample, ref_ctas), ctas_text(opt_sample, opt_ctas));
      if (set == 0)
        check.skipped_reason = none;
      else
        check.notes.push_back(
            fmt::format("stopped after {} of {} input sets: {}", set, check.inputs_planned, none));
      break;
    }
    ++check.inputs;
    if (options.observe)
      options.observe(pair);
    if (check.contradiction)
      break; // one input that shows it is enough
  }
  return finish();
}

} // namespace volta::emulate
