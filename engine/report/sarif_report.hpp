// The SARIF 2.1.0 view of a report (`--sarif FILE.sarif`), for code-scanning views: one rule
// per kind of finding (data-race, out-of-bounds, deadlock, barrier-divergence, uninitialized,
// unsupported, not-equivalent) and one result per entry with such a verdict. A result is
// located at the CUDA source line when the PTX has `.loc` information, else at the PTX line;
// a race's second access is a relatedLocation, and so are the PTX lines behind CUDA ones. A
// NOT_EQUIVALENT result points at the optimized kernel's `.entry` line. Findings the manifest
// expects (a racy kernel kept as a test) carry an external suppression, so that code-scanning
// views list them as suppressed rather than as new alerts. An EQUIVALENT's float story (issue 35)
// has two rules of its own: `float-tolerance` (an error: beyond the entry's float tolerance) and
// `float-precision-loss` (a warning: stores apart beyond rounding, e.g. a cancellation).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace volta::report {

nlohmann::json sarif_log(const nlohmann::json& report);

// The SARIF rule id of a verdict word, if that verdict is a finding.
std::optional<std::string> sarif_rule_id(const std::string& verdict);

// A path as a URI reference: relative paths stay relative (percent-encoded), absolute ones
// become file:// URIs.
std::string path_to_uri(const std::string& path);

} // namespace volta::report
