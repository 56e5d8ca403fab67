// The runner of one manifest entry as `volta-eg prove` runs it: race_check entries through the
// race check, equivalence entries through the equivalence entry with the Z3 fallback, the term
// budget and the emulator's counterexample run installed. The CLI and the Python module both
// build their runner here, so that an entry proves the same way (and reads and fills the same
// caches) whichever way it was started.
#pragma once

#include <cstdint>
#include <string>

#include "engine/batch/batch.hpp"
#include "engine/batch/entry_cache.hpp"
#include "engine/entry/equivalence_entry.hpp"
#include "engine/entry/race_check_entry.hpp"
#include "engine/exec/kernel_cache.hpp"

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
batch::EntryRunner make_entry_runner(const entry::ProveOptions& prove_options, const Z3Settings& z3,
                                     exec::KernelCache& kernels,
                                     batch::EntryCache* entries = nullptr,
                                     const std::string& rules_identity = "");

} // namespace volta::session
