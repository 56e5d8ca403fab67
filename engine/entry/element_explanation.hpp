// `volta-eg explain`: how one element of an equivalence entry is decided, with the e-graph's
// rewrite chain when the e-graph proved it (replayed by the explanation checker).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/entry/entry_result.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/prove/element_outcome.hpp"

namespace volta::entry {

struct ElementExplanation {
  std::optional<EntryResult> stopped; // the entry ended before the element was decided
  std::string element;
  prove::ElementOutcome outcome;
  std::string reference_expr, optimized_expr; // the element's two values, printed (truncated)
  std::vector<std::string> steps;             // the rewrite chain, one step per line
  size_t total_steps = 0;
  std::string check; // the checker's verdict on the chain
  std::string note;  // why there is no chain
};

ElementExplanation explain_element(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                                   const ProveOptions& options, const std::string& element,
                                   size_t max_steps = 60);

} // namespace volta::entry
