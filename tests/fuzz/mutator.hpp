// Mutations of a fuzz kernel, each labelled with what it should do to equivalence. The label
// is a hint for the statistics, never the oracle: the oracle is the emulator (pair_oracle.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fuzz_ir.hpp"
#include "fuzz_random.hpp"

namespace volta::pair_fuzz {

enum class Label : uint8_t {
  EqBits,    // equal bit for bit on every input (commuting, ring identities mod 2^w, ...)
  EqReals,   // equal over the reals (reassociation, fma vs mul+add, a rounding mode on a value
             // that is only read as a number)
  Neq,       // changes the outputs on some input
  NeqBits,   // changes only the bits of a float result that some output observes as bits
  NeqDomain, // equal over the reals where defined, but the optimized kernel is undefined where
             // the reference is not (x*y/y)
  Race,      // the mutant races (a barrier or a cp.async wait dropped)
};
std::string_view to_string(Label l);

struct AppliedMutation {
  std::string name;
  Label label = Label::EqBits;
  std::string detail; // what was changed, with the node
};

struct Mutant {
  Kernel kernel;
  std::vector<AppliedMutation> applied;
  Label label = Label::EqBits; // the combined label
};

// Applies `count` random mutations (each one re-drawn until one applies). nullopt when none
// applies (a kernel with nothing to mutate).
std::optional<Mutant> mutate(const Kernel& k, Rng& rng, int count);

// The names of every mutation, for statistics and tests.
const std::vector<std::string>& mutation_names();

// Does the value of node `i` reach an output as bits (a reinterpretation, a store of its bits,
// an integer operation on them)? Real-number observers (comparisons, conversions to integers)
// do not count: the contract idealizes those.
bool observed_as_bits(const Kernel& k, int i);

} // namespace volta::pair_fuzz
