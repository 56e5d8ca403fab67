// The race check (the per-byte χ context of the Volta model; docs/architecture.md, "Execution: why
// one schedule is enough"), exact for the synchronization the engine models:
//   * CTA-wide barriers order everything before them with everything after, within the CTA
//     (an "epoch" per CTA, identified by a stamp unique across CTAs);
//   * full-warp synchronization (shfl/vote/mma/wmma/ldmatrix/bar.warp.sync over every lane)
//     orders the lanes of that warp (a "phase" per warp);
//   * named barriers with a thread count and bar.arrive (producer/consumer barriers) order the
//     warps that take part in a barrier phase, one way: the accesses of a warp before it arrives
//     (release) are ordered before the accesses of a warp after the phase it waited at
//     completes (acquire), through a vector clock per warp over the warps' phases (`clock`);
//   * nothing orders accesses of different CTAs (atomics do not race with atomics).
// Each byte keeps the last plain write, a summary of the reads and one of the atomics since
// then. A summary is exact: it records one warp (with the reading lanes of its current phase)
// or remembers that several warps / several CTAs accessed the byte, which is all a later
// conflicting access needs to know.
//
// Partial-mask warp synchronization (`__syncwarp(mask)`, a shfl.sync over some lanes) orders only
// its member lanes, transitively: every sync of a warp starts a new phase, and the syncs since
// the warp's last full-warp sync are kept in a WarpSyncLog. An access of lane k in phase p is
// ordered before lane l's access now iff a full-warp sync came after p, or a chain of the logged
// syncs after p leads from k to l (the happens-before of vector clocks, computed when asked).
// A read summary holds one phase for its lanes: a read in a later phase forgets the reads
// ordered before it (what is ordered after it is ordered after them), and keeps the others as if
// made in the later phase, which can only find fewer orderings; a conflict found through such a
// merged summary is marked `approximate`, and the caller reports it as UNSUPPORTED rather than
// as DATA_RACE.
//
// Stores of provably equal values (docs/semantics.md, "Synchronization"): under the benign rule
// (the default) a plain write that is unordered with the last write of a byte, or with the writes
// of the same value kept with it, is no race when it stores provably the same bits there
// (symbolic::BitEquality); it then joins those writes (`co_writes`, a summary as for reads, kept
// out of line in the page), and every later access is checked against all of them. Under the
// strict rule (`--strict-races`) every unordered pair of writes is a race.
//
// Reads through the non-coherent path (ld.global.nc, __ldg, ldu) are defined only for data that
// stays read-only for the whole kernel (CUDA Programming Guide, read-only data cache): such a read
// of a byte the kernel writes, at any time, by any thread of any CTA, even the reader itself and
// whatever synchronization lies between, may see the old value. Each byte remembers its first
// non-coherent read for ever, and every write or atomic of it, before or after in the schedule,
// conflicts with that read.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace volta::symbolic {
class BitEquality;
}

namespace volta::exec {

// The partial-mask syncs of one warp since its last full-warp sync, which started phase
// `full_phase`: masks[i] holds the member lanes of the sync that started phase full_phase+1+i.
struct WarpSyncLog {
  uint32_t full_phase = 0;
  std::vector<uint32_t> masks;
};

// The threads of a CTA that exited after accessing memory in an epoch whose closing barrier they
// never reached. A barrier orders the accesses of the threads that take part in it, and exited
// threads do not ("wait for all non-exited threads", PTX ISA, barrier): such a thread's accesses
// of its last epoch are ordered with nothing after that epoch.
struct ExitLog {
  std::vector<uint32_t> stamp_of; // per thread: the epoch it left so, 0 for the others
  std::vector<uint32_t> stamps;   // the epochs some thread left so
  bool exited_in(uint32_t thread, uint32_t stamp) const { return stamp_of[thread] == stamp; }
  bool any_in(uint32_t stamp) const {
    for (uint32_t x : stamps)
      if (x == stamp)
        return true;
    return false;
  }
};

// Who is accessing, and when.
struct Accessor {
  uint32_t cta = 0;    // CTA index in the grid
  uint32_t thread = 0; // linear thread index in the CTA
  uint32_t warp = 0;   // warp index in the CTA
  uint32_t lane = 0;
  uint32_t stamp = 0; // the CTA's current epoch stamp
  uint32_t phase = 0; // the warp's current phase
  uint32_t pc = 0;    // instruction index
  // Writes only: the other lanes of the warp that store the same value to the same location in
  // the same instruction (one lane performs the store for all of them, see exec_st). A later
  // access by one of those lanes is ordered after "its" write.
  uint32_t lanes = 0;
  // The warp's partial-mask syncs since its last full-warp sync; null when there are none.
  const WarpSyncLog* syncs = nullptr;
  // The CTA's threads that exited with unordered accesses (above); null when there are none.
  const ExitLog* exits = nullptr;
  // Writes: the benign rule's equality of stored bits; null under the strict rule (every
  // unordered write-write pair is a race).
  symbolic::BitEquality* equality = nullptr;
  // Named barriers (above): per warp v of the CTA, the accesses of v in this epoch whose phase
  // is below clock[v] are ordered before this access. Null while no named barrier phase
  // completed in the CTA (then nothing orders two warps within an epoch).
  const uint32_t* clock = nullptr;
};

// What one element of a store writes: its concrete bits, or its node and format tags.
struct StoredElement {
  uint64_t id = 0; // the bits (concrete) or the node (symbolic)
  // Symbolic: the expression store the node lives in (LaunchContext::store_generation): a
  // grouped launch runs each group of CTAs into a store of its own under one shadow, and nodes
  // of different stores are never compared.
  uint32_t generation = 0;
  bool symbolic = false;
  uint8_t tags = 0; // symbolic: the value's format tags (exec::Value's fl | bf16 << 1 | f16 << 2)
};
// The elements a store writes, in address order from the access's first byte, `size` bytes each.
struct StoredElements {
  const StoredElement* elements = nullptr;
  uint32_t count = 0;
  uint32_t size = 0;
};

enum class AccessKind : uint8_t {
  Read,
  Write,
  Atomic,
  NonCoherentRead // a Read through ld.global.nc / ldu (above)
};

// A previous access that conflicts with the current one.
struct Conflict {
  AccessKind previous = AccessKind::Write;
  uint32_t cta = 0;
  uint32_t thread = 0;
  uint32_t pc = 0;
  uint32_t warp = 0;
  // Found through a summary that merged reads of different phases of a warp with partial
  // syncs between them: the earlier reads may in fact be ordered (a possible false alarm).
  bool approximate = false;
  // Why it may be a false alarm (when approximate): a phrase for the report.
  const char* approximation = nullptr;
};

// The phrases of Conflict::approximation.
inline constexpr const char* kMergedPhases =
    "the race check merged reads of this warp across its partial-mask syncs";
inline constexpr const char* kSeveralWarps =
    "several warps accessed it since its last write, and named barriers may order them before "
    "this access in ways the race check's record of them does not show";
inline constexpr const char* kAfterExit =
    "a thread that accessed it left the CTA by exiting, and the race check does not keep which";

// Summary of the reads (or atomics) of one byte. Warps are threads / 32.
struct AccessSummary {
  enum class State : uint8_t { None, OneWarp, ManyWarps, ManyCtas };
  State state = State::None;
  bool merged_phases = false; // OneWarp: lanes of earlier phases taken as of `phase` (above)
  // Accesses of an earlier epoch by a thread that then exited (ExitLog) were kept, as if made in
  // `stamp`: a conflict found through the summary may be a false alarm (`approximate`).
  bool after_exit = false;
  uint16_t thread = 0;       // the latest access (its warp is the summary's warp)
  uint16_t other_thread = 0; // one access from another warp or CTA, for reports
  uint32_t stamp = 0;        // epoch stamp of the recorded accesses
  uint32_t cta = 0;
  // OneWarp: the phase of the latest accesses and the lanes of the warp that made them there.
  // ManyWarps (this CTA, one epoch): a bound on the accessing warps' phases (the largest phase
  // any of them accessed in, each warp's counted in its own syncs) and the warps as a mask, so
  // that named barriers can order them all before an access (race_shadow.cpp).
  uint32_t phase = 0;
  uint32_t lanes = 0;
  uint32_t pc = 0;
  uint32_t other_cta = 0, other_pc = 0;
  uint32_t warp() const { return thread / 32u; }
};

// What the last plain write stored in the bytes of one shadow record, as far as the benign rule
// needs it: one element (its bits or its node) and where the record's first byte lies in it.
// Kind None: not known (a write of another kind than st, or a whole-word record of narrower
// elements): equal to nothing.
struct StoredBytes {
  enum class Kind : uint8_t { None, Concrete, Symbolic };
  uint64_t id = 0;
  uint32_t generation = 0; // symbolic: StoredElement::generation
  Kind kind = Kind::None;
  uint8_t tags = 0;
  uint8_t offset = 0; // the record's first byte in the element
  uint8_t size = 0;   // the element's bytes
};

struct ByteShadow {
  // last plain write (w_stamp 0: none; stamps start at 1)
  uint32_t w_stamp = 0, w_cta = 0, w_phase = 0, w_pc = 0;
  uint16_t w_thread = 0;
  uint16_t nc_thread = 0; // the first non-coherent read (in the padding before w_lanes)
  uint32_t w_lanes = 0;   // lanes of w_thread's warp whose identical store this write stands for
  uint32_t nc_cta = 0;
  uint32_t nc_pc = 0; // the first non-coherent read's pc + 1; 0: none ever
  // The benign rule: 1 + the index in the page's table of the other writes of the last write's
  // value that are not ordered before it (an AccessSummary); 0: none.
  uint32_t co_writes = 0;
  StoredBytes w_value; // what the last write stored here
  AccessSummary reads;
  AccessSummary atomics;
};

// The race shadow of a run of memory. Kernels access whole aligned words (f32, b32, vectors of
// them), so one record stands for the four bytes of a 4-byte word as long as every access since
// the word's last whole-word write covered all of it: the four byte histories are then equal, and
// checking one is checking all four, exactly. The first access to a part of a word splits it into
// four byte records; a later whole-word write makes the four equal again and merges them. This
// keeps the shadow a quarter the size and the check a quarter the work on the common path.
class ShadowPage {
public:
  explicit ShadowPage(uint32_t bytes) : words_((bytes + 3) / 4) {}

  // Checks an access of `size` bytes at `offset` (naturally aligned, as the caller checked)
  // against the history of each byte and records it in every byte, racy or not. On a race
  // returns true with the first conflict and, in `byte`, the offset of its byte.
  // A write gives the values it stores (`values`; none: equal to nothing under the benign rule).
  bool check_and_record(uint32_t offset, uint32_t size, const Accessor& a, AccessKind kind,
                        Conflict& conflict, uint32_t& byte, const StoredElements& values = {});
  // Forgets the last plain write of bytes [offset, offset + size) (its reads and atomics stay):
  // a TMA copy's destination, which the copy's own check orders instead (exec_tensor_load.cpp).
  void forget_writes(uint32_t offset, uint32_t size);
  // Would a read by `a` of the 4-byte word at `offset` be ordered after the word's last write
  // (or is there none)? Checked on a copy: nothing is recorded.
  bool read_ordered(uint32_t offset, const Accessor& a) const;
  // The history of one byte.
  const ByteShadow& byte(uint32_t offset) const {
    const Word& w = words_[offset / 4];
    return w.split < 0 ? w.whole : split_[static_cast<std::size_t>(w.split)][offset % 4];
  }

private:
  struct Word {
    ByteShadow whole;
    int32_t split = -1; // index into split_ of the four byte records, -1 while whole
  };
  // The access of bytes [start, stop) of one word through its byte records (splitting it first).
  [[gnu::noinline]] bool check_bytes(Word& w, uint32_t start, uint32_t stop, bool covers_word,
                                     const Accessor& a, AccessKind kind, Conflict& conflict,
                                     uint32_t& byte, uint32_t access_start,
                                     const StoredElements& values);
  // One record's check (race_shadow.cpp); sets `benign` when a write joined equal writes.
  [[gnu::always_inline]] inline bool check_record(ByteShadow& s, const Accessor& a, AccessKind kind,
                                                  Conflict& conflict, const StoredBytes& value,
                                                  bool& benign);
  AccessSummary& co_writes_of(ByteShadow& s);
  void release_co_writes(ByteShadow& s);

  std::vector<Word> words_;
  std::vector<AccessSummary> co_writes_; // ByteShadow::co_writes
  std::vector<uint32_t> free_co_writes_;
  std::vector<std::array<ByteShadow, 4>> split_;
  std::vector<int32_t> free_splits_; // split_ entries of words merged back
};

} // namespace volta::exec
