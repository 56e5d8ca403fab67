// A process-wide memo of the emulator cross-check's runs: the reference kernel of an entry is
// usually the reference of the next one too — every candidate of an optimization loop, the
// corpus's MatMul-1 against seven variants — and its run on an input set is the same each time
// (the same program, configuration and input bytes), so it is emulated once.
//
// Keyed by a fingerprint of the program (every instruction's text and line, its parameters and
// initial data), the launch configuration, the input set and the element types its values were
// made for. Only successful runs are kept, at most kMemoBytes of them (the least recently used
// go first); a run larger than that is not kept.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/emulate/emulator.hpp"
#include "engine/emulate/float_semantics.hpp"

namespace volta::emulate {

struct MemoizedRun {
  EmulationResult result;
  RealArithmeticEvents events;
  double seconds = 0; // how long the run took
};

inline constexpr uint64_t kMemoBytes = uint64_t{512} << 20;

// The key of a run of `program` under `config` on input set `set` with values made for
// `value_types`.
std::string run_key(const exec::Program& program, const launch::KernelConfig& config, uint32_t set,
                    const std::map<std::string, ElemType>& value_types);

// The kept run of `key`, or null.
std::shared_ptr<const MemoizedRun> memoized_run(const std::string& key);
// Keeps a successful run (evicting the least recently used past kMemoBytes).
void memoize_run(const std::string& key, std::shared_ptr<const MemoizedRun> run);

} // namespace volta::emulate
