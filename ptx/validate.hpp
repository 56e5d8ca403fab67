// Checks every instruction of a parsed module against the PTX instruction table
// (instruction_set.hpp): type suffixes, modifiers, state spaces, vector widths, operand counts,
// operand kinds and register types. What ptxas rejects is an error located at the offending
// suffix or operand. parse() runs it after a clean parse; a module with a validation error is
// not returned.
#pragma once

#include <string_view>
#include <vector>

#include "ptx/ast.hpp"
#include "ptx/diagnostic.hpp"

namespace volta::ptx {

// Appends one error per rejected instruction to `out` (at most `max_errors` of them); `text` is
// the module's source, for the line shown under each diagnostic.
void validate(const Module& module, std::string_view text, std::vector<Diagnostic>& out,
              size_t max_errors);

} // namespace volta::ptx
