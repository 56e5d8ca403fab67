#pragma once
// Hashcons: a flat open-addressing hash set of 32-bit entry indices (e-node ids, interned-string
// ids, ...). The keys live outside the table (in the e-graph's node arena, in an interner), so
// lookups take the key's hash and an equality predicate over an entry index. Each slot stores
// the entry and 32 bits of its hash: probes compare hashes before touching the key, and growing
// never rehashes keys. Linear probing with backward-shift deletion (no tombstones), load <= 1/2.
//
// std::unordered_map<Node, Id> costs a heap node per entry and a pointer chase per probe; this
// table is one array and was ~8x faster on the insert benchmark (docs/egraph.md, performance).

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "support/invariant.hpp"

namespace volta::egraph {

class Hashcons {
public:
  static constexpr std::uint32_t kEmpty = ~std::uint32_t{0};

  Hashcons() { slots_.assign(16, Slot{}); }

  std::size_t size() const { return size_; }
  std::size_t capacity_bytes() const { return slots_.capacity() * sizeof(Slot); }

  // The entry whose key equals the probe, or nullopt. `eq(entry)` compares a stored entry's key
  // with the probe key; it is only called on entries whose stored hash matches.
  template <class Eq>
  std::optional<std::uint32_t> find(std::uint64_t hash, Eq&& eq) const {
    const auto h = static_cast<std::uint32_t>(hash);
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.entry == kEmpty)
        return std::nullopt;
      if (s.hash == h && eq(s.entry))
        return s.entry;
    }
  }

  // Inserts an entry known to be absent.
  void insert(std::uint64_t hash, std::uint32_t entry) {
    VOLTA_ASSERT(entry != kEmpty, "kEmpty marks a free slot and is no entry");
    if ((size_ + 1) * 2 > slots_.size())
      grow();
    place(static_cast<std::uint32_t>(hash), entry);
    ++size_;
    VOLTA_ASSERT(size_ * 2 <= slots_.size(), "the load stays at most 1/2 (probes end)");
  }

  // Makes room for `n` entries without growing.
  void reserve(std::size_t n);

  // Removes `entry` (stored under `hash`); returns false if it is not there.
  bool erase(std::uint64_t hash, std::uint32_t entry);

  // Calls f(entry) for every entry (unspecified order).
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.entry != kEmpty)
        f(s.entry, s.hash);
  }

  // Removes every entry, keeping the allocated slots.
  void clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    size_ = 0;
  }

private:
  struct Slot {
    std::uint32_t entry = kEmpty;
    std::uint32_t hash = 0;
  };
  std::size_t mask() const {
    VOLTA_ASSERT(std::has_single_bit(slots_.size()), "the slot count is a power of two");
    return slots_.size() - 1;
  }
  void place(std::uint32_t hash, std::uint32_t entry) {
    std::size_t i = hash & mask();
    while (slots_[i].entry != kEmpty)
      i = (i + 1) & mask();
    slots_[i] = Slot{entry, hash};
  }
  void grow() { rehash(slots_.size() * 2); }
  void rehash(std::size_t slots);

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

} // namespace volta::egraph
