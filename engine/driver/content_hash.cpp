#include "engine/driver/content_hash.hpp"

#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace volta::driver {

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string hex64(uint64_t value) {
  return fmt::format("{:016x}", value);
}

std::optional<std::string> file_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return "fnv1a64:" + hex64(fnv1a64(text.str()));
}

} // namespace volta::driver
