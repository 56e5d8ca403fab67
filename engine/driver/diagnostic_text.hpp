// One-line and full renderings of a diagnostic for the tool's output. A diagnostic about a
// whole file (no line) reads "file: error: message" rather than "file:0:0: error: message".
#pragma once

#include <string>

#include "ptx/diagnostic.hpp"

namespace volta::driver {

// "file:line:col: error: message", or "file: error: message" without a position.
std::string diagnostic_headline(const ptx::Diagnostic& d);
// The headline, followed by the source line and a caret when the diagnostic has them.
std::string diagnostic_text(const ptx::Diagnostic& d);

} // namespace volta::driver
