// Asserts that state invariants, for every layer (ptx/, egraph/, rules/, engine/ may include it;
// it includes nothing of the project).
//
//   VOLTA_ASSERT(cond, "message")  checked builds: aborts with file:line, the condition and the
//                                  message when `cond` is false. Other builds: neither evaluates
//                                  `cond` nor costs anything (it must have no side effect).
//   VOLTA_UNREACHABLE("message")   every build: aborts with the message. For a value outside an
//                                  enum and other states the code rules out: an internal error
//                                  is better than a wrong verdict, so it never degrades to
//                                  __builtin_unreachable().
//
// Checked builds: Debug (NDEBUG not defined) and any build with VOLTA_CHECK_INVARIANTS defined
// (the asan and fuzz presets set the CMake option of that name: their RelWithDebInfo defines
// NDEBUG). kCheckInvariants says the same to code that guards a costlier check with `if`.
#pragma once

#include <cstdio>
#include <cstdlib>

#if !defined(NDEBUG) && !defined(VOLTA_CHECK_INVARIANTS)
#define VOLTA_CHECK_INVARIANTS 1
#endif

namespace volta::support {

#ifdef VOLTA_CHECK_INVARIANTS
inline constexpr bool kCheckInvariants = true;
#else
inline constexpr bool kCheckInvariants = false;
#endif

[[noreturn]] inline void invariant_failed(const char* file, int line, const char* condition,
                                          const char* message) {
  std::fprintf(stderr, "%s:%d: internal error: invariant violated: %s (%s)\n", file, line, message,
               condition);
  std::fflush(stderr);
  std::abort();
}

[[noreturn]] inline void unreachable_reached(const char* file, int line, const char* message) {
  std::fprintf(stderr, "%s:%d: internal error: unreachable: %s\n", file, line, message);
  std::fflush(stderr);
  std::abort();
}

} // namespace volta::support

#ifdef VOLTA_CHECK_INVARIANTS
#define VOLTA_ASSERT(cond, msg)                                                                    \
  ((cond) ? static_cast<void>(0)                                                                   \
          : ::volta::support::invariant_failed(__FILE__, __LINE__, #cond, msg))
#else
// sizeof keeps `cond` type-checked (and its variables used) without evaluating it.
#define VOLTA_ASSERT(cond, msg) static_cast<void>(sizeof(!(cond)))
#endif

#define VOLTA_UNREACHABLE(msg) ::volta::support::unreachable_reached(__FILE__, __LINE__, msg)
