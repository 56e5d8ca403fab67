#pragma once
// Small, fast 64-bit hashing used by the hashcons and the interners. Not cryptographic; the
// tables store the hash next to each entry so that a bad mix only costs probes, never results.

#include <bit>
#include <cstdint>
#include <span>

namespace volta::egraph {

// Final avalanche (from MurmurHash3's fmix64): every input bit affects every output bit, so the
// low bits used as a table index are well distributed.
inline std::uint64_t hash_finish(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

inline std::uint64_t hash_combine(std::uint64_t h, std::uint64_t v) {
  return std::rotl((h ^ v) * 0x9e3779b97f4a7c15ULL, 29);
}

// Hashes a run of 32-bit ids two at a time.
inline std::uint64_t hash_ids(std::uint64_t h, std::span<const std::uint32_t> ids) {
  std::size_t i = 0;
  for (; i + 1 < ids.size(); i += 2)
    h = hash_combine(h, (std::uint64_t{ids[i]} << 32) | ids[i + 1]);
  if (i < ids.size())
    h = hash_combine(h, ids[i]);
  return h;
}

inline std::uint64_t hash_bytes(std::uint64_t h, const void* data, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t word = 0;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    word = (word << 8) | p[i];
    if (++k == 8) {
      h = hash_combine(h, word);
      word = 0;
      k = 0;
    }
  }
  return hash_combine(h, word ^ (std::uint64_t{n} << 56));
}

} // namespace volta::egraph
