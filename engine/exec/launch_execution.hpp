// The steps of executing a kernel launch, shared by a run of the whole grid (run_kernel.hpp)
// and a run a group of CTAs at a time (grouped_launch.hpp): the launch context made ready for
// a store, a range of CTAs executed, and what the run produced collected into a KernelRun.
#pragma once

#include <cstdint>

#include "engine/exec/kernel_run.hpp"
#include "engine/exec/launch_context.hpp"

namespace volta::exec {

// Fills what the CTAs of `ctx` read besides global memory, in its store: the undefined value,
// the parameter buffer, .const memory and the pending-atomic marker. `ctx.undef` must be the
// node global memory was made with (store.undef(0)).
void prepare_context(LaunchContext& ctx);

// Executes CTAs [first, last): in parallel, or one after the other in index order on this
// thread (up to the first failure, or past a data race as far as the race log looks). Returns
// the statistics of the CTAs that ran.
KernelStats run_ctas(LaunchContext& ctx, uint32_t first, uint32_t last, bool sequential);

// What the executed CTAs produced: the failure and races, the partial-operation sites and
// control roots, and (without a failure) the value of every written element of every output
// array, pending atomics settled first.
KernelRun collect_run(LaunchContext& ctx);

} // namespace volta::exec
