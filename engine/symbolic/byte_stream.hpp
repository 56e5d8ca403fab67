// Little binary writer and reader for the files volta-eg writes for itself (the execution
// cache). The reader never trusts its input: every read is bounds-checked and a short or
// malformed buffer throws ByteStreamError, which callers turn into a cache miss.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace volta::symbolic {

struct ByteStreamError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ByteWriter {
public:
  void u8(uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
  void u32(uint32_t v) { raw(&v, sizeof v); }
  void u64(uint64_t v) { raw(&v, sizeof v); }
  void f64(double v) { raw(&v, sizeof v); }
  // LEB128: 7 bits a byte, small numbers in one byte.
  void varint(uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<char>(v));
  }
  void str(std::string_view s) {
    u64(s.size());
    bytes_.append(s);
  }
  const std::string& bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }

private:
  // Host byte order: a cache file is only read back by the same executable (its key includes
  // the executable's digest), so it is never moved between machines of different endianness.
  void raw(const void* p, size_t n) { bytes_.append(static_cast<const char*>(p), n); }
  std::string bytes_;
};

class ByteReader {
public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}
  uint8_t u8() { return static_cast<uint8_t>(*take(1)); }
  uint32_t u32() { return value<uint32_t>(); }
  uint64_t u64() { return value<uint64_t>(); }
  double f64() { return value<double>(); }
  uint64_t varint() {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      const uint8_t byte = u8();
      v |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0)
        return v;
    }
    throw ByteStreamError("varint longer than 64 bits");
  }
  uint32_t varint32() {
    const uint64_t v = varint();
    if (v > UINT32_MAX)
      throw ByteStreamError("number out of range");
    return static_cast<uint32_t>(v);
  }
  std::string str() { return std::string(view()); }
  // A string written by ByteWriter::str, in place (valid while the reader's buffer is).
  std::string_view view() {
    const uint64_t n = u64();
    if (n > remaining())
      throw ByteStreamError("string runs past the end");
    return std::string_view(take(n), n);
  }
  // A count of items of at least `min_item_bytes` each, refused when the rest cannot hold them
  // (so that a garbled count cannot make the caller reserve gigabytes).
  uint64_t count(size_t min_item_bytes) {
    const uint64_t n = u64();
    if (min_item_bytes > 0 && n > remaining() / min_item_bytes)
      throw ByteStreamError("count larger than the data");
    return n;
  }
  size_t remaining() const { return bytes_.size() - pos_; }
  bool done() const { return pos_ == bytes_.size(); }

private:
  template <class T>
  T value() {
    T v;
    std::memcpy(&v, take(sizeof v), sizeof v);
    return v;
  }
  const char* take(size_t n) {
    if (n > remaining())
      throw ByteStreamError("unexpected end of data");
    const char* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }
  std::string_view bytes_;
  size_t pos_ = 0;
};

} // namespace volta::symbolic
