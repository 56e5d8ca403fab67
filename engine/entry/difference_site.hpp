// Locates a NOT_EQUIVALENT element in the sources: the store of each kernel that wrote it, and
// the first point where the two computations part. The pair is run a second time with an
// origin log (exec/origin_log.hpp), which the run that decided the verdict never pays for; the
// two element values are then walked from the root down, in parallel, while their operators
// match, into the operand pair whose values differ at the counterexample. The deepest such pair
// (its operands agree, or it is a pair of inputs) is where they part.
#pragma once

#include "engine/counterexample.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/exec/kernel_cache.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::entry {

// The parting pair of two element values at `point`, with the pairs above it (root first).
struct PartingPath {
  std::vector<std::pair<symbolic::ExprId, symbolic::ExprId>> pairs; // root ... parting pair
};

// Walks `ref` and `opt` down while they differ at `point` (each step evaluates the operands of
// one pair, memoized by the evaluator: a walk over shared DAGs, never a tree walk).
PartingPath parting_path(const symbolic::ExprStore& store, symbolic::ExprId ref,
                         symbolic::ExprId opt, const symbolic::Assignment& point);

// Fills `c.location` (its `note` says what could not be located). Does nothing for an element
// the prover did not compare (a domain failure, an element one kernel leaves undefined).
void locate_difference(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                       const ProveOptions& options, Counterexample& c);

} // namespace volta::entry
