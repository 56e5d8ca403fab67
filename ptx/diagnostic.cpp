// Rendering of located diagnostics (see diagnostic.hpp).
#include "ptx/diagnostic.hpp"

#include <fmt/format.h>

namespace volta::ptx {

namespace {

const char* severity_name(Severity s) {
  switch (s) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

// Control bytes (NUL, escape sequences of a hostile file) would garble the terminal: they are
// shown as spaces. Tabs stay so that the caret line can reproduce them and stay aligned.
char printable(char c) {
  auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t') || u == 0x7f ? ' ' : c;
}

} // namespace

std::string Diagnostic::headline() const {
  if (where.line != 0)
    return fmt::format("{}:{}:{}: {}: {}", file, where.line, where.column, severity_name(severity),
                       message);
  if (file.empty())
    return fmt::format("{}: {}", severity_name(severity), message);
  return fmt::format("{}: {}: {}", file, severity_name(severity), message);
}

std::string Diagnostic::text() const {
  std::string out = render();
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

std::string Diagnostic::render() const {
  std::string out = headline();
  out += '\n';
  if (source_line.empty() || where.line == 0) {
    return out;
  }
  const bool cut = source_line_start_column > 1;
  if (cut) {
    out += "...";
  }
  for (char c : source_line) {
    out += printable(c);
  }
  out += '\n';
  if (where.column == 0) {
    return out;
  }
  if (cut) {
    out += "   ";
  }
  // The caret sits under byte `column`; tabs before it are copied so that it lines up however
  // the terminal expands them.
  uint64_t caret = where.column >= source_line_start_column
                       ? uint64_t{where.column} - source_line_start_column
                       : 0;
  for (uint64_t i = 0; i < caret && i < source_line.size(); ++i) {
    out += source_line[i] == '\t' ? '\t' : ' ';
  }
  for (uint64_t i = source_line.size(); i < caret; ++i) {
    out += ' ';
  }
  out += "^\n";
  return out;
}

std::string_view line_of(std::string_view text, uint32_t line) {
  if (line == 0) {
    return {};
  }
  size_t start = 0;
  for (uint32_t current = 1; current < line; ++current) {
    size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) {
      return {};
    }
    start = newline + 1;
  }
  if (start > text.size()) {
    return {};
  }
  size_t end = text.find('\n', start);
  if (end == std::string_view::npos) {
    end = text.size();
  }
  if (end > start && text[end - 1] == '\r') {
    --end;
  }
  return text.substr(start, end - start);
}

std::string render_all(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    out += d.render();
  }
  return out;
}

} // namespace volta::ptx
