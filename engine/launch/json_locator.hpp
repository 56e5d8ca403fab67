// Where a JSON path (`$.benchmarks[3].reference.block[1]`) lies in the text it was read from, so
// that a manifest problem found after parsing (nlohmann's tree keeps no positions) is reported
// like any other bad input: file:line:col.
#pragma once

#include <optional>
#include <string_view>

#include "ptx/source_location.hpp"

namespace volta::launch {

// The line and column of the value at `path` in `text` (or of the deepest member of it that
// exists: a missing key locates its object); nullopt when the path is not of the form
// `$`, `.key`, `[index]` or the text is not the JSON it names. Linear in the text, no recursion.
std::optional<ptx::SourceLocation> locate_json_path(std::string_view text, std::string_view path);

// 1-based line and column of byte `offset` in `text` (a JSON parser's error position).
ptx::SourceLocation location_at(std::string_view text, size_t offset);

} // namespace volta::launch
