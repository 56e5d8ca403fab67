// Located diagnostics in the style of clang and LLVM:
//
//   kernels/bad.ptx:12:9: error: unknown register '%r99'
//       add.s32 %r1, %r99, 4;
//                    ^
//
// Used by the PTX parser and by every later stage that points back at a PTX line (the engine's
// UNSUPPORTED and lowering errors) or at a manifest.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ptx/source_location.hpp"

namespace volta::ptx {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;     // path as the user gave it
  SourceLocation where; // 0:0 when the message is about the whole file
  std::string message;
  std::string source_line; // the offending line without its newline; empty if unknown
  // The column of `where.line` at which `source_line` starts: 1 unless a very long line was cut
  // to a window around the column (render() then prefixes "..." and keeps the caret aligned).
  uint32_t source_line_start_column = 1;

  // "file:line:col: error: message" followed, when source_line is known, by the line and a
  // caret under the column; each line ends with a newline.
  std::string render() const;
  // render() without its final newline, for a report's detail or a message inside others.
  std::string text() const;
  // Only the first line: "file:line:col: error: message", or for a diagnostic about a whole
  // file (line 0) "file: error: message" ("error: message" without a file).
  std::string headline() const;
};

// Extracts line `line` (1-based) of `text` without its terminator; empty when out of range.
std::string_view line_of(std::string_view text, uint32_t line);

// Renders every diagnostic, one after the other.
std::string render_all(const std::vector<Diagnostic>& diagnostics);

} // namespace volta::ptx
