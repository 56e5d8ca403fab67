// The bound on each kernel's rounding error, per compared real array of a pair, over the input
// ranges the manifest gives (an array's "range"): OutputType::rounding_bound, beside the exact
// proof (issue 35; docs/semantics.md, "A bound on the rounding error").
#pragma once

#include <vector>

#include "engine/entry/entry_result.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/prove/decide_elements.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::entry {

// Bounds every element of `jobs` that both kernels store as a real number, and records the
// figures of each array in `types` (by name). Each kernel's terms read its own configuration's
// ranges; `default_range` (`--input-range`), where given, is the range of every input array
// (in, inout) that has none and of every symbolic parameter. Nothing is computed when no input
// array has a range.
void bound_rounding_errors(const launch::ManifestEntry& entry, const symbolic::ExprStore& store,
                           const std::vector<prove::ElementJob>& jobs,
                           const std::optional<std::pair<double, double>>& default_range,
                           std::vector<OutputType>& types,
                           const std::atomic<bool>* cancel = nullptr);

} // namespace volta::entry
