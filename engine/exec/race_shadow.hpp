// The race check (the per-byte χ context of domain.md §2), exact for the synchronization the
// engine models:
//   * CTA-wide barriers order everything before them with everything after, within the CTA
//     (an "epoch" per CTA, identified by a stamp unique across CTAs);
//   * full-warp synchronization (shfl/vote/mma/wmma/ldmatrix/bar.warp.sync over every lane)
//     orders the lanes of that warp (a "phase" per warp);
//   * nothing orders accesses of different CTAs (atomics do not race with atomics).
// Each byte keeps the last plain write, a summary of the reads and one of the atomics since
// then. A summary is exact: it records one warp (with the reading lanes of its current phase)
// or remembers that several warps / several CTAs accessed the byte, which is all a later
// conflicting access needs to know. Partial-mask warp synchronization is not modeled: a race
// that such a sync might excuse is reported as UNSUPPORTED by the caller, never as DATA_RACE.
#pragma once

#include <cstdint>

namespace volta::exec {

// Who is accessing, and when.
struct Accessor {
  uint32_t cta = 0;    // CTA index in the grid
  uint32_t thread = 0; // linear thread index in the CTA
  uint32_t warp = 0;   // warp index in the CTA
  uint32_t lane = 0;
  uint32_t stamp = 0; // the CTA's current epoch stamp
  uint32_t phase = 0; // the warp's current phase
  uint32_t pc = 0;    // instruction index
};

enum class AccessKind : uint8_t { Read, Write, Atomic };

// A previous access that conflicts with the current one.
struct Conflict {
  AccessKind previous = AccessKind::Write;
  uint32_t cta = 0;
  uint32_t thread = 0;
  uint32_t pc = 0;
  uint32_t warp = 0;
};

// Summary of the reads (or atomics) of one byte. Warps are threads / 32.
struct AccessSummary {
  enum class State : uint8_t { None, OneWarp, ManyWarps, ManyCtas };
  State state = State::None;
  uint16_t thread = 0;       // the latest access (its warp is the summary's warp)
  uint16_t other_thread = 0; // one access from another warp or CTA, for reports
  uint32_t stamp = 0;        // epoch stamp of the recorded accesses
  uint32_t cta = 0;
  uint32_t phase = 0;
  uint32_t lanes = 0; // lanes of the warp that accessed in `phase`
  uint32_t pc = 0;
  uint32_t other_cta = 0, other_pc = 0;
  uint32_t warp() const { return thread / 32u; }
};

struct ByteShadow {
  // last plain write (w_stamp 0: none; stamps start at 1)
  uint32_t w_stamp = 0, w_cta = 0, w_phase = 0, w_pc = 0;
  uint16_t w_thread = 0;
  AccessSummary reads;
  AccessSummary atomics;
};

// Checks an access against the byte's history and records it. Returns true and fills
// `conflict` when the access races with an earlier one.
bool check_and_record(ByteShadow& s, const Accessor& a, AccessKind kind, Conflict& conflict);

} // namespace volta::exec
