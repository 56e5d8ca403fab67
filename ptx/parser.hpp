// Parses PTX text into a Module. Never throws on bad input and never aborts: every problem is a
// located Diagnostic (`file:line:col: error: ...`), and the module is absent when any error was
// found.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/ast.hpp"
#include "ptx/diagnostic.hpp"

namespace volta::ptx {

struct ParseResult {
  std::optional<Module> module;
  std::vector<Diagnostic> diagnostics; // errors first-to-last; warnings too
  bool ok() const { return module.has_value(); }
};

// `path` is only used to label diagnostics and Module::path.
ParseResult parse(std::string_view text, std::string path);

// Reads and parses a file; an unreadable file is an error diagnostic at 0:0.
ParseResult parse_file(const std::string& path);

} // namespace volta::ptx
