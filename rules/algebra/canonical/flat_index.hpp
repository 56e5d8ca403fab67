// A hash index from 64-bit hashes to ids for interning: open addressing with linear probing,
// the full hash kept in the slot so that a probe rarely touches the object it names. Equal
// hashes may name different objects; the caller's predicate decides. It replaced
// std::unordered_multimap, whose node-per-entry buckets made interning the hottest part of
// canonicalization (a cache miss per probe).
#pragma once

#include <cstdint>
#include <vector>

namespace volta::canonical {

class FlatIndex {
public:
  static constexpr uint32_t kEmpty = ~uint32_t{0};

  // The id of an entry with hash `h` that `same(id)` accepts, or kEmpty.
  template <class Same>
  uint32_t find(uint64_t h, Same&& same) const {
    if (ids_.empty())
      return kEmpty;
    for (size_t i = slot(h);; i = (i + 1) & mask_) {
      if (ids_[i] == kEmpty)
        return kEmpty;
      if (hashes_[i] == h && same(ids_[i]))
        return ids_[i];
    }
  }

  void insert(uint64_t h, uint32_t id) {
    if ((size_ + 1) * 2 > ids_.size())
      grow();
    place(h, id);
    ++size_;
  }

  size_t size() const { return size_; }

private:
  size_t slot(uint64_t h) const {
    return static_cast<size_t>((h ^ (h >> 29)) * 0x9E3779B97F4A7C15ull >> 7) & mask_;
  }

  void place(uint64_t h, uint32_t id) {
    size_t i = slot(h);
    while (ids_[i] != kEmpty)
      i = (i + 1) & mask_;
    hashes_[i] = h;
    ids_[i] = id;
  }

  void grow() {
    std::vector<uint64_t> hashes = std::move(hashes_);
    std::vector<uint32_t> ids = std::move(ids_);
    const size_t capacity = ids.empty() ? 64 : ids.size() * 2;
    hashes_.assign(capacity, 0);
    ids_.assign(capacity, kEmpty);
    mask_ = capacity - 1;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] != kEmpty)
        place(hashes[i], ids[i]);
    }
  }

  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> ids_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

} // namespace volta::canonical
