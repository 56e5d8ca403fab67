// Where the values of a run were made: for every node a kernel wrote to a register, the first
// instruction that wrote it, and for every global byte the last store to it. Recorded only when
// asked (RunOptions::origins), by a second run of a pair whose element differs, so that a
// NOT_EQUIVALENT can name the lines where the two kernels part (engine/entry/difference_site).
// Costs a map insertion per written register: never on in the run that decides a verdict.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>

#include "engine/symbolic/expr.hpp"

namespace volta::exec {

struct Program;

class OriginLog {
public:
  // The order in which instructions of a launch are taken as "first": the lowest CTA, then
  // the lowest instruction index, so that the log is the same whatever the schedule.
  struct At {
    uint32_t cta = 0;
    uint32_t pc = 0;
    bool operator<(const At& o) const { return cta != o.cta ? cta < o.cta : pc < o.pc; }
  };
  // What one CTA recorded; merged into the log when the CTA ends.
  struct Local {
    std::unordered_map<symbolic::ExprId, uint32_t> made; // node -> lowest pc
    std::unordered_map<uint64_t, uint32_t> stored;       // global byte address -> last pc
  };

  void merge(const Program& program, uint32_t cta, const Local& local);

  // The instruction that first made `node` in `program`'s run, if it wrote it to a register.
  const At* made(const Program& program, symbolic::ExprId node) const;
  // The last store to the global byte `address` in `program`'s run.
  const At* stored(const Program& program, uint64_t address) const;

private:
  struct PerProgram {
    std::unordered_map<symbolic::ExprId, At> made;
    std::unordered_map<uint64_t, At> stored;
  };
  mutable std::mutex mutex_;
  std::map<const Program*, PerProgram> programs_;
};

} // namespace volta::exec
