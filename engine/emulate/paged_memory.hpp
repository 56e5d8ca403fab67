// Global memory in pages made on first touch: the emulator's arrays cost what the CTAs it runs
// touch, not their size. A GEMM's three 64 MiB arrays made, copied, flagged and collected in
// full cost seconds for a CTA that reads a few of their pages (the emulator cross-check of
// docs/semantics.md; docs/BENCHMARKS.md, "The emulator cross-check").
//
// A page holds its initial bytes (from `fill`, or zeros) once touched; pages never touched keep
// them implicitly, so that reading them back (read_only()) needs no page at all. Written flags
// (one per byte) live in pages of their own, made on the first store into the page.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace volta::emulate {

// The initial bytes [offset, offset + n) of a region (n never crosses a page).
using PageFill = std::function<void(uint64_t offset, uint8_t* out, uint64_t n)>;

inline constexpr uint64_t kPageBytes = uint64_t{1} << 12;

class PagedBytes {
public:
  PagedBytes() = default;
  // `fill` empty: the region starts as zero bytes.
  PagedBytes(uint64_t size, PageFill fill, bool track_written);

  uint64_t size() const { return size_; }
  bool tracks_written() const { return track_written_; }
  // Whether [offset, offset + n) lies in one page (an aligned access of up to 16 bytes always).
  static bool in_one_page(uint64_t offset, uint64_t n) {
    return n == 0 || offset / kPageBytes == (offset + n - 1) / kPageBytes;
  }
  // The bytes at `offset` for an access inside one page, made on first touch.
  uint8_t* bytes_at(uint64_t offset);
  // The written flags at `offset` (tracks_written() only), made on the first store.
  uint8_t* written_at(uint64_t offset);

  // Reads without making pages: byte `offset` as the memory holds it now.
  uint8_t byte(uint64_t offset) const;
  bool written(uint64_t offset) const;
  // Pages holding a written flag, in increasing order (a page index times kPageBytes is its
  // offset).
  std::vector<uint64_t> written_pages() const;
  // Every byte, as the memory holds it now (a dense copy).
  std::vector<uint8_t> dense_bytes() const;
  uint64_t resident_bytes() const; // pages made, bytes and flags

private:
  uint64_t page_count() const { return (size_ + kPageBytes - 1) / kPageBytes; }
  uint64_t page_size(uint64_t page) const;
  uint64_t size_ = 0;
  PageFill fill_;
  bool track_written_ = false;
  std::vector<std::unique_ptr<uint8_t[]>> pages_;
  std::vector<std::unique_ptr<uint8_t[]>> written_;
};

} // namespace volta::emulate
