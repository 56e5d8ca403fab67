#include "engine/launch/json_locator.hpp"

#include <cctype>
#include <string>
#include <variant>
#include <vector>

namespace volta::launch {

namespace {

using Step = std::variant<std::string, size_t>; // an object key or an array index

std::optional<std::vector<Step>> split_path(std::string_view path) {
  if (!path.starts_with("$"))
    return std::nullopt;
  std::vector<Step> steps;
  size_t i = 1;
  while (i < path.size()) {
    if (path[i] == '.') {
      size_t end = i + 1;
      while (end < path.size() && path[end] != '.' && path[end] != '[')
        ++end;
      steps.emplace_back(std::string(path.substr(i + 1, end - i - 1)));
      i = end;
    } else if (path[i] == '[') {
      size_t end = path.find(']', i);
      if (end == std::string_view::npos || end == i + 1)
        return std::nullopt;
      size_t index = 0;
      for (size_t k = i + 1; k < end; ++k) {
        if (!std::isdigit(static_cast<unsigned char>(path[k])))
          return std::nullopt;
        index = index * 10 + static_cast<size_t>(path[k] - '0');
      }
      steps.emplace_back(index);
      i = end + 1;
    } else {
      return std::nullopt;
    }
  }
  return steps;
}

struct Scanner {
  std::string_view text;
  size_t pos = 0;

  void skip_space() {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool at(char c) {
    skip_space();
    return pos < text.size() && text[pos] == c;
  }
  // A string at `pos`, returned with its escapes kept (keys of a manifest have none).
  std::optional<std::string_view> string() {
    if (!at('"'))
      return std::nullopt;
    const size_t start = ++pos;
    while (pos < text.size() && text[pos] != '"')
      pos += text[pos] == '\\' ? 2 : 1;
    if (pos >= text.size())
      return std::nullopt;
    return text.substr(start, pos++ - start);
  }
  // Past one value of any nesting: brackets are counted, strings skipped whole.
  bool skip_value() {
    skip_space();
    if (pos >= text.size())
      return false;
    if (text[pos] == '"')
      return string().has_value();
    if (text[pos] != '{' && text[pos] != '[') { // a number, true, false or null
      while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos])) &&
             text[pos] != ',' && text[pos] != '}' && text[pos] != ']')
        ++pos;
      return true;
    }
    size_t depth = 0;
    while (pos < text.size()) {
      const char c = text[pos];
      if (c == '"') {
        if (!string())
          return false;
        continue;
      }
      ++pos;
      if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return true;
      }
    }
    return false;
  }
  // Moves to the value of `key` in the object at `pos`.
  bool enter_key(std::string_view key) {
    if (!at('{'))
      return false;
    ++pos;
    while (!at('}')) {
      const auto name = string();
      if (!name || !at(':'))
        return false;
      ++pos;
      skip_space();
      if (*name == key)
        return true;
      if (!skip_value())
        return false;
      if (at(','))
        ++pos;
    }
    return false;
  }
  // Moves to element `index` of the array at `pos`.
  bool enter_index(size_t index) {
    if (!at('['))
      return false;
    ++pos;
    for (size_t i = 0; !at(']'); ++i) {
      skip_space();
      if (i == index)
        return true;
      if (!skip_value())
        return false;
      if (at(','))
        ++pos;
    }
    return false;
  }
};

} // namespace

ptx::SourceLocation location_at(std::string_view text, size_t offset) {
  ptx::SourceLocation loc{1, 1};
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

std::optional<ptx::SourceLocation> locate_json_path(std::string_view text, std::string_view path) {
  const auto steps = split_path(path);
  if (!steps)
    return std::nullopt;
  Scanner s{text};
  s.skip_space();
  for (const Step& step : *steps) {
    const size_t before = s.pos;
    const bool found = std::holds_alternative<std::string>(step)
                           ? s.enter_key(std::get<std::string>(step))
                           : s.enter_index(std::get<size_t>(step));
    if (!found) {
      s.pos = before; // the deepest member that exists
      break;
    }
  }
  s.skip_space();
  return location_at(text, s.pos);
}

} // namespace volta::launch
