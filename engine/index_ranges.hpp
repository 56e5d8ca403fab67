// A set of element indices held as sorted, disjoint, non-adjacent half-open ranges. The elements
// an output's kernels both compute exactly (entry_result.hpp, cross_check.hpp) are usually whole
// rows or the whole array: a copy or transpose at a real shape has 16 M of them, 128 MB as a list
// of indices and one range here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace volta {

class IndexRanges {
public:
  IndexRanges() = default;
  IndexRanges(std::initializer_list<uint64_t> indices) {
    for (uint64_t i : indices)
      insert(i);
  }

  // Adds `i`; in increasing order (how elements are met) each insert is constant time.
  void insert(uint64_t i) {
    if (ranges_.empty() || i > ranges_.back().second) {
      ranges_.emplace_back(i, i + 1);
      return;
    }
    if (i == ranges_.back().second) {
      ++ranges_.back().second;
      return;
    }
    // The first range that starts after i.
    auto after = std::upper_bound(ranges_.begin(), ranges_.end(), i,
                                  [](uint64_t v, const Range& r) { return v < r.first; });
    if (after != ranges_.begin()) {
      auto before = std::prev(after);
      if (i < before->second)
        return; // already in
      if (i == before->second) {
        before->second = i + 1;
        if (after != ranges_.end() && after->first == before->second) {
          before->second = after->second;
          ranges_.erase(after);
        }
        return;
      }
    }
    if (after != ranges_.end() && after->first == i + 1) {
      after->first = i;
      return;
    }
    ranges_.insert(after, Range{i, i + 1});
  }

  bool contains(uint64_t i) const {
    auto after = std::upper_bound(ranges_.begin(), ranges_.end(), i,
                                  [](uint64_t v, const Range& r) { return v < r.first; });
    return after != ranges_.begin() && i < std::prev(after)->second;
  }

  // The union with `other` (a streamed entry's groups own interleaved elements).
  void merge(const IndexRanges& other) {
    std::vector<Range> all;
    all.reserve(ranges_.size() + other.ranges_.size());
    std::merge(ranges_.begin(), ranges_.end(), other.ranges_.begin(), other.ranges_.end(),
               std::back_inserter(all));
    ranges_.clear();
    for (const Range& r : all) {
      if (!ranges_.empty() && r.first <= ranges_.back().second)
        ranges_.back().second = std::max(ranges_.back().second, r.second);
      else
        ranges_.push_back(r);
    }
  }

  bool empty() const { return ranges_.empty(); }
  // How many indices (not ranges).
  uint64_t count() const {
    uint64_t n = 0;
    for (const Range& r : ranges_)
      n += r.second - r.first;
    return n;
  }
  size_t range_count() const { return ranges_.size(); }

  friend bool operator==(const IndexRanges&, const IndexRanges&) = default;

private:
  using Range = std::pair<uint64_t, uint64_t>; // [first, second)
  std::vector<Range> ranges_;
};

} // namespace volta
