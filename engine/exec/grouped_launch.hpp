// A kernel launch executed a group of CTAs at a time, each group into an expression store of
// its own, so that the values of a finished group can be proved and dropped before the next
// group runs (streamed proofs, engine/entry/streamed_entry.hpp).
//
// What makes a group's outputs final is the race shadow, which stays from group to group while
// the cells start over: CTAs are unordered, so a CTA that reads what another CTA wrote, or
// writes what another CTA read or wrote, is a data race, reported as in a run of the whole
// grid; without one, no value crosses from one group to the next, and an element a group wrote
// is written by no later group. Atomics on global memory are the one way CTAs legitimately
// combine values: a kernel with any is not run in groups (`groupable`).
#pragma once

#include <cstdint>
#include <memory>

#include "engine/exec/global_memory.hpp"
#include "engine/exec/kernel_run.hpp"
#include "engine/exec/launch_context.hpp"
#include "engine/exec/program.hpp"
#include "engine/launch/launch_config.hpp"

namespace volta::exec {

// Why `program` cannot run in groups of CTAs under `config`, or an empty string.
std::string why_not_groupable(const Program& program, const launch::KernelConfig& config,
                              const RunOptions& options);

class GroupedLaunch {
public:
  // `program` and `config` must outlive this object; why_not_groupable() must be empty.
  GroupedLaunch(const Program& program, const launch::KernelConfig& config, RunOptions options);

  uint32_t cta_count() const { return ctas_; }

  // Executes CTAs [first, last) in parallel into `store` (global memory back to its initial
  // contents, the race shadow of the groups before kept) and collects what they produced: the
  // outputs are the elements this group wrote. The instruction budget counts over all groups.
  KernelRun run_group(symbolic::ExprStore& store, uint32_t first, uint32_t last);
  // Group `part` of `parts` equal runs of consecutive CTAs: CTAs [n·part/parts,
  // n·(part+1)/parts) of the n in the grid.
  KernelRun run_part(symbolic::ExprStore& store, uint32_t part, uint32_t parts) {
    const uint64_t n = ctas_;
    return run_group(store, static_cast<uint32_t>(n * part / parts),
                     static_cast<uint32_t>(n * (part + 1) / parts));
  }

private:
  const Program& program_;
  const launch::KernelConfig& config_;
  RunOptions options_;
  uint32_t ctas_ = 0;
  std::unique_ptr<GlobalMemory> global_;
  // Carried from group to group: epoch stamps stay unique in the shadow, and the budget counts
  // every group's instructions.
  uint32_t next_stamp_ = 1;
  uint32_t next_fresh_ = 1;
  uint64_t instructions_ = 0;
  uint32_t groups_run_ = 0; // LaunchContext::store_generation of the next group, less one
};

} // namespace volta::exec
