#include "engine/entry/cross_check_verdict.hpp"

#include <fmt/format.h>

#include "support/invariant.hpp"

namespace volta::entry {

CrossCheckRequest cross_check_request(const EntryResult& result, double proof_seconds) {
  CrossCheckRequest request;
  for (const OutputType& t : result.output_types)
    request.arrays.push_back(CrossCheckArray{t.array, !t.integer, t.exact_elements});
  for (const KernelSummary& k : result.kernels) {
    if (k.role == "reference")
      request.reference_instructions += k.stats.instructions;
    else if (k.role == "optimized")
      request.optimized_instructions += k.stats.instructions;
  }
  request.proof_seconds = proof_seconds;
  return request;
}

std::string inconsistency_detail(const CrossCheckContradiction& c) {
  return fmt::format("the emulator contradicts EQUIVALENT: on cross-check input {} ('{}') {} "
                     "stores {} (reference) vs {} (optimized): {}",
                     c.input, c.input_name, c.element, c.reference_device, c.optimized_device,
                     c.why);
}

void apply_cross_check(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                       const ProveOptions& options,
                       std::chrono::steady_clock::time_point entry_start, EntryResult& result) {
  VOLTA_ASSERT(result.verdict == Verdict::Equivalent,
               "only an EQUIVALENT verdict is cross-checked");
  if (!options.cross_check || !entry.cross_check)
    return;
  const double proof_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - entry_start).count();
  const exec::LoadResult ref = kernels.load(entry.reference.ptx_path, entry.reference.entry);
  const exec::LoadResult opt = kernels.load(entry.optimized.ptx_path, entry.optimized.entry);
  CrossCheck check;
  if (!ref.kernel || !opt.kernel) { // loaded for the proof: only a cache that dropped them
    check.skipped_reason = "a kernel could not be loaded again for the emulator";
  } else {
    CrossCheckRequest request = cross_check_request(result, proof_seconds);
    request.cancel = options.cancel;
    request.tolerance = entry.float_tolerance ? entry.float_tolerance : options.float_tolerance;
    check = options.cross_check(entry, ref.kernel->program, opt.kernel->program, request);
  }
  result.phases["cross_check"] += check.seconds;
  if (check.contradiction) {
    result.verdict = Verdict::Inconsistent;
    result.detail = inconsistency_detail(*check.contradiction);
  }
  result.cross_check = std::move(check);
}

} // namespace volta::entry
