// The proof cache's interface: the templates proved EQUIVALENT by earlier runs, keyed by
// template_key() (prove/templates.hpp). `--cache DIR` implements it on disk
// (batch/proof_cache_dir.hpp).
#pragma once

#include <mutex>
#include <string>
#include <unordered_set>

namespace volta::prove {

// A hit proves every element of the template without work. Implementations must be
// thread-safe and must never report a key they cannot vouch for (a damaged entry is a miss).
class ProofCache {
public:
  virtual ~ProofCache() = default;
  virtual bool contains(const std::string& key) = 0;
  virtual void insert(const std::string& key) = 0;
};

// The templates proved in this process, in memory: a streamed entry (entry/streamed_entry.hpp)
// proves a template in its first group and finds it proved in the next ones.
class MemoryProofCache : public ProofCache {
public:
  bool contains(const std::string& key) override {
    std::lock_guard lock(mutex_);
    return keys_.count(key) != 0;
  }
  void insert(const std::string& key) override {
    std::lock_guard lock(mutex_);
    keys_.insert(key);
  }

private:
  std::mutex mutex_;
  std::unordered_set<std::string> keys_;
};

} // namespace volta::prove
