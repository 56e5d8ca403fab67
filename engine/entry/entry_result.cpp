#include "engine/entry/entry_result.hpp"

#include <fmt/format.h>

#include "engine/exit_status.hpp"

namespace volta::entry {

std::string_view guard_name(Guard g) {
  switch (g) {
  case Guard::None:
    return "";
  case Guard::TimeLimit:
    return "time limit";
  case Guard::MemoryLimit:
    return "memory limit";
  case Guard::InstructionBudget:
    return "instruction budget";
  case Guard::TermBudget:
    return "term budget";
  case Guard::ENodeBudget:
    return "e-node budget";
  case Guard::SaturationTimeLimit:
    return "saturation time limit";
  case Guard::Interrupted:
    return "interrupted";
  }
  return "";
}

std::optional<Guard> guard_from(std::string_view name) {
  for (Guard g : kAllGuards) {
    if (guard_name(g) == name)
      return g;
  }
  return std::nullopt;
}

int exit_status(const std::vector<EntryResult>& results) {
  bool bad = false, mismatch = false, inconsistent = false;
  for (const auto& r : results) {
    bad |= r.bad_input;
    mismatch |= !r.matches();
    inconsistent |= r.verdict == Verdict::Inconsistent;
  }
  return volta::exit_status(bad, mismatch, inconsistent);
}

} // namespace volta::entry
