#include "engine/content_hash.hpp"

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace volta {

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
  // One read into a buffer of the file's size: the tool's own code (megabytes) is hashed at
  // every start, and a stream read of it costs thousands of small reads and three copies.
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    return std::nullopt;
  const std::streamoff size = in.tellg();
  if (size < 0)
    return std::nullopt;
  std::string bytes(static_cast<size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), size))
    return std::nullopt;
  return bytes;
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

uint64_t checksum64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    h = (h ^ word) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < bytes.size(); ++i)
    h = (h ^ static_cast<unsigned char>(bytes[i])) * 0x100000001b3ull;
  return h;
}

// The checksum64 of a file, read through a populated read-only mapping: the file is in the page
// cache (it is running), so this costs no copy and one system call for every page (a read into a
// fresh buffer of megabytes cost tens of milliseconds of page faults, at every start).
std::optional<uint64_t> file_word_hash(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  const auto size = static_cast<size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return checksum64({});
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED)
    return std::nullopt;
  const uint64_t h = checksum64(std::string_view(static_cast<const char*>(map), size));
  ::munmap(map, size);
  return h;
}

const std::string& tool_digest() {
  static const std::string digest = [] {
    const auto file = mapped_file_of(reinterpret_cast<const void*>(&tool_digest));
    const auto h = file_word_hash(file.value_or("/proc/self/exe"));
    return h ? "words64:" + hex64(*h) : std::string("unknown");
  }();
  return digest;
}

} // namespace volta
