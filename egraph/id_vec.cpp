#include "egraph/id_vec.hpp"

#include <algorithm>

#include "support/invariant.hpp"

namespace volta::egraph {

void IdVec::grow(std::uint32_t new_cap) {
  VOLTA_ASSERT(new_cap > cap_ && new_cap >= size_, "a vector grows to hold what it holds");
  Id* fresh = new Id[new_cap];
  std::copy_n(data(), size_, fresh);
  if (cap_ > kInline)
    delete[] heap_;
  heap_ = fresh;
  cap_ = new_cap;
}

void IdVec::append(std::span<const Id> ids) {
  const auto need = size_ + static_cast<std::uint32_t>(ids.size());
  if (need > cap_) {
    std::uint32_t c = cap_ == kInline ? kFirstHeap : cap_;
    while (c < need)
      c *= 2;
    grow(c);
  }
  VOLTA_ASSERT(need >= size_, "the size does not overflow 32 bits");
  std::copy(ids.begin(), ids.end(), data() + size_);
  size_ = need;
}

} // namespace volta::egraph
