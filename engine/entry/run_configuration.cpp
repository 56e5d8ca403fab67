#include "engine/entry/run_configuration.hpp"

#include <chrono>
#include <fmt/format.h>

#include "engine/exec/special_registers.hpp"
#include "engine/launch/cluster.hpp"

namespace volta::entry {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Reports a run (executed or read from the cache) in `result`.
void record_run(const exec::KernelRun& run, const launch::KernelConfig& config,
                const std::string& role, uint32_t entry_line, double seconds, bool cached,
                EntryResult& result) {
  KernelSummary summary;
  summary.role = role;
  summary.ptx = config.ptx_path;
  summary.entry = config.entry;
  summary.entry_line = entry_line;
  summary.stats = run.stats;
  summary.seconds = seconds;
  summary.cached = cached;
  summary.launch_ctas = config.cta_count();
  summary.all_ctas = config.ctas == launch::CtaMode::All;
  result.kernels.push_back(summary);
  result.phases["execute"] += seconds;
  record_failure(run, role, result);
}

} // namespace

void record_reused_run(const exec::KernelRun& run, const launch::KernelConfig& config,
                       const std::string& role, uint32_t entry_line, double seconds,
                       const std::string& reused_from, EntryResult& result) {
  record_run(run, config, role, entry_line, seconds, false, result);
  result.kernels.back().reused_from = reused_from;
}

void record_failure(const exec::KernelRun& run, const std::string& role, EntryResult& result) {
  if (run.failure) {
    result.verdict = run.failure->verdict;
    result.bad_input = run.failure->category == exec::FailureCategory::BadInput;
    result.detail = run.failure->message;
    result.failure = run.failure;
    result.failure_kernel = role;
    result.races = run.races;
    result.races_truncated = run.races_truncated;
    result.races_cut_short = run.races_cut_short;
    if (run.races.size() > 1) {
      result.detail +=
          fmt::format(" (and {}{} more distinct race{})", run.races_truncated ? "at least " : "",
                      run.races.size() - 1, run.races.size() > 2 ? "s" : "");
    }
  }
}

std::optional<exec::KernelRun> execute_config(const launch::KernelConfig& config,
                                              const std::string& role, exec::KernelCache& cache,
                                              symbolic::ExprStore& store,
                                              const exec::RunOptions& options, EntryResult& result,
                                              exec::RunCache* runs) {
  const auto start = std::chrono::steady_clock::now();
  const std::optional<std::string> key = runs ? runs->key_of(config, options) : std::nullopt;
  if (key) {
    if (auto hit = runs->load(*key, store)) {
      record_run(hit->run, config, role, hit->entry_line, seconds_since(start), true, result);
      return std::move(hit->run);
    }
  }
  const auto load_start = std::chrono::steady_clock::now();
  auto loaded = cache.load(config.ptx_path, config.entry);
  result.phases["load"] += seconds_since(load_start);
  if (!loaded.kernel) {
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = loaded.failure_headline();
    result.failure_kernel = role;
    return std::nullopt;
  }
  if (std::string problem = launch::cluster_problem_of(loaded.kernel->module, config);
      !problem.empty()) {
    // A cluster the kernel's directives forbid, or one that does not tile the grid: bad input.
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = fmt::format("{} kernel: {}", role, problem);
    result.failure_kernel = role;
    return std::nullopt;
  }
  exec::KernelRun run = exec::run_kernel(loaded.kernel->program, config, store, options);
  const uint32_t entry_line = kernel_summary(config, role, *loaded.kernel).entry_line;
  record_run(run, config, role, entry_line, run.seconds, false, result);
  if (key)
    runs->keep(*key, run, entry_line, store);
  return run;
}

KernelSummary kernel_summary(const launch::KernelConfig& config, const std::string& role,
                             const exec::LoadedKernel& kernel) {
  KernelSummary summary;
  summary.role = role;
  summary.ptx = config.ptx_path;
  summary.entry = config.entry;
  summary.launch_ctas = config.cta_count();
  summary.all_ctas = config.ctas == launch::CtaMode::All;
  if (const ptx::Function* f = kernel.module.find_function(config.entry))
    summary.entry_line = f->loc.line;
  return summary;
}

std::optional<exec::Failure> output_failure(const exec::KernelRun& run,
                                            const symbolic::ExprStore& store, bool values_matter) {
  for (const auto& out : run.outputs) {
    if (values_matter && out.partly_written) {
      exec::Failure f;
      f.space = "global";
      f.location = fmt::format("{}[{}]", out.name, *out.partly_written);
      f.verdict = Verdict::Unsupported;
      f.kind = "unsupported";
      f.message = fmt::format(
          "{} is partly written: stores wrote {} of its {} bytes (stores narrower than the "
          "array's elements are not compared; declare the array with the stores' element type)",
          f.location, out.partly_written_bytes, out.elem_width);
      return f;
    }
    for (const auto& [index, value] : out.elements) {
      // A root that is plain bits is a concrete value, not an opaque operation.
      const bool bits = store.node(value).op == symbolic::Op::RawBits;
      const uint16_t taint = bits ? 0 : store.node(value).taint & symbolic::kValueTaints;
      exec::Failure f;
      f.space = "global";
      f.location = fmt::format("{}[{}]", out.name, index);
      if (taint & symbolic::kTaintUndef) {
        f.verdict = Verdict::Uninitialized;
        f.kind = "uninitialized output";
        f.message = fmt::format(
            "{} receives a value computed from uninitialized memory or registers", f.location);
        return f;
      }
      if (!values_matter)
        continue;
      if (taint & symbolic::kTaintAtomicResult) {
        f.verdict = Verdict::Unsupported;
        f.kind = "unsupported";
        f.message = fmt::format("{} depends on the value returned by an atomic, which depends on "
                                "the order of the threads",
                                f.location);
        return f;
      }
      if (taint & symbolic::kTaintSchedule) {
        f.verdict = Verdict::Unsupported;
        f.kind = "unsupported";
        f.message = fmt::format("{} depends on {}, whose value depends on the hardware and the "
                                "schedule",
                                f.location, exec::describe_special_read(store, value));
        return f;
      }
      if (taint & symbolic::kTaintOpaque) {
        f.verdict = Verdict::Unsupported;
        f.kind = "unsupported";
        f.message = fmt::format(
            "{} depends on a bit-level operation on data that is not a recognized idiom",
            f.location);
        return f;
      }
    }
  }
  return std::nullopt;
}

} // namespace volta::entry
