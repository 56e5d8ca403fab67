// How many elements of an entry were decided, and how: the counts reports show.
#pragma once

#include <cstdint>
#include <string>

namespace volta::prove {

struct ElementCounts {
  uint64_t total = 0;
  uint64_t direct = 0; // proved in the shared e-graph on insertion / by canonical forms
  uint64_t reused = 0; // proved by reusing the proof of an element with the same template
  uint64_t rules = 0;  // proved by saturating the shared e-graph with the rule library
  uint64_t z3 = 0;     // proved by Z3
  uint64_t cached = 0; // proved by an earlier run (proof cache hit for the element's template)
  uint64_t not_equivalent = 0;
  uint64_t unknown = 0;

  // The counts of two sets of elements together (the groups of a streamed entry).
  ElementCounts& operator+=(const ElementCounts& o) {
    total += o.total;
    direct += o.direct;
    reused += o.reused;
    rules += o.rules;
    z3 += o.z3;
    cached += o.cached;
    not_equivalent += o.not_equivalent;
    unknown += o.unknown;
    return *this;
  }
};

// "12 by canonical forms, 3 by Z3": how the decided elements were decided (empty: none).
std::string decided_breakdown(const ElementCounts& counts);

} // namespace volta::prove
