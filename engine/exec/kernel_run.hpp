// What executing one kernel produces: the output expressions of every written element, or the
// first safety failure and every distinct data race, plus statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/launch/launch_config.hpp"
#include "engine/symbolic/expr.hpp"
#include "engine/verdict.hpp"

namespace volta::exec {

// One side of a reported problem: a thread at an instruction.
struct Site {
  uint32_t cta = 0;       // linear CTA index
  uint32_t ctaid[3] = {}; // CTA coordinates
  uint32_t thread = 0;    // linear thread index
  uint32_t tid[3] = {};   // thread coordinates
  uint32_t pc = 0;        // instruction index
  uint32_t ptx_line = 0;
  uint32_t ptx_column = 0;
  std::string instruction; // as printed
  std::string cuda_file;   // from .loc, when present
  uint32_t cuda_line = 0;
};

// A safety failure or a refusal (UNSUPPORTED), with everything a report needs.
// Why a run ended in a failure, for the layers that act on it: a finding about the kernel (its
// verdict says which: a race, an out-of-bounds access, a deadlock, UNSUPPORTED, ...), or one of
// the causes the verdict does not tell apart. `Failure::kind` is the detailed text reports
// show, never parsed.
enum class FailureCategory : uint8_t {
  Finding,
  BadInput,          // a launch configuration that does not fit the kernel
  InstructionBudget, // the run stopped at --max-instructions
  Cancelled,         // the run was cancelled (the entry's time or memory guard)
};

struct Failure {
  Verdict verdict = Verdict::Error;
  FailureCategory category = FailureCategory::Finding;
  std::string kind;     // "write-write race", "read-write race", "out-of-bounds read", ...
  std::string message;  // one line, human readable
  std::string space;    // "global", "shared", "local", ...
  std::string location; // "sdata[1] (shared offset 0x104)", "C[37]", "address 0x..."
  uint64_t address = 0;
  std::optional<Site> first;  // the current access / the instruction at fault
  std::optional<Site> second; // the earlier conflicting access (races)
};

// At most this many distinct data races are reported per kernel run (docs/report-schema.md,
// "races"); the run stops at the next distinct one.
inline constexpr std::size_t kMaxReportedRaces = 16;

struct KernelStats {
  uint64_t instructions = 0; // executed thread-instructions
  uint64_t warp_instructions = 0;
  uint64_t barriers = 0;   // CTA barriers fired
  uint64_t warp_syncs = 0; // warp-collective groups executed
  uint64_t ctas = 0;
  std::map<std::string, uint64_t> idioms; // lifted exponential idioms and their counts

  // The statistics of two sets of CTAs together.
  KernelStats& operator+=(const KernelStats& s) {
    instructions += s.instructions;
    warp_instructions += s.warp_instructions;
    barriers += s.barriers;
    warp_syncs += s.warp_syncs;
    ctas += s.ctas;
    for (const auto& [k, v] : s.idioms)
      idioms[k] += v;
    return *this;
  }
};

// The final value of every written element of one output array.
struct OutputArray {
  std::string name;
  uint32_t elem_width = 4;
  launch::ArrayKind kind = launch::ArrayKind::Out;
  launch::ElemType declared = launch::ElemType::Unknown;       // manifest "type"
  std::vector<std::pair<uint64_t, symbolic::ExprId>> elements; // (index, value), by index
  // Per element: the type of its last store (float for float data moved through integer
  // registers; Unknown when its bytes come from stores of different types). Elements whose
  // store types differ between the two kernels are compared by their bytes. A value stored as
  // plain bits (a RawBits root) is read in the type of its store.
  std::vector<launch::ElemType> store_types;
  // The first element some but not all of whose bytes a store wrote (a st.u16 into an f32
  // element): its value is not one of the elements above, and it is not compared
  // (entry/run_configuration.cpp refuses the run where values matter).
  std::optional<uint64_t> partly_written;
  uint32_t partly_written_bytes = 0;
};

// Where a partial operation (division, rcp, sqrt, rsqrt, lg2, integer division) was executed:
// its domain condition is reported at this line (docs/semantics.md, "Domains").
struct PartialSite {
  uint32_t ptx_line = 0;
  std::string cuda_file; // from .loc, when present
  uint32_t cuda_line = 0;
};

struct KernelRun {
  std::optional<Failure> failure; // the first failure: the run stopped here, or at a race went on
  // Every distinct data race the run found (race_log.hpp), in the order of a run of the CTAs
  // one after another; `failure` is the first of them when it is a race. A run goes on after a
  // race and stops at any other failure, so races after that one are not looked for.
  std::vector<Failure> races;
  bool races_truncated = false; // another distinct race was found past kMaxReportedRaces
  // A guard (cancellation, instruction budget) stopped the run after its first race, so that
  // `races` may miss some (or the run in CTA order, so that they depend on the schedule): such a
  // run is not cached (the guards are not part of a cache key).
  bool races_cut_short = false;
  std::vector<OutputArray> outputs;
  // Every partial operation the kernel created, by node, with the first line that created it.
  std::map<symbolic::ExprId, PartialSite> partial_sites;
  // Predicates on data decided over the reals that steered control (a branch or a guarded
  // instruction): the kernel's result depends on their operands being defined, as it depends
  // on its stored values (docs/semantics.md, "Branches on data").
  std::vector<symbolic::ExprId> control_roots;
  KernelStats stats;
  double seconds = 0;
};

} // namespace volta::exec
