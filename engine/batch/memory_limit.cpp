#include "engine/batch/memory_limit.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <malloc.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define VOLTA_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define VOLTA_SANITIZED 1
#endif
#endif

namespace volta::batch {

namespace {

// Field `index` (0: total program size, 1: resident) of /proc/self/statm, in bytes.
uint64_t statm_field(int index) {
  std::ifstream in("/proc/self/statm");
  uint64_t values[2] = {0, 0};
  if (!(in >> values[0] >> values[1]))
    return 0;
  return values[index] * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

} // namespace

uint64_t resident_bytes() {
  return statm_field(1);
}
uint64_t virtual_bytes() {
  return statm_field(0);
}

void release_free_memory() {
#ifdef VOLTA_SANITIZED
  // A sanitizer replaces malloc, so glibc's arenas may never have been initialized: malloc_trim
  // would then walk a null arena (seen as a SEGV in mtrim under ASan). The sanitizer's allocator
  // returns memory by itself.
#else
  malloc_trim(0);
#endif
}

std::string install_address_space_limit(uint64_t budget_bytes) {
#ifdef VOLTA_SANITIZED
  (void)budget_bytes;
  return "built with a sanitizer (which reserves most of the address space): no address-space "
         "limit, the resident-memory watchdog alone enforces --max-memory";
#else
  // Every thread the batch may start reserves a stack (8 MiB) and may get a malloc arena (64 MiB
  // of address space, mostly never touched): allow for them, plus 1 GiB for the rest.
  const uint64_t threads = std::max(4u, std::thread::hardware_concurrency()) + 8;
  const uint64_t headroom = (1ull << 30) + threads * (80ull << 20);
  const uint64_t limit = virtual_bytes() + budget_bytes + headroom;
  rlimit current{};
  if (getrlimit(RLIMIT_AS, &current) != 0)
    return fmt::format("getrlimit failed: {}", std::strerror(errno));
  if (current.rlim_cur != RLIM_INFINITY && current.rlim_cur <= limit)
    return ""; // already tighter
  rlimit wanted = current;
  wanted.rlim_cur = limit;
  if (current.rlim_max != RLIM_INFINITY && wanted.rlim_cur > current.rlim_max)
    wanted.rlim_cur = current.rlim_max;
  if (setrlimit(RLIMIT_AS, &wanted) != 0)
    return fmt::format("setrlimit(RLIMIT_AS) failed: {}", std::strerror(errno));
  return "";
#endif
}

bool address_space_limits_work() {
#ifdef VOLTA_SANITIZED
  return false;
#else
  return true;
#endif
}

} // namespace volta::batch
