// The bookkeeping of a CTA's mbarrier objects (PTX ISA 9.7.13.15, "mbarrier"), one definition for
// both CTA machines (the symbolic CtaRunner and the emulator's Cta), as CtaBarriers is for the
// named barriers: each rule below is stated once here, and what a machine refuses or how it
// reports a problem stays with the machine.
//
// An mbarrier is an opaque 64-bit object in shared memory, at an 8-byte-aligned address. Its
// state (the ISA's "phase", "pending arrival count", "expected arrival count", "tx-count") is
// kept here, keyed by that address, never in the memory bytes: the ISA does not document the
// encoding, so the machines refuse an ordinary access of the 8 bytes while they hold an
// mbarrier (overlaps()) instead of guessing it.
//
// Rules:
// - init(count): 1 <= count <= kMaxCount; the object must not be one already (an init of an
//   mbarrier in use, before mbarrier.inval, is undefined); phase 0, pending = expected = count,
//   tx-count 0.
// - arrive(count, tx): first the expect-tx part (tx-count += tx), then pending -= count. More
//   arrivals than are pending is undefined (the ISA's "over-arrival"): refused. The returned
//   state token is the number of the phase the arrival joined (opaque to the kernel: the
//   machines let it only reach test_wait/try_wait).
// - arrive_drop(count): as arrive, and the expected count of the phases after it drops by count.
// - expect_tx(tx): tx-count += tx. complete_tx(tx): tx-count -= tx. tx-count stays within
//   +-kMaxTxCount, else undefined.
// - A phase completes when pending == 0 and tx-count == 0: the phase number grows by one,
//   pending = expected, tx-count = 0. Completion is checked after each operation.
// - test_wait/try_wait with a state token: true once the phase the token names completed
//   (phase > token). With .parity: true once the current phase's parity differs from the one
//   named (the ISA: phaseParity names "the current phase or the immediately preceding one";
//   the phase whose parity it is completed when the current parity is the other one).
// - inval: the object is no longer an mbarrier (its bytes may be used again); an operation on
//   an address that is not an initialized mbarrier is undefined.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace volta::exec {

class CtaMbarriers {
public:
  static constexpr uint32_t kMaxCount = (1u << 20) - 1; // arrival counts (PTX ISA)
  static constexpr int64_t kMaxTxCount = (1 << 20) - 1; // |tx-count|
  static constexpr uint32_t kBytes = 8;                 // an mbarrier object's size

  struct Mbarrier {
    uint32_t expected = 0; // arrivals each phase starts with (init count less arrive_drops)
    uint32_t pending = 0;  // arrivals the current phase still waits for
    int64_t tx = 0;        // the current phase's tx-count
    uint64_t phase = 0;    // the current phase's number (phases completed so far)
  };

  // What an operation did: `problem` (empty: none) is undefined behaviour in words; `completed`
  // says the operation completed a phase; `token` is an arrive's state.
  struct Outcome {
    std::string problem;
    bool completed = false;
    uint64_t token = 0;
    bool ok() const { return problem.empty(); }
  };

  void clear() { bars_.clear(); }

  Outcome init(uint64_t addr, uint64_t count);
  Outcome inval(uint64_t addr);
  Outcome arrive(uint64_t addr, uint64_t count, uint64_t tx = 0, bool drop = false);
  Outcome expect_tx(uint64_t addr, uint64_t tx);
  Outcome complete_tx(uint64_t addr, uint64_t tx);

  // Whether the phase a wait names has completed: a state token (arrive's), or a parity.
  // nullopt (with `problem` set) when `addr` is no mbarrier.
  std::optional<bool> token_done(uint64_t addr, uint64_t token, std::string* problem) const;
  std::optional<bool> parity_done(uint64_t addr, uint64_t parity, std::string* problem) const;
  // The phase a parity wait waits for: the current phase when its parity is the one named,
  // else the phase before it (already complete).
  std::optional<uint64_t> phase_of_parity(uint64_t addr, uint64_t parity) const;

  const Mbarrier* find(uint64_t addr) const;
  // The address of an mbarrier whose 8 bytes overlap [addr, addr + size), or nullopt.
  std::optional<uint64_t> overlaps(uint64_t addr, uint64_t size) const;
  bool empty() const { return bars_.empty(); }

  // Why an ordinary access of [addr, addr + size) inside the mbarrier at `bar` is refused (both
  // machines refuse it as unsupported).
  static std::string ordinary_access(uint64_t addr, uint64_t size, bool write, uint64_t bar);

  // "mbarrier at 0x10 (phase 3, 1 of 2 arrivals pending, tx-count 64)", for reports.
  std::string describe(uint64_t addr) const;

private:
  Outcome settle(uint64_t addr, Mbarrier& b);
  std::string missing(uint64_t addr) const;

  std::map<uint64_t, Mbarrier> bars_; // by shared address
};

} // namespace volta::exec
