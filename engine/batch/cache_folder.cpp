#include "engine/batch/cache_folder.hpp"

#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <ostream>
#include <system_error>
#include <unistd.h>

#include "engine/batch/atomic_file.hpp"
#include "engine/content_hash.hpp"

namespace volta::batch {

namespace fs = std::filesystem;

namespace {

std::string u64_bytes(uint64_t v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof v);
}

} // namespace

std::optional<std::string> CacheFolder::create() const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_) || access(dir_.c_str(), W_OK | X_OK) != 0)
    return fmt::format("--cache: cannot use the folder '{}': {}", dir_.string(),
                       ec ? ec.message() : "not a writable folder");
  return std::nullopt;
}

fs::path CacheFolder::path_of(const std::string& key) const {
  return dir_ / key.substr(0, 2) / key;
}

std::string CacheFolder::header(const std::string& key) const {
  return fmt::format("{}\nkey {}\n", magic_, key);
}

std::string CacheFolder::file_bytes(const std::string& key, const std::string& body) const {
  std::string bytes = header(key) + body;
  return bytes + u64_bytes(checksum64(bytes));
}

void CacheFolder::warn(const std::string& line) {
  std::lock_guard guard(mutex_);
  if (!warned_.insert(line).second)
    return;
  if (warnings_)
    warnings_->warning(line);
}

void CacheFolder::reject(const std::string& key, const std::string& why) {
  ++ignored_;
  ++misses_;
  warn(fmt::format("ignoring damaged {} file '{}' ({}); {}", what_, path_of(key).string(), why,
                   redo_));
}

std::optional<std::string> CacheFolder::read(const std::string& key) {
  const auto bytes = read_file(path_of(key).string());
  if (!bytes) {
    ++misses_;
    return std::nullopt;
  }
  const std::string head = header(key);
  if (bytes->size() < head.size() + 8 || bytes->compare(0, head.size(), head) != 0) {
    reject(key, "wrong header");
    return std::nullopt;
  }
  const size_t content = bytes->size() - 8;
  if (bytes->compare(content, 8,
                     u64_bytes(checksum64(std::string_view(*bytes).substr(0, content)))) != 0) {
    reject(key, "wrong checksum");
    return std::nullopt;
  }
  return bytes->substr(head.size(), content - head.size());
}

void CacheFolder::write(const std::string& key, const std::string& body) {
  const fs::path path = path_of(key);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (!write_file_atomically(path.string(), file_bytes(key, body))) {
    ++ignored_;
    warn(fmt::format("cannot write the {} file '{}'", what_, path.string()));
    return;
  }
  ++stored_;
}

} // namespace volta::batch
