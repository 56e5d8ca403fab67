// The outcome of one manifest entry (a race check or an equivalence), as reports show it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/counterexample.hpp"
#include "engine/cross_check.hpp"
#include "engine/exec/kernel_run.hpp"
#include "engine/exec/launch_context.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/prove/domain_summary.hpp"
#include "engine/prove/element_counts.hpp"
#include "engine/verdict.hpp"

namespace volta::entry {

using prove::ElementCounts;

// The resource guard that stopped an entry (its verdict is then UNKNOWN).
enum class Guard : uint8_t {
  None,
  TimeLimit,           // --timeout (or the prover's own check between elements)
  MemoryLimit,         // --max-memory, or an allocation failed
  InstructionBudget,   // --max-instructions
  TermBudget,          // the canonical forms' term budget, or --max-terms kept it from Z3
  ENodeBudget,         // --rule-nodes stopped the saturation of the element left undecided
  SaturationTimeLimit, // --rule-seconds, likewise
  Interrupted,         // SIGINT/SIGTERM: not run, or cancelled while running
};
inline constexpr Guard kAllGuards[] = {
    Guard::None,       Guard::TimeLimit,   Guard::MemoryLimit,         Guard::InstructionBudget,
    Guard::TermBudget, Guard::ENodeBudget, Guard::SaturationTimeLimit, Guard::Interrupted};
// "time limit", "memory limit", ...: the reports' words ("" for None).
std::string_view guard_name(Guard g);
std::optional<Guard> guard_from(std::string_view name);

// The shared e-graph of an equivalence entry, at the end of the entry.
struct EgraphStats {
  uint64_t nodes = 0;
  uint64_t classes = 0;
  uint64_t canonical_merges = 0;  // classes merged because their canonical forms coincided
  uint64_t saturations = 0;       // rule-library runs (elements the forms did not decide)
  uint64_t rule_applications = 0; // rewrites that changed the e-graph in those runs
};

// A concrete counterexample (engine/counterexample.hpp) and how domain conditions were
// discharged (engine/prove/domain_summary.hpp), as reports show them.
using prove::DomainSummary;
using volta::Counterexample;

// The element type of a compared output array: declared in the manifest ("type"), and as
// inferred from each kernel's stores ("f32", "s32", ..., "mixed"; empty: nothing written).
// A sound bound on how far the device's stores of a real array can be from the real values over
// the manifest's input ranges (symbolic/rounding_error_bound.hpp), for every element both kernels
// store as floats. Where both kernels compute the same real value (EQUIVALENT), their stores are
// at most `apart` apart on the device.
struct RoundingBound {
  double reference = 0;      // the largest bound of an element of the reference
  double optimized = 0;      // ... of the optimized kernel
  double apart = 0;          // the largest reference + optimized bound of one element
  std::string apart_element; // that element, "y[5]"
  uint64_t bounded = 0;      // real elements bounded in both kernels
  uint64_t unbounded = 0;    // real elements that some kernel's term leaves without a bound
  std::string why_unbounded; // the first of those and why
};

struct OutputType {
  std::string array;
  std::string declared; // empty: not declared
  std::string reference_stores;
  std::string optimized_stores;
  // Every compared element holds integer data (an integer, a predicate, or float data compared
  // by its bits), compared exactly; else some element is real. Not in the reports: it tells the
  // emulator cross-check how to compare the array.
  bool integer = false;
  // The compared elements (sorted indices) that both kernels compute without rounding
  // (symbolic/exact_terms.hpp): the cross-check holds them to equality even in a float array.
  // Not in the reports.
  IndexRanges exact_elements;
  // Where the manifest gives input ranges: a sound bound on each kernel's rounding error in this
  // array's real elements (entry/rounding_bounds.hpp).
  std::optional<RoundingBound> rounding_bound;
};

struct KernelSummary {
  std::string role; // "kernel", "reference", "optimized"
  std::string ptx;
  std::string entry;
  uint32_t entry_line = 0; // the line of `.entry NAME` in the PTX file (0: unknown)
  exec::KernelStats stats;
  double seconds = 0;
  bool cached = false;
  // Not executed for this kernel: the run of the same kernel under the same configuration and
  // options was used (entry/batch_runs.hpp). "reference": this entry's reference run (the same
  // kernel and configuration on both sides of the pair); else the name of the batch's entry
  // that executed it. Empty: executed here (or read from `--cache`, `cached`).
  std::string reused_from;
  // The CTAs of the launch (the grid's size) and whether every one of them ran: a run of CTA
  // (0,0,0) alone proves nothing of the others, and every report says so (cta_scope).
  uint64_t launch_ctas = 1;
  bool all_ctas = true;
};

// "CTA 0 of 16" (or "reference: CTA 0 of 16, optimized: CTA 0 of 8") when some kernel of the
// entry ran a subset of its launch's CTAs; empty when every kernel ran its whole launch.
std::string cta_scope(const std::vector<KernelSummary>& kernels);

// An element left UNKNOWN, with a way forward: what stopped it, the smallest pair of subterms
// left undecided (prove/undecided_pair.hpp), and what would decide it.
struct UndecidedElement {
  std::string element;
  std::string limit; // what stopped it, in words ("the e-node budget (--rule-nodes 50000)", ...)
  std::string reference_subterm, optimized_subterm; // printed, size-capped
  std::string rule; // a rule of their shape in the rule language; empty when none can be written
  std::vector<std::string> suggestions; // what would decide it, one line each
};

struct EntryResult {
  size_t index = 0; // position of the entry in its manifest (reports are merged by it)
  std::string name;
  launch::EntryKind kind = launch::EntryKind::Equivalence;
  std::optional<Verdict> expected;
  Verdict verdict = Verdict::Error;
  bool bad_input = false;          // the verdict is ERROR because of bad input (exit status 2)
  ptx::SourceLocation input_where; // bad input in the manifest: its line and column (0: unknown)
  double seconds = 0;
  std::map<std::string, double> phases; // seconds per phase
  std::string detail;                   // one line
  std::optional<exec::Failure> failure; // safety failure or refusal
  std::string failure_kernel;           // which kernel failed ("reference"/"optimized"/"kernel")
  // Every distinct data race of that kernel (exec::KernelRun::races): `failure` is the first
  // of them when it is a race.
  std::vector<exec::Failure> races;
  bool races_truncated = false; // more distinct races than exec::kMaxReportedRaces
  bool races_cut_short = false; // a guard stopped the run after its first race (not cached)
  ElementCounts elements;
  std::optional<EgraphStats> egraph;   // equivalence entries that reached the prover
  std::optional<DomainSummary> domain; // equivalence entries whose domains were checked
  std::optional<Counterexample> counterexample;
  std::optional<UndecidedElement> undecided; // UNKNOWN equivalence entries, when an element was
  std::vector<KernelSummary> kernels;
  std::vector<OutputType> output_types; // equivalence entries, per compared array
  // The emulator cross-check of an EQUIVALENT (engine/cross_check.hpp): set when it was asked
  // for and the proof said EQUIVALENT; a contradiction made the verdict INCONSISTENT.
  std::optional<CrossCheck> cross_check;
  uint64_t cache_hits = 0;
  uint64_t z3_calls = 0;
  // The scheduling assumptions the verdict holds under ("converged-waits"; exec::RunOptions).
  std::vector<std::string> assumptions;
  // The resource guard that stopped the entry; the verdict is then UNKNOWN.
  Guard guard = Guard::None;
  // The entry did not finish because the batch was interrupted (SIGINT/SIGTERM): never started,
  // or cancelled while running. The verdict is then UNKNOWN and `guard` is Interrupted.
  bool not_run = false;
  // The result was read from the entry cache (`--cache DIR`): an earlier run of the same kernels,
  // configurations, options and volta-eg build; `seconds` is the time to read it and
  // `original_seconds` the time that run took.
  bool cached = false;
  double original_seconds = 0;

  // An EQUIVALENT whose measured float divergence is beyond the entry's float tolerance: true
  // over the reals, failing as a contract (docs/semantics.md, "Float divergence").
  bool beyond_float_tolerance() const {
    return verdict == Verdict::Equivalent && cross_check && cross_check->beyond_tolerance();
  }

  // Did the verdict meet the expectation? Without one, EQUIVALENT and RACE_FREE pass;
  // INCONSISTENT never does, nor an EQUIVALENT beyond its float tolerance.
  bool matches() const {
    if (verdict == Verdict::Inconsistent || beyond_float_tolerance())
      return false;
    if (expected)
      return *expected == verdict;
    return verdict == Verdict::Equivalent || verdict == Verdict::RaceFree;
  }
};

// The exit status of a run of these results (engine/exit_status.hpp): 0 when every result
// matches, 3 when any is INCONSISTENT, 2 when any entry was bad input, else 1.
int exit_status(const std::vector<EntryResult>& results);

// Records in `result` the assumptions its kernels ran under (a positive verdict's detail says
// so too).
void note_assumptions(const exec::RunOptions& run, EntryResult& result);

} // namespace volta::entry
