// Reading and writing NumPy .npy files (format version 1.0): a magic string, a header dict
// {'descr': '<f4', 'fortran_order': False, 'shape': (N,)} padded to 64 bytes, then the raw
// little-endian elements. Enough for one-dimensional arrays of the emulator's element types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/emulate/elem_type.hpp"
#include "engine/expected.hpp"

namespace volta::emulate {

// Writes `bytes` (len elements of `type`) as a one-dimensional .npy file. Returns an error
// message, or an empty string.
std::string write_npy(const std::string& path, ElemType type, uint64_t len,
                      const std::vector<uint8_t>& bytes);

struct NpyArray {
  std::string descr; // as in the header ("<f4")
  uint64_t count = 0;
  uint32_t elem_bytes = 0;
  std::vector<uint8_t> bytes;
};

// Reads a C-order .npy file of any shape (flattened), or says why it cannot.
Expected<NpyArray> read_npy(const std::string& path);

} // namespace volta::emulate
