// The emulator cross-check applied to an EQUIVALENT entry (engine/cross_check.hpp): the request
// made from what the proof compared, the hook of the options run, its outcome stored in the
// result, and a contradiction turned into the verdict INCONSISTENT — never printed as
// EQUIVALENT.
#pragma once

#include <chrono>

#include "engine/entry/entry_result.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/exec/kernel_cache.hpp"

namespace volta::entry {

// What the cross-check of `result` (an EQUIVALENT) compares: its output arrays, real or
// integer, and the symbolic runs' instruction counts.
CrossCheckRequest cross_check_request(const EntryResult& result, double proof_seconds);

// Runs options.cross_check on an EQUIVALENT `result` (when installed and the entry allows it),
// stores the outcome and its time (phase "cross_check"), and on a contradiction makes the
// verdict INCONSISTENT with the element, both device values and the input in the detail.
void apply_cross_check(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                       const ProveOptions& options,
                       std::chrono::steady_clock::time_point entry_start, EntryResult& result);

// The detail of an INCONSISTENT entry.
std::string inconsistency_detail(const CrossCheckContradiction& c);

} // namespace volta::entry
