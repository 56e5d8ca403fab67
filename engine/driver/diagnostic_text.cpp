#include "engine/driver/diagnostic_text.hpp"

#include <fmt/format.h>

namespace volta::driver {

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
  return "error";
}

} // namespace

std::string diagnostic_headline(const ptx::Diagnostic& d) {
  if (d.where.line != 0)
    return d.headline();
  if (d.file.empty())
    return fmt::format("{}: {}", severity_word(d.severity), d.message);
  return fmt::format("{}: {}: {}", d.file, severity_word(d.severity), d.message);
}

std::string diagnostic_text(const ptx::Diagnostic& d) {
  if (d.where.line != 0) {
    std::string text = d.render();
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    return text;
  }
  return diagnostic_headline(d);
}

} // namespace volta::driver
