#include "egraph/hashcons.hpp"

#include <bit>
#include <utility>

#include "support/invariant.hpp"

namespace volta::egraph {

void Hashcons::reserve(std::size_t n) {
  std::size_t slots = slots_.size();
  while (slots < 2 * n)
    slots *= 2;
  if (slots != slots_.size())
    rehash(slots);
}

void Hashcons::rehash(std::size_t slots) {
  VOLTA_ASSERT(std::has_single_bit(slots) && slots >= 2 * size_,
               "a rehash keeps a power-of-two table at most half full");
  std::vector<Slot> old(slots);
  old.swap(slots_);
  for (const Slot& s : old)
    if (s.entry != kEmpty)
      place(s.hash, s.entry);
}

bool Hashcons::erase(std::uint64_t hash, std::uint32_t entry) {
  const auto h = static_cast<std::uint32_t>(hash);
  std::size_t i = h & mask();
  for (;; i = (i + 1) & mask()) {
    if (slots_[i].entry == kEmpty)
      return false;
    if (slots_[i].entry == entry)
      break;
  }
  // Backward-shift deletion: pull later members of the probe run into the hole whenever their
  // home slot does not lie cyclically in (hole, j].
  std::size_t hole = i;
  for (std::size_t j = (i + 1) & mask(); slots_[j].entry != kEmpty; j = (j + 1) & mask()) {
    const std::size_t home = slots_[j].hash & mask();
    const bool home_in_range = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (!home_in_range) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = Slot{};
  VOLTA_ASSERT(size_ != 0, "an erased entry was counted");
  --size_;
  return true;
}

} // namespace volta::egraph
