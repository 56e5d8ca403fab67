// The proof cache's interface: the templates proved EQUIVALENT by earlier runs, keyed by
// template_key() (prove/templates.hpp). `--cache DIR` implements it on disk
// (batch/proof_cache_dir.hpp).
#pragma once

#include <string>

namespace volta::prove {

// A hit proves every element of the template without work. Implementations must be
// thread-safe and must never report a key they cannot vouch for (a damaged entry is a miss).
class ProofCache {
public:
  virtual ~ProofCache() = default;
  virtual bool contains(const std::string& key) = 0;
  virtual void insert(const std::string& key) = 0;
};

} // namespace volta::prove
