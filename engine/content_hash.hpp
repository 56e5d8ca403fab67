// A small non-cryptographic content hash (64-bit FNV-1a), used to recognize the same manifest
// across shard reports and to checksum proof-cache files. It detects accidents (a truncated
// or garbled file, another manifest), not tampering.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace volta {

uint64_t fnv1a64(std::string_view bytes);
// 16 lower-case hex digits.
std::string hex64(uint64_t value);
// A file's bytes; nullopt when it cannot be read.
std::optional<std::string> read_file(const std::string& path);
// 32 hex digits naming `bytes` in a cache: two FNV-1a 64 hashes of different salts, 128 bits
// against accidental collisions (not against someone who can write the cache folder).
std::string cache_key(std::string_view bytes);
// "fnv1a64:<16 hex digits>" of a file's bytes; nullopt when the file cannot be read.
std::optional<std::string> file_digest(const std::string& path);

// FNV-1a's step over 8-byte words: eight times fewer steps than fnv1a64, for files of megabytes
// (cache files, the tool's own code, hashed at every start).
uint64_t checksum64(std::string_view bytes);

// "words64:<hex>" of the file that holds volta-eg's code: the executable, or the Python
// extension module when the library runs inside Python. Two builds differ here, so shards run
// by different builds are not merged and cached executions of one build are not used by
// another. "unknown" when it cannot be read.
const std::string& tool_digest();

} // namespace volta
