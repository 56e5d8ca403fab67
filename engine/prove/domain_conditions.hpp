// Domain conditions and refinement (docs/semantics.md, "Domains"): the reference is the
// specification, so on every input where the reference's execution is defined the optimized
// kernel's must be defined too. Every partial operation whose value reaches a stored element
// or a decided branch (division and rcp: divisor != 0; sqrt: >= 0; rsqrt and lg2: > 0; integer
// division and remainder: divisor != 0; and where an operand may be infinite, no inf - inf in a
// sum, no 0 * inf in a product, no inf / inf) is a condition: an *assumption* in the reference,
// an *obligation* in the optimized kernel.
//
// An operation below one arm of a select only matters when that arm is chosen (a NaN in the
// arm a select does not pick never reaches memory), so its condition carries the select's
// condition as a guard: an assumption "guard => condition", an obligation needed only where
// its guard holds.
//
// An obligation is discharged, in this order, by
//   1. the sign analysis (engine/symbolic/sign_analysis.hpp): a sum of exponentials is > 0;
//   2. its own guard (`s == 0 ? 0 : 1/s` divides only where s != 0);
//   3. an assumption of the reference on the same value (the same node, or the same
//      canonical form in the shared e-graph);
//   4. the solver (Z3, when installed): no input satisfies the reference's assumptions and
//      violates the obligation;
// and otherwise refuted by a point where every assumption of the reference holds and the
// obligation fails (NOT_EQUIVALENT, with the reference's value there), or left UNKNOWN with
// the condition named. With these discharged, canonical forms that cancel a factor (x·y/y = x)
// are equal exactly where it matters: the reference's assumptions make them valid.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/counterexample.hpp"
#include "engine/exec/kernel_run.hpp"
#include "engine/prove/domain_summary.hpp"
#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/expr_store.hpp"
#include "engine/symbolic/sign_analysis.hpp"

namespace volta::prove {

// The first three are about the value `arg` of an operand; the last three about the operands of
// the operation `site` (arg == site): a NaN made out of numbers (IEEE 754 §7.2).
enum class ConditionKind : uint8_t {
  NonZero,
  NonNegative,
  Positive,
  NoInfMinusInf,  // an add, sub or fma does not add infinities of opposite signs
  NoZeroTimesInf, // a mul or fma does not multiply a zero by an infinity
  NoInfOverInf,   // a div does not divide an infinity by an infinity
};
constexpr bool about_operands(ConditionKind k) {
  return k == ConditionKind::NoInfMinusInf || k == ConditionKind::NoZeroTimesInf ||
         k == ConditionKind::NoInfOverInf;
}

// The condition a partial operation puts on its operand (division and rcp: divisor != 0; sqrt:
// >= 0; rsqrt and lg2: > 0; integer division and remainder: divisor != 0), or nullopt for an
// operation without one.
struct OperandCondition {
  ConditionKind kind;
  symbolic::ExprId arg;
};
std::optional<OperandCondition> operand_condition(const symbolic::Node& n);

// Whether the signs place `arg`, wherever it is defined, where condition `kind` fails (a divisor
// that is always 0): false when they do not, or do not know. Conditions about infinite operands
// are never refuted here.
bool refuted_by_signs(symbolic::SignAnalysis& signs, ConditionKind kind, symbolic::ExprId arg);

struct DomainCondition {
  ConditionKind kind = ConditionKind::NonZero;
  symbolic::ExprId arg = 0;  // the operand the condition is about
  symbolic::ExprId site = 0; // the partial operation
  uint32_t guard = 0;        // index into DomainConditions::guards (0: unconditional)
  size_t root = 0;           // the first root (an element, or a control root) it lies under
};

// A conjunction of select conditions, each with the polarity of the arm taken.
struct GuardSet {
  std::vector<std::pair<symbolic::ExprId, bool>> literals;
  bool truncated = false; // nested deeper than tracked: the guard is not known exactly
};

// The conditions below a set of roots (one kernel's stored elements and control roots).
class DomainConditions {
public:
  DomainConditions(const symbolic::ExprStore& store, symbolic::SignAnalysis& signs);
  void add_root(symbolic::ExprId root, size_t root_index);

  const std::vector<DomainCondition>& conditions() const { return conditions_; }
  const GuardSet& guard(uint32_t index) const { return guards_[index]; }

private:
  uint32_t extend(uint32_t guard, symbolic::ExprId cond, bool polarity);
  void note(ConditionKind kind, symbolic::ExprId arg, symbolic::ExprId site, uint32_t guard,
            size_t root);
  // inf - inf, 0 * inf and inf / inf where the signs of `n`'s operands allow them.
  void note_infinite_operands(symbolic::ExprId id, const symbolic::Node& n, uint32_t guard,
                              size_t root);

  const symbolic::ExprStore& store_;
  symbolic::SignAnalysis& signs_;
  std::vector<DomainCondition> conditions_;
  std::vector<GuardSet> guards_;
  std::map<std::vector<std::pair<symbolic::ExprId, bool>>, uint32_t> guard_index_;
  std::unordered_set<uint64_t> visited_; // node << 32 | guard
  std::set<std::tuple<uint8_t, symbolic::ExprId, uint32_t>> noted_;
};

struct DomainOutcome {
  DomainSummary summary;
  std::optional<Counterexample> counterexample; // a refuted obligation
  std::string unknown_reason;                   // the first undecided obligation, named
  std::string failure_detail;                   // the refuted obligation, in words
  size_t solver_queries = 0;                    // obligations the solver was asked about
  // The specification is undefined on every input: an unguarded condition of it that the sign
  // analysis refutes wherever its operand is defined, in words; empty otherwise. Every
  // refinement and every equality then holds vacuously, so an entry must not be EQUIVALENT on
  // the strength of it (docs/semantics.md, "Domains").
  std::string vacuous_reason;
  bool stopped = false; // `stop` said so before every obligation was looked at
};

// One side of the check: a kernel's roots (stored elements, named, then control roots) and its
// partial operations' lines.
struct DomainSide {
  std::string role; // "reference" / "optimized"
  std::vector<std::pair<std::string, symbolic::ExprId>> elements;
  const exec::KernelRun* run = nullptr;
};

// The specification's assumptions as a test of a point (docs/semantics.md, "Domains"): a
// difference between the two kernels is a counterexample only at an input where the
// specification is defined — where every one of its assumptions holds, the ones about other
// elements and about branches included. (Out of its domain the optimized kernel may store
// anything: `x == 0 ? y + 1 : y` refines `y` beside a reference that divides by x.)
class SpecificationDomain {
public:
  SpecificationDomain(const symbolic::ExprStore& store, const DomainSide& spec);
  SpecificationDomain(const SpecificationDomain&) = delete; // its conditions hold its signs
  SpecificationDomain& operator=(const SpecificationDomain&) = delete;
  // The leaves the assumptions read, in a deterministic order: a search for a point gives them
  // values too, so that the assumptions can hold.
  const std::vector<symbolic::ExprId>& leaves() const { return leaves_; }
  // `leaves` (an element's) followed by those of leaves() not among them: what a point gives
  // values to, and a counterexample lists.
  std::vector<symbolic::ExprId> with_leaves(std::vector<symbolic::ExprId> leaves) const;
  // Does every assumption certainly hold at the evaluated point (each guarded one where its
  // guard certainly fails or the assumption holds)? False where one fails or is not known to
  // hold, and for a specification with more assumptions than are checked.
  bool defined_at(symbolic::Evaluator& ev) const;
  size_t assumptions() const { return checked_.size(); } // the ones defined_at evaluates
  // Do these facts (comparisons with their truth, a case of a proof by cases) contradict an
  // unconditional assumption — `v == 0` against a division by v, `v < 0` against its sqrt? No
  // input of the specification's domain then satisfies them: such a case needs no proof.
  bool excludes(const std::vector<std::pair<symbolic::ExprId, bool>>& facts) const;

private:
  const symbolic::ExprStore& store_;
  symbolic::SignAnalysis signs_;
  DomainConditions conditions_;
  std::vector<const DomainCondition*> checked_; // the ones the signs do not discharge
  std::vector<symbolic::ExprId> leaves_;
  bool too_many_ = false;
  // Unconditional assumptions about values: the kinds (bit 1 << kind) each operand must satisfy.
  std::unordered_map<symbolic::ExprId, uint8_t> everywhere_;
};

// Canonical-form identity of a node (the shared e-graph's), for matching conditions on values
// written differently; nullopt when the node has no canonical form.
using CanonicalOf = std::function<std::optional<uint64_t>(symbolic::ExprId)>;

// The solver for the domain obligations nothing cheaper discharged (prove/domain_conditions.hpp):
// given a predicate node (every assumption of the specification kernel, the obligation's guard,
// and the obligation's violation), is it unsatisfiable where its operations are defined?
// true: the obligation holds wherever the specification is defined; false: it may fail there
// (the solver's point is not a confirmed input); nullopt: refused or undecided.
using DomainProver =
    std::function<std::optional<bool>(const symbolic::ExprStore& store, symbolic::ExprId query)>;

// Checks that `checked` is defined wherever `spec` is. `build_store` (where the solver's query
// predicates are built) and `prover` may be null: no solver then.
// `stop` (may be null) is asked before each obligation: the entry's time limit or cancel.
DomainOutcome check_refinement(const symbolic::ExprStore& store, const DomainSide& spec,
                               const DomainSide& checked, const CanonicalOf& canonical_of,
                               symbolic::ExprStore* build_store = nullptr,
                               const DomainProver* prover = nullptr,
                               const std::function<bool()>* stop = nullptr);

} // namespace volta::prove
