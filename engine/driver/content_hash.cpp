#include "engine/driver/content_hash.hpp"

#include <cstdio>
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

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return std::nullopt;
  return text.str();
}

std::string cache_key(std::string_view bytes) {
  return hex64(fnv1a64(bytes)) + hex64(fnv1a64("salt:" + std::string(bytes)));
}

std::optional<std::string> file_digest(const std::string& path) {
  const auto bytes = read_file(path);
  if (!bytes)
    return std::nullopt;
  return "fnv1a64:" + hex64(fnv1a64(*bytes));
}

namespace {

// The path of the mapped file that contains `address`, from /proc/self/maps.
std::optional<std::string> mapped_file_of(const void* address) {
  std::ifstream maps("/proc/self/maps");
  const auto a = reinterpret_cast<uintptr_t>(address);
  std::string line;
  while (std::getline(maps, line)) {
    uintptr_t from = 0, to = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &from, &to) != 2 || a < from || a >= to)
      continue;
    const auto slash = line.find('/');
    if (slash == std::string::npos)
      return std::nullopt;
    return line.substr(slash);
  }
  return std::nullopt;
}

} // namespace

const std::string& tool_digest() {
  static const std::string digest = [] {
    const auto file = mapped_file_of(reinterpret_cast<const void*>(&tool_digest));
    return file_digest(file.value_or("/proc/self/exe")).value_or("unknown");
  }();
  return digest;
}

} // namespace volta::driver
