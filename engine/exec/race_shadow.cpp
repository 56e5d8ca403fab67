#include "engine/exec/race_shadow.hpp"

namespace volta::exec {
namespace {

// The lanes from which a chain of the partial syncs logged after phase `since` leads to a's
// lane. Past kMaxChain of them, only a's lane (a caller then reports a conflict that may be a
// false alarm, as `approximate`).
constexpr uint32_t kMaxChain = 4096;
[[gnu::noinline]] uint32_t chained_lanes(uint32_t since, const Accessor& a, bool& approximate) {
  const WarpSyncLog* log = a.syncs;
  if (a.phase - since > kMaxChain) {
    approximate = true;
    return 1u << a.lane;
  }
  // Backwards from a: a sync that includes a lane already known to reach a lets all its
  // members reach a.
  uint32_t reach = 1u << a.lane;
  for (uint32_t phase = a.phase; phase > since; --phase) {
    const uint32_t members = log->masks[phase - log->full_phase - 1];
    if (members & reach)
      reach |= members;
  }
  return reach;
}
// The lanes of a's warp whose accesses in phase `since` (earlier than a's) are ordered before a:
// every lane when a full-warp sync came after `since`, else those chained_lanes finds.
[[gnu::always_inline]] inline uint32_t ordered_lanes(uint32_t since, const Accessor& a,
                                                     bool& approximate) {
  if (a.syncs == nullptr || since < a.syncs->full_phase) [[likely]]
    return ~0u; // the common case: a full-warp sync came in between
  return chained_lanes(since, a, approximate);
}

// Is an access recorded in `summary` unordered with `a`? Fills `c` with one such access.
[[gnu::always_inline]] inline bool summary_conflicts(const AccessSummary& s, const Accessor& a,
                                                     AccessKind previous, Conflict& c) {
  using State = AccessSummary::State;
  auto report = [&](uint32_t cta, uint32_t thread, uint32_t pc, uint32_t) {
    c = Conflict{previous, cta, thread, pc, thread / 32u};
    return true;
  };
  // ManyCtas: the latest access and the remembered one come from different CTAs, so one of
  // them is from a CTA other than a's: nothing orders it with a.
  auto report_other_than_a = [&]() {
    if (s.cta != a.cta)
      return report(s.cta, s.thread, s.pc, 0u);
    return report(s.other_cta, s.other_thread, s.other_pc, 0u);
  };
  switch (s.state) {
  case State::None:
    return false;
  case State::ManyCtas:
    return report_other_than_a();
  case State::ManyWarps:
    if (s.cta != a.cta)
      return report(s.cta, s.thread, s.pc, 0u);
    if (s.stamp != a.stamp)
      return false; // an earlier epoch of this CTA
    // Several warps of this CTA in this epoch: at least one is not a's warp.
    if (s.warp() != a.warp)
      return report(s.cta, s.thread, s.pc, 0u);
    return report(s.other_cta, s.other_thread, s.other_pc, 0u);
  case State::OneWarp:
    if (s.cta != a.cta)
      return report(s.cta, s.thread, s.pc, 0u);
    if (s.stamp != a.stamp)
      return false;
    if (s.warp() != a.warp)
      return report(s.cta, s.thread, s.pc, 0u);
    {
      uint32_t unordered = s.lanes & ~(1u << a.lane); // a itself is ordered with its own reads
      bool approximate = s.merged_phases;
      if (s.phase != a.phase) // a sync came in between: which lanes does it order before a?
        unordered &= ~ordered_lanes(s.phase, a, approximate);
      if (unordered == 0)
        return false;
      // Report an unordered lane (the latest access if it is one).
      uint32_t thread = s.thread;
      if (!((unordered >> (thread % 32u)) & 1u))
        thread = a.warp * 32 + static_cast<uint32_t>(__builtin_ctz(unordered));
      report(s.cta, thread, s.pc, 0u);
      c.approximate = approximate;
      return true;
    }
  }
  return false;
}

[[gnu::always_inline]] inline void summary_record(AccessSummary& s, const Accessor& a) {
  using State = AccessSummary::State;
  const uint16_t thread = static_cast<uint16_t>(a.thread);
  auto latest = [&]() {
    s.thread = thread;
    s.pc = a.pc;
  };
  auto reset = [&]() {
    s.state = State::OneWarp;
    s.merged_phases = false;
    s.stamp = a.stamp;
    s.cta = a.cta;
    s.phase = a.phase;
    s.lanes = 1u << a.lane;
    latest();
  };
  auto remember_other = [&]() {
    s.other_cta = s.cta;
    s.other_thread = s.thread;
    s.other_pc = s.pc;
  };
  switch (s.state) {
  case State::None:
    reset();
    return;
  case State::ManyCtas:
    if (s.cta != a.cta) {
      remember_other();
      s.cta = a.cta;
    }
    latest();
    return;
  case State::ManyWarps:
  case State::OneWarp:
    if (s.cta != a.cta) {
      remember_other();
      s.state = State::ManyCtas;
      s.cta = a.cta;
      latest();
      return;
    }
    if (s.stamp != a.stamp) { // the recorded accesses are from an earlier epoch of this CTA
      reset();
      return;
    }
    if (s.state == State::ManyWarps) {
      if (s.warp() != a.warp)
        remember_other();
      latest();
      return;
    }
    if (s.warp() != a.warp) {
      remember_other();
      s.state = State::ManyWarps;
      latest();
      return;
    }
    if (s.phase != a.phase) {
      // Reads ordered before a's can be forgotten: whatever is ordered after a's read is
      // ordered after them too. The others are kept, as if made in a's phase (see above).
      bool approximate = false;
      s.lanes &= ~ordered_lanes(s.phase, a, approximate);
      s.merged_phases = s.lanes != 0;
      s.phase = a.phase;
    }
    s.lanes |= 1u << a.lane;
    latest();
    return;
  }
}

[[gnu::always_inline]] inline bool write_conflicts(const ByteShadow& s, const Accessor& a,
                                                   Conflict& c) {
  if (s.w_stamp == 0)
    return false;
  if (s.w_cta == a.cta && s.w_thread == a.thread)
    return false;
  auto report = [&]() {
    c = Conflict{AccessKind::Write, s.w_cta, s.w_thread, s.w_pc, s.w_thread / 32u};
    return true;
  };
  if (s.w_cta != a.cta)
    return report();
  if (s.w_stamp != a.stamp)
    return false;
  if (s.w_thread / 32u != a.warp)
    return report();
  if ((s.w_lanes >> a.lane) & 1u)
    return false; // a's own store of the same value, performed by another lane of its warp
  if (s.w_phase == a.phase)
    return report();
  // A sync came in between: it orders the write before a if it orders every lane the write
  // stands for (which one of them stored is not known).
  bool approximate = false;
  if ((s.w_lanes & ~ordered_lanes(s.w_phase, a, approximate)) == 0)
    return false;
  report();
  c.approximate = approximate;
  return true;
}

// Non-coherent reads (race_shadow.hpp): a non-coherent read conflicts with any write or atomic of
// the byte ever made, and a write or atomic with any non-coherent read of it ever made, whatever
// orders them.
[[gnu::always_inline]] inline bool written_ever(const ByteShadow& s, Conflict& c) {
  if (s.w_stamp != 0) {
    c = Conflict{AccessKind::Write, s.w_cta, s.w_thread, s.w_pc, s.w_thread / 32u};
    return true;
  }
  if (s.atomics.state != AccessSummary::State::None) { // atomics since the last write: none
    c = Conflict{AccessKind::Atomic, s.atomics.cta, s.atomics.thread, s.atomics.pc,
                 s.atomics.thread / 32u};
    return true;
  }
  return false;
}
[[gnu::always_inline]] inline bool read_non_coherently(const ByteShadow& s, Conflict& c) {
  if (s.nc_pc == 0) [[likely]]
    return false;
  c = Conflict{AccessKind::NonCoherentRead, s.nc_cta, s.nc_thread, s.nc_pc - 1, s.nc_thread / 32u};
  return true;
}

// A conflicting access is recorded all the same: the run goes on after a data race (to report
// the races after it), and the history must then hold every access made, racy or not. Each
// later conflict is still found against an access that was made and is unordered with the
// current one; what recording a racy write forgets (the reads before it that it raced with) can
// only hide a later race, never make one up.
[[gnu::always_inline]] inline bool check_and_record_byte(ByteShadow& s, const Accessor& a,
                                                         AccessKind kind, Conflict& conflict) {
  switch (kind) {
  case AccessKind::Read: {
    const bool raced = write_conflicts(s, a, conflict) ||
                       summary_conflicts(s.atomics, a, AccessKind::Atomic, conflict);
    summary_record(s.reads, a);
    return raced;
  }
  case AccessKind::NonCoherentRead: {
    // Every write or atomic conflicts, ordered or not: a superset of a plain read's conflicts.
    const bool raced = written_ever(s, conflict);
    summary_record(s.reads, a);
    if (s.nc_pc == 0) {
      s.nc_cta = a.cta;
      s.nc_thread = static_cast<uint16_t>(a.thread);
      s.nc_pc = a.pc + 1;
    }
    return raced;
  }
  case AccessKind::Atomic: {
    const bool raced = write_conflicts(s, a, conflict) || read_non_coherently(s, conflict) ||
                       summary_conflicts(s.reads, a, AccessKind::Read, conflict);
    summary_record(s.atomics, a);
    return raced;
  }
  case AccessKind::Write: {
    const bool raced = write_conflicts(s, a, conflict) || read_non_coherently(s, conflict) ||
                       summary_conflicts(s.reads, a, AccessKind::Read, conflict) ||
                       summary_conflicts(s.atomics, a, AccessKind::Atomic, conflict);
    s.w_stamp = a.stamp;
    s.w_cta = a.cta;
    s.w_thread = static_cast<uint16_t>(a.thread);
    s.w_phase = a.phase;
    s.w_pc = a.pc;
    s.w_lanes = a.lanes | (1u << a.lane);
    // Later accesses that race with the forgotten reads also race with this write (when it did
    // not race with them itself).
    s.reads = AccessSummary{};
    s.atomics = AccessSummary{};
    return raced;
  }
  }
  return false;
}

} // namespace

bool check_and_record(ByteShadow& s, const Accessor& a, AccessKind kind, Conflict& conflict) {
  return check_and_record_byte(s, a, kind, conflict);
}

bool ShadowPage::check_and_record(uint32_t offset, uint32_t size, const Accessor& a,
                                  AccessKind kind, Conflict& conflict, uint32_t& byte) {
  // Every byte is checked and recorded, a racy one too (check_and_record_byte); the first
  // conflict is the one returned.
  const uint32_t end = offset + size;
  bool raced = false;
  Conflict later; // the conflicts after the first (not reported)
  for (uint32_t start = offset; start < end;) {
    Word& w = words_[start / 4];
    const uint32_t word_start = start & ~3u;
    const bool covers_word = start == word_start && end >= word_start + 4;
    if (w.split < 0 && covers_word) {
      if (check_and_record_byte(w.whole, a, kind, raced ? later : conflict)) [[unlikely]] {
        if (!raced)
          byte = start;
        raced = true;
      }
      start += 4;
      continue;
    }
    const uint32_t stop = end < word_start + 4 ? end : word_start + 4;
    uint32_t at = 0;
    if (check_bytes(w, start, stop, covers_word, a, kind, raced ? later : conflict, at)) {
      if (!raced)
        byte = at;
      raced = true;
    }
    start = stop;
  }
  return raced;
}

bool ShadowPage::check_bytes(Word& w, uint32_t start, uint32_t stop, bool covers_word,
                             const Accessor& a, AccessKind kind, Conflict& conflict,
                             uint32_t& byte) {
  if (w.split < 0) { // a part of a whole word: from now on its bytes may differ
    if (free_splits_.empty()) {
      w.split = static_cast<int32_t>(split_.size());
      split_.push_back({w.whole, w.whole, w.whole, w.whole});
    } else {
      w.split = free_splits_.back();
      free_splits_.pop_back();
      split_[static_cast<std::size_t>(w.split)] = {w.whole, w.whole, w.whole, w.whole};
    }
  }
  auto& bytes = split_[static_cast<std::size_t>(w.split)];
  const uint32_t word_start = start & ~3u;
  bool raced = false;
  Conflict later; // the conflicts after the first (not reported)
  for (uint32_t i = start; i < stop; ++i) {
    if (check_and_record_byte(bytes[i - word_start], a, kind, raced ? later : conflict)) {
      if (!raced)
        byte = i;
      raced = true;
    }
  }
  if (covers_word && kind == AccessKind::Write) {
    // A whole-word write leaves the four histories equal (the write, no reads, no atomics),
    // whether it raced or not; so are their non-coherent reads unless they differ (each of those
    // conflicted with this write, which is reported: forgetting them can hide a later race, and
    // keeping one byte's for all four could make one up).
    const auto& b = bytes;
    const bool same_nc = b[0].nc_pc == b[1].nc_pc && b[0].nc_pc == b[2].nc_pc &&
                         b[0].nc_pc == b[3].nc_pc && b[0].nc_cta == b[1].nc_cta &&
                         b[0].nc_cta == b[2].nc_cta && b[0].nc_cta == b[3].nc_cta &&
                         b[0].nc_thread == b[1].nc_thread && b[0].nc_thread == b[2].nc_thread &&
                         b[0].nc_thread == b[3].nc_thread;
    w.whole = bytes[0];
    if (!same_nc)
      w.whole.nc_pc = 0;
    free_splits_.push_back(w.split);
    w.split = -1;
  }
  return raced;
}

} // namespace volta::exec
