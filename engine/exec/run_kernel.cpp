#include "engine/exec/run_kernel.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "engine/exec/launch_execution.hpp"
#include "engine/exec/lower.hpp"
#include "ptx/parser.hpp"

namespace volta::exec {

std::string LoadResult::failure_headline() const {
  const auto error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                  [](const auto& d) { return d.severity == ptx::Severity::Error; });
  return error != diagnostics.end() ? error->headline()
         : diagnostics.empty()      ? "cannot load kernel"
                                    : diagnostics.front().headline();
}

LoadResult load_kernel(const std::string& ptx_path, const std::string& entry) {
  LoadResult r;
  auto cannot_read = [&](const std::string& why) {
    ptx::Diagnostic d;
    d.file = ptx_path;
    d.message = "cannot read PTX file: " + why;
    r.diagnostics.push_back(std::move(d));
    return r;
  };
  std::error_code ec;
  if (std::filesystem::is_directory(ptx_path, ec)) // an ifstream opens a folder, reads nothing
    return cannot_read("it is a directory");
  errno = 0;
  std::ifstream in(ptx_path, std::ios::binary);
  if (!in)
    return cannot_read(errno != 0 ? std::strerror(errno) : "cannot open");
  std::stringstream buffer;
  buffer << in.rdbuf();
  auto kernel = std::make_shared<LoadedKernel>();
  kernel->source_text = buffer.str();
  auto parsed = ptx::parse(kernel->source_text, ptx_path);
  if (!parsed.ok()) {
    r.diagnostics = std::move(parsed.diagnostics);
    return r;
  }
  kernel->module = std::move(*parsed.module);
  auto lowered = lower(kernel->module, entry, kernel->source_text);
  r.diagnostics = std::move(lowered.diagnostics);
  if (!lowered.program)
    return r;
  kernel->program = std::move(*lowered.program);
  r.kernel = std::move(kernel);
  return r;
}

std::string check_config(const Program& program, const launch::KernelConfig& config) {
  if (config.params.size() != program.param_offsets.size()) {
    return fmt::format("kernel '{}' has {} parameters but the configuration gives {}",
                       program.entry, program.param_offsets.size(), config.params.size());
  }
  for (size_t i = 0; i < config.params.size(); ++i) {
    const auto& p = config.params[i];
    const uint32_t width = width_of(program.param_types[i]);
    // A scalar for an aggregate would fill its first bytes and leave the rest zero: the kernel
    // would read null pointers and zero sizes, run nothing and pass. Both mismatches are errors.
    const bool aggregate = i < program.param_aggregate.size() && program.param_aggregate[i];
    const uint64_t size = i < program.param_sizes.size() ? program.param_sizes[i] : width / 8;
    if (aggregate && p.kind != launch::ParamSpec::Kind::Struct) {
      return fmt::format("params[{}]: parameter {} ({}) is a {}-byte aggregate (.b8 [{}]), but the "
                         "configuration gives the scalar \"{}\"; give it as {{\"struct\": {}, "
                         "\"bytes\": FILE, \"fields\": [...]}}",
                         i, i, program.param_names[i], size, size, p.text, size);
    }
    if (!aggregate && p.kind == launch::ParamSpec::Kind::Struct) {
      return fmt::format("params[{}]: parameter {} ({}) is a {}-bit scalar, but the configuration "
                         "gives a struct",
                         i, i, program.param_names[i], width);
    }
    if (!aggregate && !modeled_type(program.param_types[i])) {
      // A b128 or fp8 scalar: wider than a 64-bit value, or of a format the engine does not
      // compute with; refused rather than filled with its low bytes.
      return fmt::format("params[{}]: parameter {} ({}) has the type .{}, which the engine does "
                         "not model",
                         i, i, program.param_names[i], ptx::spelling(program.param_types[i]));
    }
    if (aggregate) {
      if (p.struct_size != size) {
        return fmt::format("params[{}]: the struct is {} bytes, but parameter {} ({}) is declared "
                           "with {} bytes",
                           i, p.struct_size, i, program.param_names[i], size);
      }
      continue;
    }
    if (p.kind == launch::ParamSpec::Kind::Ptr && width != 64 && width != 32) {
      return fmt::format("parameter {} ({}) is {} bits wide and cannot hold the pointer \"{}\"", i,
                         program.param_names[i], width, p.text);
    }
    if ((p.kind == launch::ParamSpec::Kind::Float || p.kind == launch::ParamSpec::Kind::Sym) &&
        width != 32 && width != 64 && width != 16) {
      return fmt::format("parameter {} ({}) is {} bits wide and cannot hold the float \"{}\"", i,
                         program.param_names[i], width, p.text);
    }
  }
  if (config.threads_per_cta() == 0)
    return "the block has no threads";
  return {};
}

namespace {

// One execution of the CTAs the configuration asks for: in parallel, or one after the other in
// index order on this thread.
KernelRun execute(const Program& program, const launch::KernelConfig& config,
                  symbolic::ExprStore& store, const RunOptions& options, bool sequential,
                  std::chrono::steady_clock::time_point start) {
  const ExprId undef = store.undef(0);
  GlobalMemory global(program, config, store, undef);
  LaunchContext ctx(program, config, store, global, options);
  ctx.undef = undef;
  prepare_context(ctx);
  const uint32_t ctas =
      config.ctas == launch::CtaMode::All ? static_cast<uint32_t>(config.cta_count()) : 1;
  const KernelStats stats = run_ctas(ctx, 0, ctas, sequential);
  KernelRun run = collect_run(ctx);
  run.stats = stats;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

} // namespace

KernelRun run_kernel(const Program& program, const launch::KernelConfig& config,
                     symbolic::ExprStore& store, const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (auto error = check_config(program, config); !error.empty()) {
    KernelRun run;
    Failure f;
    f.verdict = Verdict::Error;
    f.category = FailureCategory::BadInput;
    f.kind = "bad launch configuration";
    f.message = error;
    run.failure = std::move(f);
    return run;
  }
  KernelRun run = execute(program, config, store, options, false, start);
  if (config.cluster_size() > 1) {
    // Clusters are not modelled (issue 33): the CTAs of a cluster share distributed shared
    // memory, cluster barriers and multicast, which a run of independent CTAs does not have.
    // An instruction refused on the way names itself (the more useful reason); any other
    // outcome of that run, a finding or a clean end, is no answer for a cluster launch.
    if (run.failure && run.failure->verdict == Verdict::Unsupported)
      return run;
    KernelRun refused;
    Failure f;
    f.verdict = Verdict::Unsupported;
    f.kind = "unsupported";
    f.message = fmt::format("the launch has clusters of {}x{}x{} CTAs; thread-block clusters "
                            "(distributed shared memory, cluster barriers, multicast) are not "
                            "modelled yet",
                            config.cluster[0], config.cluster[1], config.cluster[2]);
    refused.failure = std::move(f);
    refused.stats = run.stats;
    refused.seconds = run.seconds;
    return refused;
  }
  const bool parallel = config.ctas == launch::CtaMode::All && config.cta_count() > 1;
  const bool safety_failure = run.failure && run.failure->verdict != Verdict::Unknown &&
                              run.failure->verdict != Verdict::Error;
  if (parallel && safety_failure) {
    // Which failure CTAs running in parallel meet first depends on the schedule (two CTAs race
    // on a location: the one that comes second reports, against whichever came first). Run
    // them once more in index order on this thread, which always meets the same one first (and
    // the same races after it), so that the report is the same on every run and thread count.
    // A kernel whose CTAs fail in parallel fails in this order too (nothing a CTA does depends
    // on the timing of another without a race); should it not, the first report stands, being
    // real as well.
    KernelRun again = execute(program, config, store, options, true, start);
    if (again.failure && again.failure->verdict != Verdict::Unknown)
      return again;
    // The races of the parallel run depend on the schedule: not for the caches.
    run.races_cut_short = !run.races.empty();
  }
  return run;
}

} // namespace volta::exec
