// The float story of an EQUIVALENT in words (issue 35, docs/semantics.md "Float divergence"):
// how far apart the two kernels' stores are on the emulator cross-check, a warning where one
// kernel loses precision beyond rounding, and the float tolerance's status. Made from the
// report's `cross_check` object, so that the console, JUnit and SARIF (also of merged reports)
// say the same.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace volta::report {

// An array's divergence is shown on the console beside its EQUIVALENT once some element is
// more than this many units in the last place apart: a reassociated sum of a few terms stays
// within it, anything more is worth seeing.
inline constexpr uint64_t kShownUlps = 4;

// The name of cross-check input set `set` ("specials", "moderate", "wide"; "set N" past them):
// emulate::edge_input_name's words, which this layer cannot call (the emulator's library is
// not linked into the engine's); tests/emulate/output_comparison_test.cpp checks they agree.
std::string cross_check_input_name(uint32_t set);

// The lines (no indentation, no newline) for a report's `cross_check` object: per real array
// beyond kShownUlps its figure ("float divergence on the emulator: y up to 8388608 ulp apart
// (max abs 0.5, rel 1 at y[3] on input 'moderate'; 1 of the array's largest magnitude)"), a
// warning per array apart beyond rounding, and the tolerance when it failed or was not measured.
// Empty for a null object or one where nothing is worth saying.
std::vector<std::string> float_error_lines(const nlohmann::json& cross_check);

// The rounding bounds of a report's `output_types` array (entry/rounding_bounds.hpp), one line
// per array that has one: "rounding bound over the input ranges: y: the kernels' stores at most
// 2.38e-07 apart (reference 1.19e-07, optimized 1.19e-07; 64 of 64 elements)", with the first
// element left without a bound and why.
std::vector<std::string> rounding_bound_lines(const nlohmann::json& output_types);

// The tolerance's failure in one line ("" when within it or without one): "beyond the float
// tolerance rel=0.001, abs=1e-05: 12 elements of y, e.g. y[3] on input 'moderate': ...".
std::string float_tolerance_failure(const nlohmann::json& cross_check);

} // namespace volta::report
