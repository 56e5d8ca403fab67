// Process memory for `--max-memory`: measuring it, giving freed memory back to the system
// between entries, and an address-space limit (setrlimit RLIMIT_AS) as the last safety net, so
// that a runaway entry meets std::bad_alloc (caught per entry) instead of the kernel's OOM
// killer ending the whole batch. What is and is not guaranteed is in docs/cli.md.
#pragma once

#include <cstdint>
#include <string>

namespace volta::batch {

// Resident set size and virtual size of this process, in bytes (0 when unknown).
uint64_t resident_bytes();
uint64_t virtual_bytes();

// Returns the allocator's free memory to the system (malloc_trim), so that the resident size
// seen by the watchdog after an entry is what the process still uses.
void release_free_memory();

// Caps the address space at the current virtual size + `budget_bytes` + headroom for thread
// stacks and allocator arenas. Returns an empty string, or why no limit was installed (e.g. a
// sanitizer build, which reserves terabytes of address space).
std::string install_address_space_limit(uint64_t budget_bytes);

// False in sanitizer builds, where limiting the address space breaks the sanitizer.
bool address_space_limits_work();

} // namespace volta::batch
