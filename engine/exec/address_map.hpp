// Where each state space lives in the engine's flat 64-bit address space. Global arrays sit at
// the bases the launch configuration gives; the other spaces get windows far above them, so that
// a generic address tells its space. Shared and local variables are separated by red zones, so
// that running one element past an array is an out-of-bounds access, not a silent access to the
// neighbouring variable.
#pragma once

#include <cstdint>

namespace volta::exec {

inline constexpr uint64_t kGlobalVarWindow = 0x0000'7B00'0000'0000ull; // module .global vars
inline constexpr uint64_t kConstWindow = 0x0000'7C00'0000'0000ull;
inline constexpr uint64_t kLocalWindow = 0x0000'7D00'0000'0000ull;
inline constexpr uint64_t kSharedWindow = 0x0000'7E00'0000'0000ull;
inline constexpr uint64_t kWindowSize = 0x0000'0100'0000'0000ull;
inline constexpr uint64_t kRedZone = 256;

inline bool in_window(uint64_t generic, uint64_t window) {
  return generic >= window && generic - window < kWindowSize;
}

} // namespace volta::exec
