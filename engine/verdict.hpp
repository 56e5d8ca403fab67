// The verdict words of volta-eg, exactly as reports and manifests spell them.
#pragma once

#include <optional>
#include <string_view>

namespace volta {

enum class Verdict {
  Equivalent,
  NotEquivalent,
  DataRace,
  RaceFree,
  OutOfBounds,
  Deadlock,
  BarrierDivergence,
  Uninitialized,
  Unsupported,
  Unknown,
  Error,
  // The proof said EQUIVALENT and the bit-exact emulator shows otherwise on a concrete input
  // (engine/cross_check.hpp): a bug of volta-eg, never an expected verdict.
  Inconsistent,
};

std::string_view to_string(Verdict v);
std::optional<Verdict> verdict_from(std::string_view word);

// A safety verdict (anything a single kernel's execution can end with).
inline bool is_safety_failure(Verdict v) {
  return v == Verdict::DataRace || v == Verdict::OutOfBounds || v == Verdict::Deadlock ||
         v == Verdict::BarrierDivergence || v == Verdict::Uninitialized;
}

} // namespace volta
