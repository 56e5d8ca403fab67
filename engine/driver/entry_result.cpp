#include "engine/driver/entry_result.hpp"

#include <fmt/format.h>

namespace volta::driver {

std::string decided_breakdown(const ElementCounts& e) {
  std::string how;
  for (const auto& [n, way] : {std::pair{e.direct, "by canonical forms"},
                               {e.reused, "by template reuse"},
                               {e.rules, "by the rule library"},
                               {e.z3, "by Z3"},
                               {e.cached, "from the proof cache"},
                               {e.not_equivalent, "found to differ"}}) {
    if (n > 0)
      how += fmt::format("{}{} {}", how.empty() ? "" : ", ", n, way);
  }
  return how;
}

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

} // namespace volta::driver
