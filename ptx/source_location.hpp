// A position in a source file: 1-based line and column (column counts bytes).
#pragma once

#include <cstdint>

namespace volta::ptx {

struct SourceLocation {
  uint32_t line = 0;   // 0: unknown
  uint32_t column = 0; // 0: unknown
  friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

} // namespace volta::ptx
