#include "engine/emulate/npy.hpp"

#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <regex>

namespace volta::emulate {

std::string write_npy(const std::string& path, ElemType type, uint64_t len,
                      const std::vector<uint8_t>& bytes) {
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}",
                                   npy_descr(type), len);
  // magic (6) + version (2) + header length (2) + header + '\n', padded to a multiple of 64.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out)
    return fmt::format("{}: cannot write", path);
  out.write("\x93NUMPY\x01\x00", 8);
  const auto n = static_cast<uint16_t>(header.size());
  out.put(static_cast<char>(n & 0xff));
  out.put(static_cast<char>(n >> 8));
  out << header;
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return out ? std::string() : fmt::format("{}: write failed", path);
}

Expected<NpyArray> read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Unexpected{fmt::format("{}: cannot read", path)};
  }
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0) {
    return Unexpected{fmt::format("{}: not a .npy file", path)};
  }
  const int major = static_cast<uint8_t>(data[6]);
  size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = static_cast<uint8_t>(data[8]) | static_cast<size_t>(static_cast<uint8_t>(data[9]))
                                                     << 8;
    start = 10;
  } else {
    if (data.size() < 12) {
      return Unexpected{fmt::format("{}: truncated header", path)};
    }
    for (int i = 0; i < 4; ++i)
      header_len |= static_cast<size_t>(static_cast<uint8_t>(data[8 + i])) << (8 * i);
    start = 12;
  }
  if (start + header_len > data.size()) {
    return Unexpected{fmt::format("{}: truncated header", path)};
  }
  const std::string header = data.substr(start, header_len);
  std::smatch m;
  NpyArray a;
  if (!std::regex_search(header, m, std::regex("'descr':\\s*'([^']+)'"))) {
    return Unexpected{fmt::format("{}: header has no descr", path)};
  }
  a.descr = m[1];
  if (std::regex_search(header, m, std::regex("'fortran_order':\\s*True"))) {
    return Unexpected{fmt::format("{}: Fortran-order arrays are not supported", path)};
  }
  if (!std::regex_search(header, m, std::regex("'shape':\\s*\\(([^)]*)\\)"))) {
    return Unexpected{fmt::format("{}: header has no shape", path)};
  }
  a.count = 1;
  const std::string dims = m[1];
  const std::regex number("[0-9]+");
  std::sregex_iterator it(dims.begin(), dims.end(), number), end;
  for (; it != end; ++it)
    a.count *= std::stoull(it->str());
  const std::string& d = a.descr;
  if (d.size() < 3 || (d[0] != '<' && d[0] != '|')) {
    return Unexpected{fmt::format("{}: unsupported dtype '{}' (little-endian only)", path, d)};
  }
  a.elem_bytes = static_cast<uint32_t>(std::stoul(d.substr(2)));
  const size_t body = start + header_len;
  if (data.size() - body < a.count * a.elem_bytes) {
    return Unexpected{fmt::format("{}: expected {} bytes of data", path, a.count * a.elem_bytes)};
  }
  a.bytes.assign(data.begin() + static_cast<std::ptrdiff_t>(body),
                 data.begin() + static_cast<std::ptrdiff_t>(body + a.count * a.elem_bytes));
  return a;
}

} // namespace volta::emulate
