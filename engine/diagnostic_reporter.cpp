#include "engine/diagnostic_reporter.hpp"

#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace volta {

namespace {

const char* severity_word(ptx::Severity s) {
  switch (s) {
  case ptx::Severity::Error:
    return "error";
  case ptx::Severity::Warning:
    return "warning";
  case ptx::Severity::Note:
    return "note";
  }
  std::abort(); // not a Severity
}

// clang's colours: errors bold red, warnings bold magenta, notes bold cyan.
const char* severity_color(ptx::Severity s) {
  switch (s) {
  case ptx::Severity::Error:
    return "\033[1;31m";
  case ptx::Severity::Warning:
    return "\033[1;35m";
  case ptx::Severity::Note:
    return "\033[1;36m";
  }
  std::abort(); // not a Severity
}

constexpr std::string_view kReset = "\033[0m";

bool stderr_wants_color() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0')
    return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string_view(term) == "dumb")
    return false;
  return isatty(STDERR_FILENO) != 0;
}

// The position of the severity word in a rendered headline ("k.ptx:8:8: error: ..."), or npos.
size_t severity_position(std::string_view headline) {
  for (std::string_view word : {": error: ", ": warning: ", ": note: "}) {
    const size_t at = headline.find(word);
    if (at != std::string_view::npos)
      return at + 2;
  }
  return std::string_view::npos;
}

// "...:12:7": a path (which may hold spaces) followed by a line and a column.
bool ends_with_line_and_column(std::string_view where) {
  for (int field = 0; field < 2; ++field) {
    const size_t colon = where.rfind(':');
    if (colon == std::string_view::npos || colon + 1 == where.size())
      return false;
    for (char c : where.substr(colon + 1)) {
      if (c < '0' || c > '9')
        return false;
    }
    where = where.substr(0, colon);
  }
  return !where.empty();
}

} // namespace

DiagnosticReporter::DiagnosticReporter(std::ostream& out, bool color, std::string program)
    : out_(out), color_(color), program_(std::move(program)) {}

DiagnosticReporter& DiagnosticReporter::standard() {
  static DiagnosticReporter reporter(std::cerr, stderr_wants_color());
  return reporter;
}

void DiagnosticReporter::set_command(std::string_view command) {
  std::lock_guard guard(mutex_);
  program_ = command.empty() ? "volta-eg" : "volta-eg " + std::string(command);
}

void DiagnosticReporter::report(ptx::Severity severity, std::string_view message) {
  std::lock_guard guard(mutex_);
  (severity == ptx::Severity::Error ? errors_ : warnings_) += severity != ptx::Severity::Note;
  if (is_rendered_diagnostic(message)) {
    // Already a diagnostic of its own (a located report detail): printed as it is.
    out_ << message;
    if (!message.ends_with('\n'))
      out_ << '\n';
    return;
  }
  out_ << program_ << ": ";
  if (color_)
    out_ << severity_color(severity);
  out_ << severity_word(severity) << ':';
  if (color_)
    out_ << kReset;
  out_ << ' ' << message;
  if (!message.ends_with('\n'))
    out_ << '\n';
}

void DiagnosticReporter::internal_error(std::string_view message) {
  std::lock_guard guard(mutex_);
  ++errors_;
  out_ << program_ << ": ";
  if (color_)
    out_ << severity_color(ptx::Severity::Error);
  out_ << "internal error:";
  if (color_)
    out_ << kReset;
  out_ << ' ' << message << '\n';
}

void DiagnosticReporter::report(ptx::Severity severity, std::string_view file,
                                ptx::SourceLocation where, std::string_view message) {
  ptx::Diagnostic d;
  d.severity = severity;
  d.file = std::string(file);
  d.where = where;
  d.message = std::string(message);
  report(d);
}

void DiagnosticReporter::status(std::string_view message) {
  std::lock_guard guard(mutex_);
  out_ << program_ << ": " << message << '\n';
}

void DiagnosticReporter::report(const ptx::Diagnostic& located) {
  std::lock_guard guard(mutex_);
  (located.severity == ptx::Severity::Error ? errors_ : warnings_) +=
      located.severity != ptx::Severity::Note;
  const std::string text = located.render();
  const size_t at = color_ ? severity_position(text.substr(0, text.find('\n'))) : std::string::npos;
  if (at == std::string::npos) {
    out_ << text;
    return;
  }
  const std::string_view word = severity_word(located.severity);
  out_ << text.substr(0, at) << severity_color(located.severity) << word << ':' << kReset
       << text.substr(at + word.size() + 1);
}

bool is_rendered_diagnostic(std::string_view text) {
  const std::string_view headline = text.substr(0, text.find('\n'));
  const size_t at = severity_position(headline);
  if (at == std::string_view::npos || at < 3)
    return false;
  // What comes before the severity is a location: a path, optionally ":line:col", with no
  // space in it (a sentence that happens to contain ": error: " is not a diagnostic).
  const std::string_view where = headline.substr(0, at - 2);
  if (where.starts_with("volta-eg"))
    return false;
  return where.find(' ') == std::string_view::npos || ends_with_line_and_column(where);
}

} // namespace volta
