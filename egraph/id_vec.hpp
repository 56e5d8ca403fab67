#pragma once
// IdVec: a 16-byte vector of ids with room for two inline. Most e-classes hold one or two nodes
// and have one or two parents, so keeping those lists inline avoids two heap allocations per
// inserted node (the insert benchmark's dominant cost with std::vector).

#include <cstdint>
#include <cstring>
#include <span>
#include <utility>

#include "egraph/id.hpp"

namespace volta::egraph {

class IdVec {
public:
  IdVec() noexcept {}
  IdVec(const IdVec& other) { append(other.span()); }
  IdVec(IdVec&& other) noexcept { steal(other); }
  IdVec& operator=(const IdVec& other) {
    if (this != &other) {
      clear();
      append(other.span());
    }
    return *this;
  }
  IdVec& operator=(IdVec&& other) noexcept {
    if (this != &other) {
      release();
      steal(other);
    }
    return *this;
  }
  ~IdVec() { release(); }

  std::uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::uint32_t capacity() const { return cap_; }
  Id* data() { return cap_ > kInline ? heap_ : inline_; }
  const Id* data() const { return cap_ > kInline ? heap_ : inline_; }
  Id* begin() { return data(); }
  Id* end() { return data() + size_; }
  const Id* begin() const { return data(); }
  const Id* end() const { return data() + size_; }
  Id& operator[](std::uint32_t i) { return data()[i]; }
  Id operator[](std::uint32_t i) const { return data()[i]; }
  std::span<const Id> span() const { return {data(), size_}; }

  void push_back(Id id) {
    if (size_ == cap_)
      grow(cap_ == kInline ? kFirstHeap : cap_ * 2);
    data()[size_++] = id;
  }
  void append(std::span<const Id> ids);
  // Keeps the first n elements (n <= size()).
  void truncate(std::uint32_t n) { size_ = n; }
  void clear() { size_ = 0; }
  // Frees heap storage (the class was merged away).
  void release() {
    if (cap_ > kInline)
      delete[] heap_;
    cap_ = kInline;
    size_ = 0;
  }
  // Heap bytes held (0 while inline).
  std::size_t heap_bytes() const { return cap_ > kInline ? cap_ * sizeof(Id) : 0; }

private:
  static constexpr std::uint32_t kInline = 2;
  static constexpr std::uint32_t kFirstHeap = 8; // skip the 4-element step: fewer reallocations
  void grow(std::uint32_t new_cap);
  void steal(IdVec& other) noexcept {
    size_ = other.size_;
    cap_ = other.cap_;
    std::memcpy(inline_, other.inline_, sizeof inline_); // copies heap_ too (same bytes)
    other.size_ = 0;
    other.cap_ = kInline;
  }

  std::uint32_t size_ = 0;
  std::uint32_t cap_ = kInline;
  union {
    Id inline_[kInline] = {};
    Id* heap_;
  };
};

} // namespace volta::egraph
