#include "engine/entry/batch_runs.hpp"

#include <chrono>

#include "engine/launch/configuration_key.hpp"

namespace volta::entry {

std::optional<std::string> run_key(const launch::KernelConfig& c, const exec::RunOptions& options) {
  if (options.origins != nullptr)
    return std::nullopt;
  launch::KeyWriter out;
  // The path too: a failure's message names the PTX file (exec/cta_runner.cpp).
  out.str(c.ptx_path);
  out.str(launch::configuration_key(c));
  // The options that change a run's result. The cancel flag only stops a run, and a stopped
  // run is never kept; the budget is in the key all the same (a run that finished under one
  // budget may not finish under a smaller one).
  out.num(options.check_races ? 1 : 0);
  out.num(options.benign_races ? 1 : 0);
  out.num(options.converged_waits ? 1 : 0);
  out.num(options.max_instructions);
  return out.take();
}

exec::RunOptions entry_run_options(const launch::ManifestEntry& entry,
                                   const exec::RunOptions& batch) {
  exec::RunOptions o = batch;
  if (entry.benign_races)
    o.benign_races = *entry.benign_races;
  if (entry.converged_waits)
    o.converged_waits = *entry.converged_waits;
  return o;
}

bool entry_overrides_run(const launch::ManifestEntry& entry, const exec::RunOptions& batch) {
  const exec::RunOptions own = entry_run_options(entry, batch);
  return own.benign_races != batch.benign_races || own.converged_waits != batch.converged_waits;
}

bool reusable_run(const exec::KernelRun& run) {
  if (run.races_cut_short)
    return false;
  return !run.failure ||
         (run.failure->category == exec::FailureCategory::Finding &&
          run.failure->verdict != Verdict::Unknown && run.failure->verdict != Verdict::Error);
}

BatchRuns::BatchRuns(const std::vector<const launch::ManifestEntry*>& entries,
                     const exec::RunOptions& run) {
  struct Keys {
    const launch::ManifestEntry* entry;
    std::optional<std::string> ref, opt;
  };
  std::vector<Keys> keys;
  std::map<std::string, size_t> users; // entries that execute a key, on either side
  for (const auto* e : entries) {
    if (e->kind != launch::EntryKind::Equivalence || !e->error.empty())
      continue;
    const exec::RunOptions o = entry_run_options(*e, run);
    Keys k{e, run_key(e->reference, o), run_key(e->optimized, o)};
    if (k.ref)
      ++users[*k.ref];
    if (k.opt && k.opt != k.ref)
      ++users[*k.opt];
    keys.push_back(std::move(k));
  }
  // One side per entry comes from the batch (a fork has one base): the reference when another
  // entry executes it too, else the optimized kernel. Only keys that two entries take are kept.
  std::map<std::string, size_t> takers;
  std::vector<std::pair<const launch::ManifestEntry*, Use>> chosen;
  for (const Keys& k : keys) {
    Use use;
    if (k.ref && users[*k.ref] >= 2)
      use = Use{*k.ref, "reference", false};
    else if (k.opt && users[*k.opt] >= 2)
      use = Use{*k.opt, "optimized", false};
    else
      continue;
    ++takers[use.key];
    chosen.emplace_back(k.entry, std::move(use));
  }
  for (auto& [entry, use] : chosen) {
    if (takers[use.key] < 2)
      continue;
    slots_[use.key].remaining++;
    uses_.emplace(entry, std::move(use));
  }
}

std::optional<std::string> BatchRuns::shared_role(const launch::ManifestEntry& entry) const {
  std::lock_guard guard(mutex_);
  auto it = uses_.find(&entry);
  if (it == uses_.end() || it->second.settled)
    return std::nullopt;
  return it->second.role;
}

void BatchRuns::settle(Use& use) {
  if (use.settled)
    return;
  use.settled = true;
  auto it = slots_.find(use.key);
  if (it == slots_.end())
    return;
  Slot& slot = it->second;
  if (slot.remaining > 0)
    --slot.remaining;
  if (slot.remaining == 0) {
    // Nobody else takes it: the kept store goes (the forks in use hold their base).
    slot.kept.reset();
    slot.kernel.reset();
    if (!slot.in_flight)
      slots_.erase(it);
  }
}

BatchRuns::Taken BatchRuns::take(const launch::ManifestEntry& entry, const std::string& role,
                                 const std::shared_ptr<const exec::LoadedKernel>& kernel,
                                 const std::atomic<bool>* cancel) {
  std::unique_lock lock(mutex_);
  auto it = uses_.find(&entry);
  if (it == uses_.end() || it->second.settled || it->second.role != role || !kernel)
    return {};
  Use& use = it->second;
  while (true) {
    auto slot_it = slots_.find(use.key);
    if (slot_it == slots_.end()) {
      settle(use);
      return {};
    }
    Slot& slot = slot_it->second;
    if (slot.kept) {
      // The same bytes of PTX (one kernel cache loads one file once; compared all the same).
      const bool same_ptx =
          slot.kernel == kernel || slot.kernel->source_text == kernel->source_text;
      Taken taken;
      if (same_ptx) {
        taken.kept = *slot.kept;
        ++reused_;
      }
      settle(use);
      return taken;
    }
    if (slot.in_flight) {
      // Another entry executes it: wait, but not past this entry's own guard.
      changed_.wait_for(lock, std::chrono::milliseconds(20));
      if (cancel != nullptr && cancel->load()) {
        settle(use);
        return {};
      }
      continue;
    }
    settle(use);
    if (slots_.find(use.key) == slots_.end())
      return {}; // no other entry will take it: executed as without a batch
    slots_[use.key].in_flight = true;
    Taken taken;
    taken.production = std::make_unique<Production>(*this, use.key);
    return taken;
  }
}

void BatchRuns::offer(const std::string& key, std::optional<Kept> kept,
                      std::shared_ptr<const exec::LoadedKernel> kernel) {
  std::lock_guard guard(mutex_);
  auto it = slots_.find(key);
  if (it != slots_.end()) {
    it->second.in_flight = false;
    if (it->second.remaining == 0) {
      slots_.erase(it);
    } else if (kept) {
      it->second.kept = std::move(kept);
      it->second.kernel = std::move(kernel);
      ++kept_;
    }
  }
  changed_.notify_all();
}

void BatchRuns::finished(const launch::ManifestEntry& entry) {
  std::lock_guard guard(mutex_);
  auto it = uses_.find(&entry);
  if (it != uses_.end())
    settle(it->second);
}

size_t BatchRuns::kept_count() const {
  std::lock_guard guard(mutex_);
  return kept_;
}

size_t BatchRuns::reuse_count() const {
  std::lock_guard guard(mutex_);
  return reused_;
}

BatchRuns::Production::~Production() {
  if (!offered_)
    owner_.offer(key_, std::nullopt, nullptr);
}

std::unique_ptr<symbolic::ExprStore>
BatchRuns::Production::offer(std::unique_ptr<symbolic::ExprStore> store, const exec::KernelRun& run,
                             uint32_t entry_line, const std::string& executed_by,
                             std::shared_ptr<const exec::LoadedKernel> kernel,
                             std::shared_ptr<const symbolic::ExprStore>& kept) {
  offered_ = true;
  if (!reusable_run(run)) {
    owner_.offer(key_, std::nullopt, nullptr);
    return store;
  }
  store->seal();
  kept = std::shared_ptr<const symbolic::ExprStore>(std::move(store));
  owner_.offer(key_, Kept{kept, run, entry_line, executed_by}, std::move(kernel));
  return nullptr;
}

} // namespace volta::entry
