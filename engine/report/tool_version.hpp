// The version volta-eg reports (--version, reports, SARIF tool.driver.version).
#pragma once

namespace volta::report {

inline constexpr const char* kToolName = "volta-eg";
inline constexpr const char* kToolVersion = "0.1.0";

} // namespace volta::report
