// The runner of one manifest entry as `volta-eg prove` runs it: race_check entries through the
// safety check, equivalence entries through the pair prover with the Z3 fallback, the term
// budget and the emulator's counterexample run installed. The CLI and the Python module both
// build their runner here, so that an entry proves the same way (and reads and fills the same
// caches) whichever way it was started.
#pragma once

#include <cstdint>
#include <string>

#include "engine/driver/batch.hpp"
#include "engine/driver/entry_cache.hpp"
#include "engine/driver/kernel_cache.hpp"
#include "engine/driver/safety_check.hpp"
#include "engine/prove/pair_prover.hpp"

namespace volta::session {

// The Z3 fallback of the prover (`--z3-timeout`, `--no-z3`, `--max-terms`, `--max-memory`).
struct Z3Settings {
  bool enabled = true;
  unsigned timeout_ms = 10'000; // per query; 0: none
  uint64_t max_terms = 0;       // 0: the prover's default term budget
  double max_memory_gib = 0;    // per query child process; 0: none
};

// `prove_options` holds everything but the per-entry cancel flag and the fallback (its rules,
// caches, guards); `kernels` must outlive the runner. With `entries` (the entry cache of
// `--cache DIR`, which must outlive the runner too), an entry is first looked up there under a
// key of its kernels and of every option here that a result depends on; `rules_identity`
// names the rule library in that key (the rule files' digests; empty: the shipped library).
driver::EntryRunner make_entry_runner(const prove::ProveOptions& prove_options,
                                      const Z3Settings& z3, driver::KernelCache& kernels,
                                      driver::EntryCache* entries = nullptr,
                                      const std::string& rules_identity = "");

} // namespace volta::session
