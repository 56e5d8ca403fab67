// A batch that does not repeat work (issue 34): a kernel that several entries of one batch
// execute under the same configuration and options (the corpus's MatMul-1 is the reference of
// seven entries) runs once. The first entry that needs it executes it into an expression store
// of its own, which is then sealed and kept; every entry that needs it takes a fork of that
// store (symbolic/expr_store.hpp: the kept nodes shared, not copied, under the same ids) and
// the kept run, and executes its other kernel into the fork — exactly the store a pair run
// would have built, the two kernels' nodes hash-consed together.
//
// The key of a run is everything its result depends on (run_key below): the PTX file's path
// and bytes, the entry, the whole launch configuration and the run options. Only runs that
// ended by themselves are kept (finished, or stopped by a finding such as a data race); a run
// that a guard stopped (time, memory, instruction budget, interrupt) or that bad input stopped
// is never handed to another entry. The batch is known up front: a run is kept only for a key
// that two or more entries will take, and dropped when the last of them took it or finished
// without it, so that the cache holds at most the runs still to be used.
//
// Left out: race-check entries and streamed proofs over a whole grid (each group of CTAs runs
// in a store of its own); an entry whose streamed proof concludes never takes its kept run.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/exec/kernel_run.hpp"
#include "engine/exec/launch_context.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::entry {

// Everything a run of `config` under `options` depends on, but the PTX file's bytes (the entry
// compares those when it takes a run: BatchRuns::take), written out unambiguously; nullopt when
// the run must not be shared (it records value origins for `locate`).
std::optional<std::string> run_key(const launch::KernelConfig& config,
                                   const exec::RunOptions& options);

// The run options an entry's kernels execute under: the batch's, with the entry's own race rule
// and assumptions.
exec::RunOptions entry_run_options(const launch::ManifestEntry& entry,
                                   const exec::RunOptions& batch);
// Whether the entry's own race rule or assumptions differ from `batch`'s.
bool entry_overrides_run(const launch::ManifestEntry& entry, const exec::RunOptions& batch);

// Whether a run can stand for executing the kernel again: it ended by itself.
bool reusable_run(const exec::KernelRun& run);

class BatchRuns {
public:
  // `entries`: the batch's equivalence entries (others are ignored); `run`: the batch's options.
  BatchRuns(const std::vector<const launch::ManifestEntry*>& entries, const exec::RunOptions& run);

  // Which kernel of `entry` comes from the batch: "reference", "optimized", or nullopt (no
  // other entry executes either under the same key).
  std::optional<std::string> shared_role(const launch::ManifestEntry& entry) const;

  // What take() gives.
  struct Kept {
    std::shared_ptr<const symbolic::ExprStore> store; // sealed; fork it
    exec::KernelRun run;                              // its values live in `store`
    uint32_t entry_line = 0;
    std::string executed_by; // the entry that executed it
  };
  class Production; // the right and duty to execute a run and offer it
  struct Taken {
    std::optional<Kept> kept;               // a kept run: use it
    std::unique_ptr<Production> production; // else, when set: execute it, then offer it
  };
  // The kept run of `entry`'s `role` kernel (`kernel` is that kernel as loaded, whose bytes
  // must equal those of the kept run's). While another entry executes it, waits (until
  // `cancel`, when set). Neither kept nor production: execute the kernel as without a batch.
  Taken take(const launch::ManifestEntry& entry, const std::string& role,
             const std::shared_ptr<const exec::LoadedKernel>& kernel,
             const std::atomic<bool>* cancel);
  // `entry` ended: the runs it was counted for and did not take are not kept for it any more.
  void finished(const launch::ManifestEntry& entry);

  // Statistics: runs kept, and runs handed to an entry instead of executing them.
  size_t kept_count() const;
  size_t reuse_count() const;

private:
  friend class Production;
  struct Slot {
    size_t remaining = 0; // entries still to take it
    bool in_flight = false;
    std::optional<Kept> kept;
    std::shared_ptr<const exec::LoadedKernel> kernel; // whose run is kept
  };
  struct Use {
    std::string key;
    std::string role;
    bool settled = false; // taken, or given up
  };
  void offer(const std::string& key, std::optional<Kept> kept,
             std::shared_ptr<const exec::LoadedKernel> kernel);
  void settle(Use& use); // under mutex_: one fewer entry to take use.key

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Slot> slots_;
  std::map<const launch::ManifestEntry*, Use> uses_;
  size_t kept_ = 0, reused_ = 0;
};

class BatchRuns::Production {
public:
  Production(BatchRuns& owner, std::string key) : owner_(owner), key_(std::move(key)) {}
  ~Production(); // not offered: the slot is free again, a waiting entry executes it
  Production(const Production&) = delete;
  Production& operator=(const Production&) = delete;
  // The run was executed into `store` (which no one else writes): kept when it can be reused
  // and another entry will take it. Returns the store back when it was not kept (the caller
  // goes on in it), else nullptr and the caller forks `kept` store.
  std::unique_ptr<symbolic::ExprStore> offer(std::unique_ptr<symbolic::ExprStore> store,
                                             const exec::KernelRun& run, uint32_t entry_line,
                                             const std::string& executed_by,
                                             std::shared_ptr<const exec::LoadedKernel> kernel,
                                             std::shared_ptr<const symbolic::ExprStore>& kept);

private:
  BatchRuns& owner_;
  std::string key_;
  bool offered_ = false;
};

} // namespace volta::entry
