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
                 uint64_t max_instructions, const std::atomic<bool>* cancel) {
  SideRun s;
  EmulateOptions options;
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
  return s;
}

} // namespace

CrossCheck cross_check(const launch::ManifestEntry& entry, const exec::Program& reference,
                       const exec::Program& optimized, const CrossCheckRequest& request,
                       const CrossCheckOptions& options) {
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  CrossCheck check;
  check.inputs_planned = std::min(options.inputs, kEdgeInputSets);
  const auto budget = [&](uint64_t symbolic) {
    if (symbolic == 0)
      return EmulateOptions{}.max_instructions; // not known (a kept result): the default
    return std::max(options.min_instructions, static_cast<uint64_t>(options.instruction_factor *
                                                                    static_cast<double>(symbolic)));
  };
  const uint64_t ref_budget = budget(request.reference_instructions);
  const uint64_t opt_budget = budget(request.optimized_instructions);
  const auto value_types = reference_types(entry.reference);
  const Stopper stopper(start, options.deadline_seconds, request.cancel);
  const std::string ran_out =
      fmt::format("the cross-check's time limit of {:.3g}s ran out", options.deadline_seconds);

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
    if (set > 0 && options.max_seconds > 0 && elapsed() > options.max_seconds) {
      check.notes.push_back(fmt::format(
          "stopped after {} of {} input sets: the cross-check's time budget of {:.3g}s was spent",
          set, check.inputs_planned, options.max_seconds));
      break;
    }
    // A run made before (the same kernel, configuration and input set) is not made again.
    const std::string ref_key = run_key(reference, entry.reference, set, value_types);
    const std::string opt_key = run_key(optimized, entry.optimized, set, value_types);
    std::shared_ptr<const SideRun> ref = options.reuse_runs ? memoized_run(ref_key) : nullptr;
    std::shared_ptr<const SideRun> opt =
        opt_key == ref_key || !options.reuse_runs ? ref : memoized_run(opt_key);
    check.reused_runs += (ref ? 1 : 0) + (opt ? 1 : 0);
    std::optional<Inputs> ref_in, opt_in;
    // Made page by page as the runs touch them: a CTA that reads a few pages of a 64 MiB
    // array costs those pages, not the array.
    if (!ref)
      ref_in = generated_edge_inputs(entry.reference, set, value_types);
    if (!opt && opt_key != ref_key)
      opt_in = generated_edge_inputs(entry.optimized, set, value_types);
    auto run_ref = [&] {
      if (ref_in)
        ref = std::make_shared<const SideRun>(
            run_side(reference, entry.reference, std::move(*ref_in), ref_budget, stopper.flag()));
    };
    auto run_opt = [&] {
      if (opt_in)
        opt = std::make_shared<const SideRun>(
            run_side(optimized, entry.optimized, std::move(*opt_in), opt_budget, stopper.flag()));
    };
    // Each run holds the pages it touched: both run at once.
    tbb::parallel_invoke(run_ref, run_opt);
    if (!opt) // the optimized kernel is the reference (the same program and configuration)
      opt = ref;
    check.instructions +=
        (ref_in ? ref->result.instructions : 0) + (opt_in ? opt->result.instructions : 0);
    if (options.reuse_runs) {
      memoize_run(ref_key, ref);
      memoize_run(opt_key, opt);
    }
    if (!ref->result.ok() || !opt->result.ok()) {
      const bool ref_failed = !ref->result.ok();
      const EmulationError& e = ref_failed ? *ref->result.error : *opt->result.error;
      std::string why =
          e.kind == "cancelled" ? (stopper.late() ? fmt::format("{} during input set {} ('{}')",
                                                                ran_out, set, edge_input_name(set))
                                                  : std::string("the entry was cancelled"))
          : e.kind == "instruction budget"
              ? fmt::format(
                    "the {} kernel ran past the emulator's budget of {} thread-instructions "
                    "({} times its symbolic run)",
                    ref_failed ? "reference" : "optimized", ref_failed ? ref_budget : opt_budget,
                    options.instruction_factor)
              : fmt::format("the {} kernel does not run on the emulator: {}",
                            ref_failed ? "reference" : "optimized", e.text());
      if (set == 0) {
        check.skipped_reason = std::move(why);
      } else {
        check.notes.push_back(fmt::format("stopped after {} of {} input sets: on input '{}' {}",
                                          set, check.inputs_planned, edge_input_name(set), why));
      }
      break;
    }
    EmulatedPair pair{&ref->result, &opt->result, ref->events, opt->events, set};
    compare_outputs(request.arrays, pair, check);
    ++check.inputs;
    if (options.observe)
      options.observe(pair);
    if (check.contradiction)
      break; // one input that shows it is enough
  }
  check.ran = check.inputs > 0;
  check.seconds = elapsed();
  return check;
}

} // namespace volta::emulate
