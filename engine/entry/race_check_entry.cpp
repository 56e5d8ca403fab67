#include "engine/entry/race_check_entry.hpp"

#include <chrono>
#include <fmt/format.h>

#include "engine/entry/run_configuration.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::entry {

namespace {

// Why a RACE_FREE answer would rest on a domain assumption: a predicate decided over the reals
// whose value involves a partial operation (division, root, logarithm, integer division).
std::optional<std::string> partial_decision(const exec::KernelRun& run,
                                            const symbolic::ExprStore& store) {
  for (symbolic::ExprId root : run.control_roots) {
    if (store.taint(root) & symbolic::kTaintPartial)
      return fmt::format("a branch was decided over the reals on {}, which involves a division "
                         "or another partial operation: on inputs where that is undefined the "
                         "device may take the other path, so no RACE_FREE is claimed",
                         symbolic::to_sexpr(store, root, 160));
  }
  return std::nullopt;
}

} // namespace

RaceCheck check_race(const launch::KernelConfig& config, exec::KernelCache& cache,
                     const CheckOptions& options) {
  RaceCheck check;
  EntryResult& result = check.result;
  result.kind = launch::EntryKind::RaceCheck;
  const symbolic::ExprStore& store = *check.store;
  check.run =
      execute_config(config, "kernel", cache, *check.store, options.run, result, options.runs);
  if (!check.run || check.run->failure)
    return check;
  if (auto f = output_failure(*check.run, store, false)) {
    result.verdict = f->verdict;
    result.detail = f->message;
    result.failure = f;
    result.failure_kernel = "kernel";
  } else if (auto relied = partial_decision(*check.run, store)) {
    // A branch decided over the reals assumed a value defined that an input can make undefined
    // (a NaN from 0/0 takes the other path on the device), and a race check has no reference
    // to assume it: RACE_FREE would not hold for every input.
    result.verdict = Verdict::Unknown;
    result.detail = *relied;
  } else {
    result.verdict = Verdict::RaceFree;
    result.detail = "no data race, no out-of-bounds access, no deadlock, no uninitialized output";
  }
  return check;
}

EntryResult check_race_entry(const launch::ManifestEntry& entry, exec::KernelCache& cache,
                             const CheckOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  EntryResult result;
  if (!entry.error.empty()) {
    result.kind = launch::EntryKind::RaceCheck;
    result.verdict = Verdict::Error;
    result.bad_input = true;
    result.detail = entry.error;
  } else {
    result = check_race(entry.kernel, cache, options).result;
  }
  result.name = entry.name;
  result.expected = entry.expected;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

} // namespace volta::entry
