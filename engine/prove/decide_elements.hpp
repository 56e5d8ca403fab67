// Decides every element pair of an entry in one element prover, in order. Elements are first
// matched against the templates proved so far (an exact structural match with a one-to-one
// renaming of input leaves, prove/templates.hpp) and looked up in the proof cache; one that
// matches none is proved on its own and becomes a template. Stops at the first difference when
// asked, at the time limit, or when cancelled (the rest count as UNKNOWN).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/counterexample.hpp"
#include "engine/launch/launch_config.hpp"
#include "engine/prove/element_counts.hpp"
#include "engine/prove/element_prover.hpp"
#include "engine/prove/proof_cache.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::prove {

// One element to decide: the value each kernel leaves at `array[index]`, and the type of its
// last store in each kernel (see exec::OutputArray::store_types).
struct ElementJob {
  std::string array;
  uint64_t index = 0;
  symbolic::ExprId ref = 0;
  symbolic::ExprId opt = 0;
  launch::ElemType ref_type = launch::ElemType::F32;
  launch::ElemType opt_type = launch::ElemType::F32;
  std::string name() const;
};

struct DecideOptions {
  bool reuse_templates = true;
  bool stop_at_first_difference = true;
  // The time limit of the whole entry (0: none), counted from `entry_start`.
  double timeout_seconds = 0;
  std::chrono::steady_clock::time_point entry_start;
  ProofCache* cache = nullptr; // may be null
  std::atomic<bool>* cancel = nullptr;
  // Stop at the first element left UNKNOWN (--stop-at-first-unknown): the rest are not tried.
  bool stop_at_first_unknown = false;
};

struct ElementTally {
  ElementCounts counts;
  uint64_t cache_hits = 0;
  std::optional<Counterexample> counterexample; // of the first element found to differ
  bool stopped = false;                         // at the first difference
  // The first UNKNOWN element's reason (empty element: the whole loop's, a time limit or a
  // cancellation), and the limit behind it.
  std::optional<std::string> unknown_reason;
  std::string unknown_element;
  Limit unknown_limit = Limit::None;
  symbolic::ExprId unknown_ref = 0, unknown_opt = 0; // that element's two values
  bool timed_out = false;
};

ElementTally decide_elements(ElementProver& prover, const symbolic::ExprStore& store,
                             const std::vector<ElementJob>& jobs, const DecideOptions& options);

} // namespace volta::prove
