#include "engine/batch/proof_cache_dir.hpp"

#include <fmt/format.h>
#include <fstream>
#include <ostream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "engine/batch/atomic_file.hpp"
#include "engine/content_hash.hpp"

namespace volta::batch {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMagic = "volta-eg proof-cache 2";

std::string body_of(const std::string& key) {
  return fmt::format("{}\nkey {}\nverdict EQUIVALENT\n", kMagic, key);
}

} // namespace

bool valid_cache_key(const std::string& key) {
  if (key.size() != 32)
    return false;
  for (char c : key) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
      return false;
  }
  return true;
}

std::string DirectoryProofCache::file_key(const std::string& key) const {
  return cache_key(
      fmt::format("{}\ntool {}\nrules {}\ntemplate {}\n", kMagic, tool_digest(), rule_set_, key));
}

std::string DirectoryProofCache::file_text(const std::string& key) const {
  const std::string body = body_of(file_key(key));
  return body + "checksum " + hex64(fnv1a64(body)) + "\n";
}

Expected<std::unique_ptr<DirectoryProofCache>>
DirectoryProofCache::open(const std::string& dir, DiagnosticReporter* warnings) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    return Unexpected{fmt::format("--cache: cannot create the folder '{}': {}", dir,
                                  ec ? ec.message() : "not a folder")};
  }
  if (access(dir.c_str(), W_OK | X_OK) != 0) {
    return Unexpected{fmt::format("--cache: the folder '{}' is not writable", dir)};
  }
  return std::unique_ptr<DirectoryProofCache>(new DirectoryProofCache(fs::path(dir), warnings));
}

fs::path DirectoryProofCache::path_of(const std::string& key) const {
  const std::string name = file_key(key);
  return dir_ / name.substr(0, 2) / name;
}

void DirectoryProofCache::warn(const std::string& path, const std::string& line) {
  std::lock_guard guard(mutex_);
  if (!warned_.insert(path).second)
    return; // one warning per file
  ++ignored_;
  if (warnings_)
    warnings_->warning(line);
}

bool DirectoryProofCache::contains(const std::string& key) {
  if (!valid_cache_key(key)) {
    ++misses_;
    return false;
  }
  const std::string name = file_key(key);
  {
    std::lock_guard guard(mutex_);
    if (known_.count(name)) {
      ++hits_;
      return true;
    }
  }
  const fs::path path = path_of(key);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ++misses_;
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str() != file_text(key)) {
    warn(path.string(),
         fmt::format("ignoring damaged proof-cache file '{}' (its content or checksum is "
                     "wrong); the template is proved again",
                     path.string()));
    ++misses_;
    return false;
  }
  std::lock_guard guard(mutex_);
  known_.insert(name);
  ++hits_;
  return true;
}

void DirectoryProofCache::insert(const std::string& key) {
  if (!valid_cache_key(key))
    return;
  {
    std::lock_guard guard(mutex_);
    if (!known_.insert(file_key(key)).second)
      return;
  }
  const fs::path path = path_of(key);
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (!write_file_atomically(path.string(), file_text(key))) {
    warn(path.string(), fmt::format("cannot write the proof-cache file '{}'", path.string()));
    return;
  }
  ++stored_;
}

} // namespace volta::batch
