// Proves an equivalence entry: executes both kernels into one expression DAG, checks that they
// write the same elements of every compared array, puts both kernels' output DAGs into one
// shared e-graph (prove/shared_egraph.hpp) and decides each element:
//   1. the same DAG node                                   -> EQUIVALENT (direct)
//   2. an element of an already proved template            -> EQUIVALENT (reused)
//   3. the roots share an e-class: on insertion, by the canonical-form analysis (the
//      exp-polynomial class), or by cross-multiplication   -> EQUIVALENT (direct)
//   4. a point where the two values certainly differ       -> NOT_EQUIVALENT with a counterexample
//   5. saturation with the rule library unifies the roots  -> EQUIVALENT (rules)
//   6. the fallback (Z3), when installed                   -> EQUIVALENT (z3) or UNKNOWN with
//   reason
// The pair is EQUIVALENT only when every element is.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "engine/driver/entry_result.hpp"
#include "engine/driver/kernel_cache.hpp"
#include "engine/driver/run_cache.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/prove/domain_conditions.hpp"
#include "engine/prove/element_outcome.hpp"
#include "engine/prove/shared_egraph.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::prove {

// The last resort for one element (the e-graph rule library, then Z3); installed by the layer
// that owns them. Returns nullopt when it cannot decide.
using FallbackProver = std::function<std::optional<ElementOutcome>(
    const symbolic::ExprStore& store, symbolic::ExprId ref, symbolic::ExprId opt,
    const std::string& element)>;

// Remembers the templates proved EQUIVALENT by earlier runs (`--cache DIR`), keyed by
// template_key(): a hit proves every element of the template without work. Implementations must
// be thread-safe and must never report a key they cannot vouch for (a damaged entry is a miss).
class ProofCache {
public:
  virtual ~ProofCache() = default;
  virtual bool contains(const std::string& key) = 0;
  virtual void insert(const std::string& key) = 0;
};

struct ProveOptions {
  exec::RunOptions run;
  double timeout_seconds = 0;      // 0: none (whole entry, execution included)
  size_t term_budget = 50'000'000; // new canonical-form terms per element
  int random_points = 4;
  bool reuse_templates = true;
  bool stop_at_first_difference = true;
  // The rule library the shared e-graph is saturated with (null: the shipped library) and the
  // limits of one saturation; saturate = false skips the rule pass.
  const rules::RuleLibrary* rules = nullptr;
  bool saturate = true;
  SaturationLimits saturation;
  bool explanations = false;  // record the e-graph's proof forest (volta-eg explain)
  FallbackProver fallback;    // may be empty
  DomainProver domain_prover; // may be empty
  // Runs a counterexample concretely (the bit-exact emulator, installed by the tool: it lives
  // above this layer) and fills what each kernel stores there; may be empty.
  std::function<void(const launch::ManifestEntry&, Counterexample&)> execute_counterexample;
  ProofCache* cache = nullptr;      // may be null
  driver::RunCache* runs = nullptr; // kept kernel runs (`--cache DIR`); may be null
  // Also check the converse refinement: the reference defined wherever the optimized kernel is
  // (for two peers rather than a kernel and its specification).
  bool mutual = false;
  std::atomic<bool>* cancel = nullptr;
};

driver::EntryResult prove_pair_entry(const launch::ManifestEntry& entry, driver::KernelCache& cache,
                                     const ProveOptions& options);

// `volta-eg explain`: how one element of an entry is decided, with the e-graph's rewrite chain
// when the e-graph proved it (replayed by the explanation checker).
struct ElementExplanation {
  std::optional<driver::EntryResult> stopped; // the entry ended before the element was decided
  std::string element;
  ElementOutcome outcome;
  std::string reference_expr, optimized_expr; // the element's two values, printed (truncated)
  std::vector<std::string> steps;             // the rewrite chain, one step per line
  size_t total_steps = 0;
  std::string check; // the checker's verdict on the chain
  std::string note;  // why there is no chain
};
ElementExplanation explain_element(const launch::ManifestEntry& entry, driver::KernelCache& cache,
                                   const ProveOptions& options, const std::string& element,
                                   size_t max_steps = 60);

// Decides one element pair (without templates); exposed for tests and `volta-eg explain`.
ElementOutcome prove_element(const symbolic::ExprStore& store, symbolic::ExprId ref,
                             symbolic::ExprId opt, const std::string& element,
                             const ProveOptions& options);

} // namespace volta::prove
