// Text from a manifest (entry names) as it may go to a terminal: control characters would move
// the cursor, clear the screen or recolor what follows, and a newline would split a result line
// or a row of the summary table. The machine-readable reports keep names verbatim (JSON and XML
// escape them their own way).
#pragma once

#include <string>
#include <string_view>

namespace volta::report {

// `text` with every C0 control (U+0000..U+001F), DEL and C1 control (U+0080..U+009F, as UTF-8)
// written as an escape: \n, \t, \r, \x1b for the others below U+0080, \u0085 for the C1 range;
// invalid UTF-8 bytes become \xHH. Everything else, backslashes included, is kept as it is.
std::string printable(std::string_view text);

} // namespace volta::report
