// A map from node ids (never 0) to 32-bit values: open addressing with linear probing and
// backward-shift deletion, so that inserting and erasing allocate nothing. The template matcher
// moves one entry per changed leaf of every element it matches (a million per second on
// attention), and the sign analysis memoizes every node of a domain condition's DAG: a
// node-based std::unordered_map paid a malloc (and a free) for each.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/symbolic/expr.hpp"

namespace volta::symbolic {

class IdMap {
public:
  // Empties the map (keeps its capacity).
  void clear() {
    slots_.assign(slots_.size(), Slot{});
    count_ = 0;
  }
  // The value of `key`, or nullptr.
  const uint32_t* find(ExprId key) const {
    if (slots_.empty())
      return nullptr;
    for (size_t i = home(key);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].key == key)
        return &slots_[i].value;
      if (slots_[i].key == 0)
        return nullptr;
    }
  }
  // Sets the value of `key` (inserting it when absent).
  void set(ExprId key, uint32_t value) { *insert(key, value) = value; }
  // Inserts `key` with `value` unless present; returns its value slot.
  uint32_t* insert(ExprId key, uint32_t value) {
    if (2 * (count_ + 1) > slots_.size())
      grow();
    size_t i = home(key);
    for (; slots_[i].key != 0; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].key == key)
        return &slots_[i].value;
    }
    slots_[i] = Slot{key, value};
    ++count_;
    return &slots_[i].value;
  }
  // Removes `key` if present. The entries after it in its probe run move back over the hole, so
  // that no tombstone is left (finds stop at the first empty slot).
  void erase(ExprId key) {
    if (slots_.empty())
      return;
    const size_t mask = slots_.size() - 1;
    size_t hole = home(key);
    while (slots_[hole].key != key) {
      if (slots_[hole].key == 0)
        return;
      hole = (hole + 1) & mask;
    }
    for (size_t j = (hole + 1) & mask; slots_[j].key != 0; j = (j + 1) & mask) {
      // Slot j's entry may fill the hole when its home is not in the cyclic range (hole, j].
      const size_t h = home(slots_[j].key);
      if (((j - h) & mask) >= ((j - hole) & mask)) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole] = Slot{};
    --count_;
  }
  size_t size() const { return count_; }

private:
  struct Slot {
    ExprId key = 0;
    uint32_t value = 0;
  };
  size_t home(ExprId key) const {
    return static_cast<size_t>((uint64_t{key} * 0x9E3779B97F4A7C15ull) >> 24) & (slots_.size() - 1);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
    count_ = 0;
    for (const Slot& s : old) {
      if (s.key != 0)
        insert(s.key, s.value);
    }
  }
  std::vector<Slot> slots_;
  size_t count_ = 0;
};

} // namespace volta::symbolic
