// A small non-cryptographic content hash (64-bit FNV-1a), used to recognize the same manifest
// across shard reports and to checksum proof-cache files. It detects accidents (a truncated
// or garbled file, another manifest), not tampering.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace volta::driver {

uint64_t fnv1a64(std::string_view bytes);
// 16 lower-case hex digits.
std::string hex64(uint64_t value);
// "fnv1a64:<16 hex digits>" of a file's bytes; nullopt when the file cannot be read.
std::optional<std::string> file_digest(const std::string& path);

} // namespace volta::driver
