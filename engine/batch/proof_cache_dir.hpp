// `--cache DIR`: the proof cache (prove::ProofCache) as a folder with one small file per proved
// template. A proof holds only for the prover that found it and the rules it could use, so the
// file's name is not the template's key alone but a hash of the key, the volta-eg build
// (tool_digest(): the prover's code and the shipped rule library embedded in it) and the rule
// set in effect (set_rule_set: "shipped", "none" for --no-rules, or a digest of every rule
// file's text, shipped and user): a template proved with a user rule is never found by a run
// without that rule, nor by another build. The file is DIR/<first 2 hex digits>/<file key>:
//
//   volta-eg proof-cache 2
//   key <32 hex digits: the file key>
//   verdict EQUIVALENT
//   checksum <16 hex digits: FNV-1a 64 of the lines above>
//
// A file is trusted only when every line is exactly as above, its key is its name and its
// checksum matches; anything else (truncated, garbled, from another format version) is a miss
// with one warning on stderr, and the next proof of that template rewrites it. Files are
// written to a temporary name and renamed into place, so that readers (threads of this process
// or other processes sharing DIR, e.g. shards) see a whole file or none. Thread-safe.
#pragma once

#include <atomic>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

#include "engine/diagnostic_reporter.hpp"
#include "engine/expected.hpp"
#include "engine/prove/proof_cache.hpp"

namespace volta::batch {

class DirectoryProofCache : public prove::ProofCache {
public:
  // Creates DIR when needed. `warnings` receives one line per ignored file (may be null).
  static Expected<std::unique_ptr<DirectoryProofCache>> open(const std::string& dir,
                                                             DiagnosticReporter* warnings);

  // The rule set the proofs of this run may use (default "shipped"); set before any lookup.
  void set_rule_set(std::string identity) { rule_set_ = std::move(identity); }
  const std::string& rule_set() const { return rule_set_; }

  bool contains(const std::string& key) override;
  void insert(const std::string& key) override;

  uint64_t hits() const { return hits_.load(); }
  uint64_t misses() const { return misses_.load(); }
  uint64_t stored() const { return stored_.load(); }
  uint64_t ignored() const { return ignored_.load(); } // damaged or unwritable files

  // The file key of a template key under this build and rule set, the text of its file and its
  // path (exposed for tests).
  std::string file_key(const std::string& key) const;
  std::string file_text(const std::string& key) const;
  std::filesystem::path path_of(const std::string& key) const;

private:
  DirectoryProofCache(std::filesystem::path dir, DiagnosticReporter* warnings)
      : dir_(std::move(dir)), warnings_(warnings) {}
  void warn(const std::string& path, const std::string& line);

  std::filesystem::path dir_;
  DiagnosticReporter* warnings_;
  std::string rule_set_ = "shipped";
  std::mutex mutex_;                       // known_ and warnings_
  std::unordered_set<std::string> known_;  // file keys verified or written by this process
  std::unordered_set<std::string> warned_; // damaged files already reported
  std::atomic<uint64_t> hits_{0}, misses_{0}, stored_{0}, ignored_{0};
};

// A key is 32 lower-case hex digits (prove::template_key); anything else is refused, so that a
// key can never name a path outside DIR.
bool valid_cache_key(const std::string& key);

} // namespace volta::batch
