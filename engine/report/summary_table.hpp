// The table a batch ends with, made from its JSON report (so that `merge` prints the same):
// one row per entry (entry, verdict, expected, match, seconds) in manifest order, then the
// totals.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

namespace volta::report {

void print_summary_table(std::ostream& out, const nlohmann::json& report, bool color);

} // namespace volta::report
