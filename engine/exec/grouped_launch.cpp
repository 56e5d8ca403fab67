#include "engine/exec/grouped_launch.hpp"

#include <chrono>

#include "engine/exec/launch_execution.hpp"

namespace volta::exec {

std::string why_not_groupable(const Program& program, const launch::KernelConfig& config,
                              const RunOptions& options) {
  if (config.ctas != launch::CtaMode::All)
    return "only CTA 0 runs";
  if (config.cluster_size() > 1)
    return "cluster launches are not modelled (run_kernel refuses them)";
  if (!options.check_races)
    return "races are not checked";
  for (const Inst& in : program.insts) {
    if ((in.op == XOp::Atom || in.op == XOp::Red) && in.space != Space::Shared)
      return "it has atomics on global memory";
  }
  return {};
}

GroupedLaunch::GroupedLaunch(const Program& program, const launch::KernelConfig& config,
                             RunOptions options)
    : program_(program), config_(config), options_(options),
      ctas_(static_cast<uint32_t>(config.cta_count())) {}

KernelRun GroupedLaunch::run_group(symbolic::ExprStore& store, uint32_t first, uint32_t last) {
  const auto start = std::chrono::steady_clock::now();
  const ExprId undef = store.undef(0);
  if (!global_)
    global_ = std::make_unique<GlobalMemory>(program_, config_, store, undef);
  else
    global_->restart(store, undef);
  LaunchContext ctx(program_, config_, store, *global_, options_);
  ctx.store_generation = ++groups_run_; // each group's nodes live in a store of its own
  ctx.undef = undef;
  ctx.next_stamp = next_stamp_;
  ctx.next_fresh = next_fresh_;
  ctx.instructions = instructions_;
  prepare_context(ctx);
  const KernelStats stats = run_ctas(ctx, first, last, false);
  next_stamp_ = ctx.next_stamp.load();
  next_fresh_ = ctx.next_fresh.load();
  instructions_ = ctx.instructions.load();
  KernelRun run = collect_run(ctx);
  run.stats = stats;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

} // namespace volta::exec
