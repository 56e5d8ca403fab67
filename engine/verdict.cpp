#include "engine/verdict.hpp"

#include <array>

namespace volta {
namespace {
constexpr std::array<std::string_view, 12> kWords = {
    "EQUIVALENT", "NOT_EQUIVALENT",     "DATA_RACE",     "RACE_FREE",   "OUT_OF_BOUNDS",
    "DEADLOCK",   "BARRIER_DIVERGENCE", "UNINITIALIZED", "UNSUPPORTED", "UNKNOWN",
    "ERROR",      "INCONSISTENT"};
} // namespace

std::string_view to_string(Verdict v) {
  return kWords[static_cast<size_t>(v)];
}

std::optional<Verdict> verdict_from(std::string_view word) {
  for (size_t i = 0; i < kWords.size(); ++i) {
    if (kWords[i] == word)
      return static_cast<Verdict>(i);
  }
  return std::nullopt;
}

} // namespace volta
