// The console lines of a located difference (Counterexample::location): the store of each
// kernel and the point where the two computations part, CUDA lines first.
#pragma once

#include <string>
#include <vector>

#include "engine/counterexample.hpp"

namespace volta::report {

// "k.cu:12 (PTX line 40)", or "PTX line 40" without .loc.
std::string point_text(const SourcePoint& p);

// Two or three lines, without indentation or a newline.
std::vector<std::string> difference_lines(const DifferenceLocation& d);

} // namespace volta::report
