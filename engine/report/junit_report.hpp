// The JUnit XML view of a report (`--junit FILE.xml`), for CI systems' test dashboards: one
// <testcase> per entry, with <properties> verdict / expected / seconds (and kind, guard, cache
// hits), a <failure> when the verdict is not the expected one (its text: the detail, the source
// locations and the counterexample), and the detail as <system-out>. Deterministic: no
// timestamps or host names, so that reports of the same run compare equal.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace volta::report {

std::string junit_xml(const nlohmann::json& report);

// Text made safe for XML 1.0 element content or (`attribute`) attribute values: escapes
// & < > " ' (and, in attributes, tab and newlines) and drops the control characters XML 1.0
// cannot carry.
std::string xml_escape(std::string_view text, bool attribute);

} // namespace volta::report
