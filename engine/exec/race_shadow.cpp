#include "engine/exec/race_shadow.hpp"

#include <algorithm>
#include <bit>

#include "engine/symbolic/bit_equality.hpp"
#include "support/invariant.hpp"

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

// Whether warp `warp`'s accesses of phase `phase`, in a's epoch of a's CTA, are ordered before
// `a` by named barriers: a released them (bar.arrive, bar.sync) at a later phase, and a's warp
// acquired that release (waited at the phase it completed), directly or through other warps.
[[gnu::always_inline]] inline bool ordered_by_clock(const Accessor& a, uint32_t warp,
                                                    uint32_t phase) {
  return a.clock != nullptr && phase < a.clock[warp];
}

// Whether the accesses of every warp in `warps` (a mask), each in a phase no later than `bound`
// of its own, are ordered before `a`: another warp's by a named barrier's release and a's
// acquire (ordered_by_clock is monotone in the phase, so the bound is enough), a's own warp's
// (any of its lanes) by a full-warp sync since.
inline bool all_ordered_by_clock(const Accessor& a, uint32_t warps, uint32_t bound) {
  for (uint32_t m = warps; m != 0; m &= m - 1) {
    const uint32_t w = static_cast<uint32_t>(std::countr_zero(m));
    if (w == a.warp) {
      bool approximate = false;
      if (bound >= a.phase || ordered_lanes(bound, a, approximate) != ~0u || approximate)
        return false;
    } else if (!ordered_by_clock(a, w, bound)) {
      return false;
    }
  }
  return true;
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
    if (s.stamp != a.stamp) {
      // An earlier epoch of this CTA: ordered, unless a thread left it by exiting (which of the
      // summary's threads did is not known: a possible false alarm).
      if (a.exits == nullptr || !a.exits->any_in(s.stamp)) [[likely]]
        return false;
      report(s.cta, s.thread, s.pc, 0u);
      c.approximate = true;
      c.approximation = kAfterExit;
      return true;
    }
    // Several warps of this CTA in this epoch: at least one is not a's warp. Named barriers
    // order them all before a when each released a phase past the summary's bound on their
    // phases and a acquired it, and a's own warp (if among them) synced fully since (FA3's
    // epilogue writes shared memory that both consumer warpgroups' wgmmas read, after a named
    // barrier of the two). Otherwise some may still be ordered: a possible false alarm.
    if (a.clock != nullptr && !s.after_exit) {
      if (all_ordered_by_clock(a, s.lanes, s.phase)) [[unlikely]]
        return false;
      // A warp from which a acquired nothing in this epoch (clock 0): its access is unordered
      // for certain. The latest access and the remembered one name their thread and line.
      const uint32_t other_warp = s.other_thread / 32u;
      if (s.warp() != a.warp && a.clock[s.warp()] == 0)
        return report(s.cta, s.thread, s.pc, 0u);
      if (s.other_cta == a.cta && other_warp != a.warp && ((s.lanes >> other_warp) & 1u) &&
          a.clock[other_warp] == 0)
        return report(s.other_cta, s.other_thread, s.other_pc, 0u);
    }
    if (s.warp() != a.warp)
      report(s.cta, s.thread, s.pc, 0u);
    else
      report(s.other_cta, s.other_thread, s.other_pc, 0u);
    c.approximate = s.after_exit || a.clock != nullptr;
    c.approximation = s.after_exit ? kAfterExit : kSeveralWarps;
    return true;
  case State::OneWarp:
    if (s.cta != a.cta)
      return report(s.cta, s.thread, s.pc, 0u);
    if (s.stamp != a.stamp) {
      // An earlier epoch of this CTA: ordered, except the accesses of lanes that then exited.
      if (a.exits == nullptr) [[likely]]
        return false;
      for (uint32_t m = s.lanes; m != 0; m &= m - 1) {
        const uint32_t thread = s.warp() * 32 + static_cast<uint32_t>(std::countr_zero(m));
        if (a.exits->exited_in(thread, s.stamp)) {
          report(s.cta, thread, s.pc, 0u);
          c.approximate = s.merged_phases || s.after_exit;
          c.approximation = s.after_exit ? kAfterExit : kMergedPhases;
          return true;
        }
      }
      return false;
    }
    if (s.warp() != a.warp) {
      // Its lanes' accesses of earlier phases were taken as of `phase` (merged_phases): ordered
      // when the latest phase is.
      if (ordered_by_clock(a, s.warp(), s.phase))
        return false;
      return report(s.cta, s.thread, s.pc, 0u);
    }
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
      c.approximate = approximate || s.after_exit;
      c.approximation = s.after_exit ? kAfterExit : kMergedPhases;
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
    s.after_exit = false;
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
      // They are ordered before a, and forgotten, unless a thread left that epoch by exiting:
      // then they are kept with a's, by several warps, in the exit's epoch (so that every later
      // conflicting access is reported, as approximate: which thread exited is not kept).
      if (a.exits == nullptr || !a.exits->any_in(s.stamp)) [[likely]] {
        reset();
        return;
      }
      remember_other();
      s.state = State::ManyWarps;
      s.after_exit = true;
      s.lanes = ~0u; // which warps: not kept (after_exit makes every conflict approximate)
      latest();
      return;
    }
    if (s.state == State::ManyWarps) {
      if (s.warp() != a.warp)
        remember_other();
      s.lanes |= 1u << a.warp; // the warps, and a bound on their phases (race_shadow.hpp)
      s.phase = std::max(s.phase, a.phase);
      latest();
      return;
    }
    if (s.warp() != a.warp) {
      // Accesses ordered before a (by named barriers) can be forgotten, as above.
      if (ordered_by_clock(a, s.warp(), s.phase)) {
        reset();
        return;
      }
      remember_other();
      s.state = State::ManyWarps;
      s.lanes = (1u << s.warp()) | (1u << a.warp);
      s.phase = std::max(s.phase, a.phase);
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
  if (s.w_stamp != a.stamp) // an earlier epoch: ordered, unless the writer exited in it
    return a.exits != nullptr && a.exits->exited_in(s.w_thread, s.w_stamp) ? report() : false;
  if (s.w_thread / 32u != a.warp)
    return ordered_by_clock(a, s.w_thread / 32u, s.w_phase) ? false : report();
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
  c.approximation = kMergedPhases;
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

// Whether two writes store provably the same bits in a record's bytes (the benign rule).
bool same_stored(const StoredBytes& x, const StoredBytes& y, symbolic::BitEquality& equality) {
  if (x.kind == StoredBytes::Kind::None || x.kind != y.kind || x.offset != y.offset ||
      x.size != y.size || x.tags != y.tags)
    return false;
  if (x.kind == StoredBytes::Kind::Concrete)
    return x.id == y.id;
  if (x.generation != y.generation)
    return false; // nodes of two expression stores (two groups of CTAs)
  return equality.same_bits(static_cast<symbolic::ExprId>(x.id),
                            static_cast<symbolic::ExprId>(y.id));
}

// What a store writes in the `span` bytes of a record that start `at` bytes into the access:
// one element's bytes, or nothing known when they are not inside one element.
StoredBytes stored_at(const StoredElements& values, uint32_t at, uint32_t span) {
  if (values.elements == nullptr || values.size == 0)
    return {};
  const uint32_t index = at / values.size, offset = at % values.size;
  if (index >= values.count || offset + span > values.size || values.size > 255)
    return {};
  const StoredElement& e = values.elements[index];
  return StoredBytes{e.id,
                     e.symbolic ? e.generation : 0,
                     e.symbolic ? StoredBytes::Kind::Symbolic : StoredBytes::Kind::Concrete,
                     e.tags,
                     static_cast<uint8_t>(offset),
                     static_cast<uint8_t>(values.size)};
}

} // namespace

AccessSummary& ShadowPage::co_writes_of(ByteShadow& s) {
  if (s.co_writes == 0) {
    if (free_co_writes_.empty()) {
      co_writes_.emplace_back();
      s.co_writes = static_cast<uint32_t>(co_writes_.size());
    } else {
      s.co_writes = free_co_writes_.back() + 1;
      free_co_writes_.pop_back();
      co_writes_[s.co_writes - 1] = AccessSummary{};
    }
  }
  VOLTA_ASSERT(s.co_writes - 1 < co_writes_.size(), "a byte's co_writes index names a summary");
  return co_writes_[s.co_writes - 1];
}

bool ShadowPage::read_ordered(uint32_t offset, const Accessor& a) const {
  VOLTA_ASSERT(offset % 4 == 0 && offset / 4 < words_.size(), "a whole word of the page");
  ShadowPage copy(4);
  const Word& w = words_[offset / 4];
  if (w.split < 0) {
    copy.words_[0].whole = w.whole;
  } else {
    copy.words_[0].whole = split_[static_cast<std::size_t>(w.split)][0];
  }
  copy.words_[0].whole.co_writes = 0; // the copy has no table of them: the last write alone
  Conflict c;
  uint32_t byte = 0;
  return !copy.check_and_record(0, 4, a, AccessKind::Read, c, byte);
}

void ShadowPage::forget_writes(uint32_t offset, uint32_t size) {
  auto forget = [&](ByteShadow& s) {
    release_co_writes(s);
    s.w_stamp = s.w_cta = s.w_phase = s.w_pc = 0;
    s.w_thread = 0;
    s.w_lanes = 0;
    s.w_value = StoredBytes{};
  };
  for (uint32_t b = offset; b < offset + size; ++b) {
    Word& w = words_[b / 4];
    if (w.split < 0) {
      forget(w.whole); // one record for the word's four bytes
      b = (b / 4) * 4 + 3;
      continue;
    }
    forget(split_[static_cast<std::size_t>(w.split)][b % 4]);
  }
}

void ShadowPage::release_co_writes(ByteShadow& s) {
  if (s.co_writes != 0) {
    VOLTA_ASSERT(s.co_writes - 1 < co_writes_.size() && free_co_writes_.size() < co_writes_.size(),
                 "a released co_writes summary was in use");
    free_co_writes_.push_back(s.co_writes - 1);
    s.co_writes = 0;
  }
}

// A conflicting access is recorded all the same: the run goes on after a data race (to report
// the races after it), and the history must then hold every access made, racy or not. Each
// later conflict is still found against an access that was made and is unordered with the
// current one; what recording a racy write forgets (the reads before it that it raced with) can
// only hide a later race, never make one up.
inline bool ShadowPage::check_record(ByteShadow& s, const Accessor& a, AccessKind kind,
                                     Conflict& conflict, const StoredBytes& value, bool& benign) {
  // The writes of the last write's value kept with it (the benign rule), if any.
  auto co_writes_conflict = [&](Conflict& c) {
    return s.co_writes != 0 &&
           summary_conflicts(co_writes_[s.co_writes - 1], a, AccessKind::Write, c);
  };
  switch (kind) {
  case AccessKind::Read: {
    const bool raced = write_conflicts(s, a, conflict) || co_writes_conflict(conflict) ||
                       summary_conflicts(s.atomics, a, AccessKind::Atomic, conflict);
    summary_record(s.reads, a);
    return raced;
  }
  case AccessKind::NonCoherentRead: {
    // Every write or atomic conflicts, ordered or not: a superset of a plain read's conflicts
    // (co_writes exist only beside a last write).
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
    const bool raced = write_conflicts(s, a, conflict) || co_writes_conflict(conflict) ||
                       read_non_coherently(s, conflict) ||
                       summary_conflicts(s.reads, a, AccessKind::Read, conflict);
    summary_record(s.atomics, a);
    return raced;
  }
  case AccessKind::Write: {
    Conflict with_write;
    const bool write_raced = write_conflicts(s, a, with_write) || co_writes_conflict(with_write);
    // The benign rule: a write of provably the same bits as the last write (and so as every write
    // kept with it) races with none of them, whichever lands; it joins them, and later accesses
    // are checked against each.
    benign = write_raced && a.equality != nullptr && same_stored(s.w_value, value, *a.equality);
    bool raced = write_raced && !benign;
    if (raced)
      conflict = with_write;
    else
      raced = read_non_coherently(s, conflict) ||
              summary_conflicts(s.reads, a, AccessKind::Read, conflict) ||
              summary_conflicts(s.atomics, a, AccessKind::Atomic, conflict);
    if (benign) {
      // The reads and atomics are kept: each that this write did not race with is ordered
      // before it, and stays as it was for the accesses after it.
      summary_record(co_writes_of(s), a);
      return raced;
    }
    release_co_writes(s);
    s.w_stamp = a.stamp;
    s.w_cta = a.cta;
    s.w_thread = static_cast<uint16_t>(a.thread);
    s.w_phase = a.phase;
    s.w_pc = a.pc;
    s.w_lanes = a.lanes | (1u << a.lane);
    s.w_value = value;
    // Later accesses that race with the forgotten reads also race with this write (when it did
    // not race with them itself).
    s.reads = AccessSummary{};
    s.atomics = AccessSummary{};
    return raced;
  }
  }
  return false;
}

bool ShadowPage::check_and_record(uint32_t offset, uint32_t size, const Accessor& a,
                                  AccessKind kind, Conflict& conflict, uint32_t& byte,
                                  const StoredElements& values) {
  // Every byte is checked and recorded, a racy one too (check_record); the first conflict is the
  // one returned.
  VOLTA_ASSERT(size != 0 && offset + size > offset && offset + size <= 4 * words_.size(),
               "an access lies inside the shadow page");
  VOLTA_ASSERT(a.stamp != 0, "epoch stamps start at 1 (0 marks a byte never written)");
  VOLTA_ASSERT(a.thread <= 0xFFFF, "a CTA's thread index fits the summaries' 16 bits");
  VOLTA_ASSERT(a.warp == a.thread / 32u && a.lane == a.thread % 32u,
               "an accessor's warp and lane are its thread's (summaries derive the warp so)");
  VOLTA_ASSERT(kind == AccessKind::Write || values.count == 0, "only a write stores values");
  VOLTA_ASSERT(values.count == 0 || (values.elements != nullptr && values.size != 0),
               "stored values have a size");
  const uint32_t end = offset + size;
  bool raced = false;
  Conflict later; // the conflicts after the first (not reported)
  for (uint32_t start = offset; start < end;) {
    Word& w = words_[start / 4];
    const uint32_t word_start = start & ~3u;
    const bool covers_word = start == word_start && end >= word_start + 4;
    if (w.split < 0 && covers_word) {
      bool benign = false;
      const StoredBytes value =
          kind == AccessKind::Write ? stored_at(values, start - offset, 4) : StoredBytes{};
      if (check_record(w.whole, a, kind, raced ? later : conflict, value, benign)) [[unlikely]] {
        if (!raced)
          byte = start;
        raced = true;
      }
      start += 4;
      continue;
    }
    const uint32_t stop = end < word_start + 4 ? end : word_start + 4;
    uint32_t at = 0;
    if (check_bytes(w, start, stop, covers_word, a, kind, raced ? later : conflict, at, offset,
                    values)) {
      if (!raced)
        byte = at;
      raced = true;
    }
    start = stop;
  }
  return raced;
}

bool ShadowPage::check_bytes(Word& w, uint32_t start, uint32_t stop, bool covers_word,
                             const Accessor& a, AccessKind kind, Conflict& conflict, uint32_t& byte,
                             uint32_t access_start, const StoredElements& values) {
  if (w.split < 0) { // a part of a whole word: from now on its bytes may differ
    if (free_splits_.empty()) {
      w.split = static_cast<int32_t>(split_.size());
      split_.push_back({w.whole, w.whole, w.whole, w.whole});
    } else {
      w.split = free_splits_.back();
      free_splits_.pop_back();
      split_[static_cast<std::size_t>(w.split)] = {w.whole, w.whole, w.whole, w.whole};
    }
    auto& copies = split_[static_cast<std::size_t>(w.split)];
    for (uint32_t k = 0; k < 4; ++k) {
      // Each byte's own place in the stored element (the whole record's four bytes lie in one).
      if (copies[k].w_value.kind != StoredBytes::Kind::None)
        copies[k].w_value.offset = static_cast<uint8_t>(copies[k].w_value.offset + k);
      // Each byte its own copy of the writes kept with the last one.
      if (k > 0 && w.whole.co_writes != 0) {
        const AccessSummary kept = co_writes_[w.whole.co_writes - 1];
        copies[k].co_writes = 0;
        co_writes_of(copies[k]) = kept;
      }
    }
  }
  VOLTA_ASSERT(w.split >= 0 && static_cast<std::size_t>(w.split) < split_.size(),
               "a split word names its four byte records");
  auto& bytes = split_[static_cast<std::size_t>(w.split)];
  const uint32_t word_start = start & ~3u;
  VOLTA_ASSERT(word_start <= start && start < stop && stop <= word_start + 4,
               "check_bytes stays inside one word");
  bool raced = false;
  bool any_benign = false;
  Conflict later; // the conflicts after the first (not reported)
  for (uint32_t i = start; i < stop; ++i) {
    bool benign = false;
    const StoredBytes value =
        kind == AccessKind::Write ? stored_at(values, i - access_start, 1) : StoredBytes{};
    if (check_record(bytes[i - word_start], a, kind, raced ? later : conflict, value, benign)) {
      if (!raced)
        byte = i;
      raced = true;
    }
    any_benign = any_benign || benign;
  }
  if (covers_word && kind == AccessKind::Write && !any_benign) {
    // A whole-word write leaves the four histories equal (the write, no reads, no atomics, no
    // writes kept with it), whether it raced or not; so are their non-coherent reads unless they
    // differ (each of those conflicted with this write, which is reported: forgetting them can
    // hide a later race, and keeping one byte's for all four could make one up). A write that
    // joined equal writes (the benign rule) leaves each byte its own history: no merge then.
    const auto& b = bytes;
    const bool same_nc = b[0].nc_pc == b[1].nc_pc && b[0].nc_pc == b[2].nc_pc &&
                         b[0].nc_pc == b[3].nc_pc && b[0].nc_cta == b[1].nc_cta &&
                         b[0].nc_cta == b[2].nc_cta && b[0].nc_cta == b[3].nc_cta &&
                         b[0].nc_thread == b[1].nc_thread && b[0].nc_thread == b[2].nc_thread &&
                         b[0].nc_thread == b[3].nc_thread;
    w.whole = bytes[0];
    w.whole.w_value = stored_at(values, word_start - access_start, 4);
    if (!same_nc)
      w.whole.nc_pc = 0;
    free_splits_.push_back(w.split);
    w.split = -1;
  }
  return raced;
}

} // namespace volta::exec
