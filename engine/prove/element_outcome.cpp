#include "engine/prove/element_outcome.hpp"

#include <fmt/format.h>

namespace volta::prove {

std::string ElementOutcome::how() const {
  if (decided_by == Decision::Cases)
    return fmt::format("cases ({} cases)", cases);
  return std::string(describe(decided_by));
}

} // namespace volta::prove
