// One folder of a cache under `--cache DIR` (DIR/runs, DIR/entries): files named by 32-hex-digit
// keys, DIR/<kind>/<first 2 digits>/<key>, each a header line with the format, the key, a
// binary body and a 64-bit checksum of everything before it. A file whose header, key or
// checksum is wrong is a miss with one warning (and is written again by the next store);
// files are written atomically. Counts hits, misses, stores and ignored files. Thread-safe.
#pragma once

#include <atomic>
#include <filesystem>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

#include "engine/diagnostic_reporter.hpp"

namespace volta::batch {

class CacheFolder {
public:
  // `what` names the cache in warnings ("execution-cache"); `redo` says what happens on a miss.
  CacheFolder(std::filesystem::path dir, std::string magic, std::string what, std::string redo,
              DiagnosticReporter* warnings)
      : dir_(std::move(dir)), magic_(std::move(magic)), what_(std::move(what)),
        redo_(std::move(redo)), warnings_(warnings) {}

  // Creates the folder; an error message when it cannot be used.
  std::optional<std::string> create() const;

  // The checked body of the file of `key`; nullopt (a miss) when absent or damaged.
  std::optional<std::string> read(const std::string& key);
  // A body read() returned could not be decoded: counted as damaged, with a warning.
  void reject(const std::string& key, const std::string& why);
  void hit() { ++hits_; }
  void write(const std::string& key, const std::string& body);

  std::filesystem::path path_of(const std::string& key) const;
  // The bytes of the file of `key` with `body` (exposed for tests).
  std::string file_bytes(const std::string& key, const std::string& body) const;

  uint64_t hits() const { return hits_.load(); }
  uint64_t misses() const { return misses_.load(); }
  uint64_t stored() const { return stored_.load(); }
  uint64_t ignored() const { return ignored_.load(); }

private:
  std::string header(const std::string& key) const;
  void warn(const std::string& line);

  std::filesystem::path dir_;
  std::string magic_, what_, redo_;
  DiagnosticReporter* warnings_;
  std::mutex mutex_;
  std::unordered_set<std::string> warned_;
  std::atomic<uint64_t> hits_{0}, misses_{0}, stored_{0}, ignored_{0};
};

} // namespace volta::batch
