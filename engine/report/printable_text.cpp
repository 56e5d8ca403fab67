#include "engine/report/printable_text.hpp"

#include <fmt/format.h>

namespace volta::report {

namespace {

// The length of the well-formed UTF-8 sequence at `at` (not checking for overlong forms or
// surrogates: only where sequences start and end matters here), or 0 when it is not one.
size_t utf8_length(std::string_view s, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(at);
  const size_t n = lead >= 0xF0 && lead <= 0xF4   ? 4
                   : lead >= 0xE0 && lead <= 0xEF ? 3
                   : lead >= 0xC2 && lead <= 0xDF ? 2
                                                  : 0;
  if (n == 0 || at + n > s.size())
    return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80)
      return 0;
  }
  return n;
}

} // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '\n')
        out += "\\n";
      else if (c == '\t')
        out += "\\t";
      else if (c == '\r')
        out += "\\r";
      else if (c < 0x20 || c == 0x7F)
        out += fmt::format("\\x{:02x}", c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    const size_t n = utf8_length(text, i);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    // U+0080..U+009F are C2 80 .. C2 9F.
    if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F)
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[i + 1]));
    else
      out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

} // namespace volta::report
