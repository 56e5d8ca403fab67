#include "engine/prove/element_counts.hpp"

#include <fmt/format.h>
#include <utility>

namespace volta::prove {

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

} // namespace volta::prove
