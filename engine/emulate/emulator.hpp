// The concrete, bit-exact PTX emulator: the oracle of the symbolic engine.
//
// It executes the same lowered Program as the symbolic CtaRunner, but every register holds raw
// bits and every instruction computes its IEEE / two's-complement result (float_semantics.hpp).
// It is independent of the symbolic value code on purpose: only the Program, the lowering, the
// launch configuration and the address map are shared.
//
// Scheduling is the CtaRunner's: warps in lockstep, a warp runs its lanes at the lowest pc;
// lanes wait at CTA barriers and at warp collectives until every member has arrived; barriers
// fire when every live thread (or `count` threads) arrived. CTAs run one after the other in
// index order (all of them, or CTA 0 only for `ctas: first`), so atomics apply in that order.
// Unsupported instructions and undefined situations (out-of-bounds access, misalignment,
// division by zero, a shuffle from an inactive lane, deadlock) end the run with an
// EmulationError naming the PTX line; the emulator never guesses a value.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/emulate/elem_type.hpp"
#include "engine/emulate/paged_memory.hpp"
#include "engine/exec/program.hpp"
#include "engine/launch/launch_config.hpp"

namespace volta::emulate {

struct Inputs {
  // Initial bytes of `in`/`inout` arrays (exactly len * elem_width bytes). Arrays left out are
  // an error; `index` arrays are a[i] = i and `zero`/`out` arrays start as zero bytes.
  std::map<std::string, std::vector<uint8_t>> arrays;
  // Input arrays made on demand, page by page, instead of given in `arrays` (the emulator
  // cross-check's edge inputs of large arrays: only the pages a run touches are made).
  std::map<std::string, PageFill> generated;
  // Values of `sym:NAME` parameters (stored in the parameter's float width, nearest-even).
  std::map<std::string, double> symbols;
  // Element types of arrays (default: default_elem_type of the array's spec).
  std::map<std::string, ElemType> types;
};

struct ArrayContents {
  std::string name;
  launch::ArrayKind kind = launch::ArrayKind::Out;
  ElemType type = ElemType::F32;
  uint64_t len = 0;
  std::vector<uint8_t> bytes;   // len * elem_bytes(type), little-endian
  std::vector<uint8_t> written; // per element: 1 when the kernel stored every byte of it
  // Sparse (EmulateOptions::sparse_outputs): the launch's memory of the array itself, with
  // `bytes` and `written` empty. The accessors below read both forms.
  std::shared_ptr<const PagedBytes> paged;
  uint64_t bits(uint64_t i) const;
  double value(uint64_t i) const;
  bool is_written(uint64_t i) const;
  // The elements that may be written, ascending: every element (dense), or those of the pages
  // a store touched (sparse).
  std::vector<std::pair<uint64_t, uint64_t>> written_ranges() const;
};

struct EmulationError {
  std::string kind;       // "unsupported", "out of bounds", "deadlock", "bad input", ...
  bool bad_input = false; // the inputs or the configuration do not fit the kernel
  std::string message;    // what happened, with the PTX line
  uint32_t ptx_line = 0;
  uint32_t cuda_line = 0;  // 0: unknown
  std::string instruction; // PTX text of the instruction (empty when not at one)
  uint32_t cta = 0;
  uint32_t thread = 0;
  std::string text() const; // "PTX line N: message (instruction)"
};

struct EmulationResult {
  std::optional<EmulationError> error;
  std::vector<ArrayContents> outputs; // every out / inout / zero array, in configuration order
  uint64_t instructions = 0;          // executed thread-instructions
  // Reads of shared or local bytes that no thread wrote. The emulator reads them as 0; a GPU
  // reads whatever the memory held, so outputs that depend on them are not the device's. (The
  // symbolic engine answers UNINITIALIZED where such a value reaches an output, an address or a
  // branch; the emulator does not track where values go.)
  uint64_t uninitialized_reads = 0;
  std::string first_uninitialized_read; // "PTX line 13: thread 32 of CTA 0 reads 4 bytes ..."
  // A run of some CTAs only (EmulateOptions::ctas): loads of bytes of a writable global array or
  // variable that the run had not written — in the whole launch another CTA may have written
  // them, so the run's stores may not be the launch's.
  uint64_t foreign_reads = 0;
  bool ok() const { return !error; }
  const ArrayContents* find(const std::string& name) const;
};

struct EmulateOptions {
  uint64_t max_instructions = 4'000'000'000ull; // 0: no budget
  const std::atomic<bool>* cancel = nullptr;    // set: the run stops ("cancelled")
  // Outputs keep the launch's paged memory (ArrayContents::paged) instead of dense copies: a
  // large array costs the pages the run touched.
  bool sparse_outputs = false;
  // Only these CTAs (linear indices, ascending, below the grid's count) run, whatever the
  // configuration's `ctas` says: a sample of a launch (the emulator cross-check). Empty: the
  // configuration's CTAs.
  std::vector<uint32_t> ctas;
  // Every instruction lane by lane: no warp loops (float_warp, generic_warp, load_warp,
  // store_warp, convert_warp) and no scheduling hint. The same results, slower; the tests
  // compare the two (tests/emulate/warp_paths_test.cpp).
  bool lane_by_lane = false;
};

EmulationResult emulate(const exec::Program& program, const launch::KernelConfig& config,
                        const Inputs& inputs, const EmulateOptions& options = {});
// The same, moving the input arrays into the launch's memory instead of copying them (large
// arrays: the emulator cross-check).
EmulationResult emulate(const exec::Program& program, const launch::KernelConfig& config,
                        Inputs&& inputs, const EmulateOptions& options = {});

// Random inputs for every in/inout array and sym parameter of `config`: floats uniform in
// [-2, 2] (rounded to the element type), integers uniform in [-8, 8] (signed) or [0, 16]
// (unsigned); the same seed gives the same inputs.
Inputs random_inputs(const launch::KernelConfig& config, uint64_t seed,
                     const std::map<std::string, ElemType>& types = {});

} // namespace volta::emulate
