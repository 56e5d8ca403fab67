// The one reporter of the tool's own messages (LLVM's DiagnosticsEngine in small): every error,
// warning and note the CLI prints goes through it, in one of two clang-style forms:
//
//   k.ptx:8:8: error: unknown type '.s33'          a located problem (ptx::Diagnostic), with
//       mad.lo.s33 %r1, %r2, %r3, %r4;             its source line and a caret when known
//          ^
//   volta-eg prove: error: --shard: expected I/N   a problem of the command line or the run
//
// "error", "warning" and "note" are coloured (bold red, magenta, cyan) when the stream is a
// terminal and NO_COLOR is unset, as clang does. A message that is already a located
// diagnostic's text (a report detail that carries `file:line:col: error: ...`) is printed as it
// is, never behind a second prefix.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>

#include "ptx/diagnostic.hpp"

namespace volta {

class DiagnosticReporter {
public:
  DiagnosticReporter(const DiagnosticReporter&) = delete;
  DiagnosticReporter& operator=(const DiagnosticReporter&) = delete;
  // `program`: the prefix of unlocated messages ("volta-eg", "volta-eg prove").
  DiagnosticReporter(std::ostream& out, bool color, std::string program = "volta-eg");

  // The reporter of the process: standard error, coloured when it is a terminal (and NO_COLOR
  // is unset).
  static DiagnosticReporter& standard();
  // The command now running ("prove"): unlocated messages then read "volta-eg prove: error:".
  void set_command(std::string_view command);

  void error(std::string_view message) { report(ptx::Severity::Error, message); }
  void warning(std::string_view message) { report(ptx::Severity::Warning, message); }
  void note(std::string_view message) { report(ptx::Severity::Note, message); }
  void report(ptx::Severity severity, std::string_view message);
  // A located problem: its headline, its source line and the caret.
  void report(const ptx::Diagnostic& located);
  // A problem of a whole file: "file: error: message".
  void error_in(std::string_view file, std::string_view message) {
    report(ptx::Severity::Error, file, {}, message);
  }
  void warning_in(std::string_view file, std::string_view message) {
    report(ptx::Severity::Warning, file, {}, message);
  }
  // A problem at a place of a file: "file:line:col: error: message" (without the source line).
  void report(ptx::Severity severity, std::string_view file, ptx::SourceLocation where,
              std::string_view message);
  // An error of volta-eg itself (a bug): "volta-eg: internal error: message".
  void internal_error(std::string_view message);
  // What the tool says of its own run, neither a problem nor a note on one ("volta-eg:
  // interrupted by SIGINT: ...").
  void status(std::string_view message);

  size_t errors() const { return errors_; }
  size_t warnings() const { return warnings_; }

private:
  // Workers of a batch warn concurrently (a damaged cache file): one message at a time.
  std::mutex mutex_;
  std::ostream& out_;
  bool color_;
  std::string program_;
  size_t errors_ = 0;
  size_t warnings_ = 0;
};

// Whether `text` begins as a rendered diagnostic does: "file:line:col: error: " (or
// "file: error: ", or "warning"/"note" in place of "error") before its first newline.
bool is_rendered_diagnostic(std::string_view text);

} // namespace volta
