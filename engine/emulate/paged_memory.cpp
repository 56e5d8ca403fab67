#include "engine/emulate/paged_memory.hpp"

#include <algorithm>
#include <cstring>

#include "support/invariant.hpp"

namespace volta::emulate {

PagedBytes::PagedBytes(uint64_t size, PageFill fill, bool track_written)
    : size_(size), fill_(std::move(fill)), track_written_(track_written) {
  pages_.resize(page_count());
  if (track_written_)
    written_.resize(page_count());
}

uint64_t PagedBytes::page_size(uint64_t page) const {
  return std::min(kPageBytes, size_ - page * kPageBytes);
}

uint8_t* PagedBytes::bytes_at(uint64_t offset) {
  VOLTA_ASSERT(offset < size_, "a paged-memory offset is inside the allocation");
  const uint64_t page = offset / kPageBytes;
  auto& p = pages_[page];
  if (!p) {
    const uint64_t n = page_size(page);
    p = std::make_unique_for_overwrite<uint8_t[]>(n);
    if (fill_)
      fill_(page * kPageBytes, p.get(), n);
    else
      std::memset(p.get(), 0, n);
  }
  return p.get() + offset % kPageBytes;
}

uint8_t* PagedBytes::written_at(uint64_t offset) {
  VOLTA_ASSERT(track_written_ && offset < size_,
               "written() is asked of a tracked allocation, inside it");
  const uint64_t page = offset / kPageBytes;
  auto& w = written_[page];
  if (!w)
    w = std::make_unique<uint8_t[]>(page_size(page)); // zeros: nothing written yet
  return w.get() + offset % kPageBytes;
}

uint8_t PagedBytes::byte(uint64_t offset) const {
  VOLTA_ASSERT(offset < size_, "a paged-memory offset is inside the allocation");
  const auto& p = pages_[offset / kPageBytes];
  if (p)
    return p[offset % kPageBytes];
  uint8_t b = 0;
  if (fill_)
    fill_(offset, &b, 1);
  return b;
}

bool PagedBytes::written(uint64_t offset) const {
  if (!track_written_)
    return false;
  const auto& w = written_[offset / kPageBytes];
  return w && w[offset % kPageBytes] != 0;
}

std::vector<uint64_t> PagedBytes::written_pages() const {
  std::vector<uint64_t> pages;
  for (uint64_t i = 0; i < written_.size(); ++i) {
    if (written_[i])
      pages.push_back(i);
  }
  return pages;
}

std::vector<uint8_t> PagedBytes::dense_bytes() const {
  std::vector<uint8_t> out(size_);
  for (uint64_t page = 0; page < pages_.size(); ++page) {
    uint8_t* dst = out.data() + page * kPageBytes;
    const uint64_t n = page_size(page);
    if (pages_[page])
      std::memcpy(dst, pages_[page].get(), n);
    else if (fill_)
      fill_(page * kPageBytes, dst, n);
    else
      std::memset(dst, 0, n);
  }
  return out;
}

uint64_t PagedBytes::resident_bytes() const {
  uint64_t n = 0;
  for (uint64_t page = 0; page < pages_.size(); ++page) {
    n += pages_[page] ? page_size(page) : 0;
    n += page < written_.size() && written_[page] ? page_size(page) : 0;
  }
  return n;
}

} // namespace volta::emulate
