// How one finished entry reads on the terminal: its verdict, name and time on one line, then
// (when the verdict is not a plain pass) the detail, the CUDA source lines of a safety failure,
// and the inputs of a counterexample, indented below it.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "engine/entry/entry_result.hpp"

namespace volta::report {

struct LineStyle {
  bool color = false;    // ANSI colors (terminals)
  size_t name_width = 0; // pad names to this width so that times line up
};

void print_result_line(std::ostream& out, const entry::EntryResult& r, const LineStyle& style);

// ANSI helpers shared by the terminal views.
const char* verdict_color(bool matches, Verdict v);
inline constexpr const char* kReset = "\033[0m";
inline constexpr const char* kDim = "\033[2m";
inline constexpr const char* kBold = "\033[1m";
inline constexpr const char* kRed = "\033[31m";

} // namespace volta::report
