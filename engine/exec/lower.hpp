// Lowers one kernel of a parsed PTX module into an executable Program: registers numbered,
// labels resolved, variables laid out in their state spaces, every instruction decoded.
// Problems (unknown register, undefined label, unknown kernel) are located diagnostics.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/exec/program.hpp"
#include "ptx/ast.hpp"
#include "ptx/diagnostic.hpp"

namespace volta::exec {

struct LowerResult {
  std::optional<Program> program;
  std::vector<ptx::Diagnostic> diagnostics;
};

// `source_text` (optional) lets diagnostics show the offending line.
LowerResult lower(const ptx::Module& module, const std::string& entry,
                  std::string_view source_text = {});

} // namespace volta::exec
