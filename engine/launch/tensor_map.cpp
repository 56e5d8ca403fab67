// Tensor maps by their cuTensorMapEncodeTiled arguments (see tensor_map.hpp and
// tensor_map_reader.hpp).
//
// Every limit below is cuda.h's documentation of cuTensorMapEncodeTiled (CUDA 13.0,
// /usr/local/cuda/include/cuda.h, the comment above its declaration; the same text is the Driver
// API reference, "Tensor Map Object Managment"): tensorRank, globalAddress, globalDim,
// globalStrides, boxDim, elementStrides, interleave, swizzle and oobFill each have a paragraph
// there, quoted by the check that implements it.
#include "engine/launch/tensor_map.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/launch/manifest.hpp"
#include "engine/launch/tensor_map_reader.hpp"

namespace volta::launch {

namespace {

using nlohmann::json;

// cuda.h's enumerators, in value order.
constexpr std::string_view kDataTypes[] = {
    "UINT8",        "UINT16",       "UINT32",        "INT32",        "UINT64",      "INT64",
    "FLOAT16",      "FLOAT32",      "FLOAT64",       "BFLOAT16",     "FLOAT32_FTZ", "TFLOAT32",
    "TFLOAT32_FTZ", "16U4_ALIGN8B", "16U4_ALIGN16B", "16U6_ALIGN16B"};
constexpr uint32_t kDataTypeBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 0, 0, 0};
constexpr std::string_view kInterleaves[] = {"NONE", "16B", "32B"};
constexpr std::string_view kSwizzles[] = {
    "NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"};
constexpr std::string_view kL2Promotions[] = {"NONE", "L2_64B", "L2_128B", "L2_256B"};
constexpr std::string_view kOobFills[] = {"NONE", "NAN_REQUEST_ZERO_FMA"};

constexpr uint32_t kU4Align8 = 13, kU4Align16 = 14, kU6Align16 = 15;
constexpr uint32_t kInterleave32B = 2;
constexpr uint32_t kSwizzleNone = 0, kSwizzle32B = 1, kSwizzle64B = 2, kSwizzle128B = 3,
                   kSwizzle128BAtom32B = 4, kSwizzle128BAtom64B = 6;

bool is_float_type(uint32_t t) {
  return t >= 6 && t <= 12; // FLOAT16 .. TFLOAT32_FTZ
}
bool is_packed_align16(uint32_t t) {
  return t == kU4Align16 || t == kU6Align16;
}

const std::vector<std::string_view> kKeys = {
    "encode", "dataType",       "rank",       "globalAddress", "globalDim",   "globalStrides",
    "boxDim", "elementStrides", "interleave", "swizzle",       "l2Promotion", "oobFill"};

struct Bad {
  TensorMapProblem problem;
};

[[noreturn]] void bad(std::string path, std::string message) {
  throw Bad{{std::move(path), std::move(message)}};
}

const json& need(const json& j, const std::string& path, const char* key) {
  auto it = j.find(key);
  if (it == j.end())
    bad(path, fmt::format("missing required member '{}'", key));
  return *it;
}

uint64_t unsigned_of(const json& j, const std::string& path) {
  if (j.is_number_unsigned())
    return j.get<uint64_t>();
  if (j.is_number_integer() && j.get<int64_t>() >= 0)
    return static_cast<uint64_t>(j.get<int64_t>());
  bad(path, fmt::format("expected a non-negative integer, got {}", j.dump()));
}

// An enumerator given by its cuda.h name (CU_TENSOR_MAP_SWIZZLE_128B) or by its value.
template <size_t N>
uint32_t enum_of(const json& j, const std::string& path, std::string_view prefix,
                 const std::string_view (&names)[N]) {
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    for (size_t i = 0; i < N; ++i) {
      if (s == fmt::format("{}{}", prefix, names[i]))
        return static_cast<uint32_t>(i);
    }
    std::string list;
    for (size_t i = 0; i < N; ++i)
      list += fmt::format("{}{}{}", i ? ", " : "", prefix, names[i]);
    bad(path, fmt::format("unknown value \"{}\" (expected one of {}, or its number)", s, list));
  }
  const uint64_t v = unsigned_of(j, path);
  if (v >= N)
    bad(path, fmt::format("{} is not a value of {}* (0 to {})", v, prefix, N - 1));
  return static_cast<uint32_t>(v);
}

template <class T, size_t N>
void list_of(const json& j, const std::string& path, size_t count, std::array<T, N>& out) {
  if (!j.is_array())
    bad(path, "expected an array of non-negative integers");
  if (j.size() != count)
    bad(path, fmt::format("expected {} value{} (one per dimension{}), found {}", count,
                          count == 1 ? "" : "s", N == 4 ? " but the first" : "", j.size()));
  for (size_t i = 0; i < count; ++i) {
    const uint64_t v = unsigned_of(j[i], fmt::format("{}[{}]", path, i));
    if (v > std::numeric_limits<T>::max())
      bad(fmt::format("{}[{}]", path, i), fmt::format("{} does not fit {} bits", v, sizeof(T) * 8));
    out[i] = static_cast<T>(v);
  }
}

} // namespace

uint32_t tensor_map_element_bytes(uint32_t data_type) {
  return data_type < std::size(kDataTypeBytes) ? kDataTypeBytes[data_type] : 0;
}

std::string_view tensor_map_data_type_name(uint32_t v) {
  return v < std::size(kDataTypes) ? kDataTypes[v] : "?";
}

std::string_view tensor_map_swizzle_name(uint32_t v) {
  return v < std::size(kSwizzles) ? kSwizzles[v] : "?";
}

std::string describe(const TensorMap& m) {
  std::string s = fmt::format("{} rank {} ptr:{}+{} dims", tensor_map_data_type_name(m.data_type),
                              m.rank, m.array, m.array_offset);
  for (uint32_t i = 0; i < m.rank; ++i)
    s += fmt::format(" {}", m.global_dim[i]);
  s += " strides";
  for (uint32_t i = 0; i + 1 < m.rank; ++i)
    s += fmt::format(" {}", m.global_strides[i]);
  s += " box";
  for (uint32_t i = 0; i < m.rank; ++i)
    s += fmt::format(" {}", m.box_dim[i]);
  s += " elementStrides";
  for (uint32_t i = 0; i < m.rank; ++i)
    s += fmt::format(" {}", m.element_strides[i]);
  s += fmt::format(" interleave {} swizzle {} l2 {} oob {}", m.interleave,
                   tensor_map_swizzle_name(m.swizzle), m.l2_promotion, m.oob_fill);
  return s;
}

TensorMapRead read_tensor_map(const json& j, const std::string& path) {
  TensorMapRead r;
  try {
    if (!j.is_object())
      bad(path, "expected an object with the arguments of cuTensorMapEncodeTiled (dataType, "
                "rank, globalAddress, globalDim, globalStrides, boxDim, elementStrides, "
                "interleave, swizzle, l2Promotion, oobFill)");
    for (const auto& [key, value] : j.items()) {
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
        bad(path + "." + key, unknown_key_message(key, kKeys));
    }
    if (auto it = j.find("encode"); it != j.end()) {
      if (!it->is_string() || it->get<std::string>() != "cuTensorMapEncodeTiled")
        bad(path + ".encode", "only \"cuTensorMapEncodeTiled\" (tiled tensor maps) is supported; "
                              "im2col maps are not");
    }
    TensorMap m;
    m.data_type = enum_of(need(j, path, "dataType"), path + ".dataType", "CU_TENSOR_MAP_DATA_TYPE_",
                          kDataTypes);
    const uint64_t rank = unsigned_of(need(j, path, "rank"), path + ".rank");
    // "tensorRank must be non-zero and less than or equal to the maximum supported
    // dimensionality of 5."
    if (rank == 0 || rank > 5)
      bad(path + ".rank", fmt::format("the rank is 1 to 5, got {}", rank));
    m.rank = static_cast<uint32_t>(rank);
    const json& address = need(j, path, "globalAddress");
    if (!address.is_string() || !address.get<std::string>().starts_with("ptr:") ||
        address.get<std::string>().size() == 4)
      bad(path + ".globalAddress", "expected \"ptr:ARRAY\" or \"ptr:ARRAY+BYTES\" (an array of "
                                   "the kernel)");
    {
      const std::string a = address.get<std::string>().substr(4);
      const size_t plus = a.find('+');
      m.array = a.substr(0, plus);
      if (plus != std::string::npos) {
        const std::string digits = a.substr(plus + 1);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
            digits.size() > 15)
          bad(path + ".globalAddress",
              fmt::format("\"{}\": expected a byte offset after '+'", address.get<std::string>()));
        m.array_offset = std::stoull(digits);
      }
    }
    list_of(need(j, path, "globalDim"), path + ".globalDim", m.rank, m.global_dim);
    list_of(need(j, path, "globalStrides"), path + ".globalStrides", m.rank - 1, m.global_strides);
    list_of(need(j, path, "boxDim"), path + ".boxDim", m.rank, m.box_dim);
    list_of(need(j, path, "elementStrides"), path + ".elementStrides", m.rank, m.element_strides);
    m.interleave = enum_of(need(j, path, "interleave"), path + ".interleave",
                           "CU_TENSOR_MAP_INTERLEAVE_", kInterleaves);
    m.swizzle =
        enum_of(need(j, path, "swizzle"), path + ".swizzle", "CU_TENSOR_MAP_SWIZZLE_", kSwizzles);
    m.l2_promotion = enum_of(need(j, path, "l2Promotion"), path + ".l2Promotion",
                             "CU_TENSOR_MAP_L2_PROMOTION_", kL2Promotions);
    m.oob_fill = enum_of(need(j, path, "oobFill"), path + ".oobFill",
                         "CU_TENSOR_MAP_FLOAT_OOB_FILL_", kOobFills);
    if (auto p = tensor_map_problem(m, path)) {
      r.problem = std::move(p);
      return r;
    }
    r.map = std::move(m);
  } catch (const Bad& b) {
    r.problem = b.problem;
  }
  return r;
}

std::optional<TensorMapProblem> tensor_map_problem(const TensorMap& m, const std::string& path) {
  auto at = [&](std::string_view key, int i = -1) {
    return i < 0 ? fmt::format("{}.{}", path, key) : fmt::format("{}.{}[{}]", path, key, i);
  };
  auto problem = [](std::string p, std::string message) {
    return std::optional<TensorMapProblem>(TensorMapProblem{std::move(p), std::move(message)});
  };
  const uint32_t t = m.data_type;
  const uint32_t elem = tensor_map_element_bytes(t);
  // "If interleave is not CU_TENSOR_MAP_INTERLEAVE_NONE, then tensorRank must additionally be
  // greater than or equal to 3."
  if (m.rank < 1 || m.rank > 5)
    return problem(at("rank"), fmt::format("the rank is 1 to 5, got {}", m.rank));
  if (m.interleave != 0 && m.rank < 3)
    return problem(at("rank"), fmt::format("an interleaved map has rank 3 to 5, got {}", m.rank));
  // "globalDim ... must be non-zero and less than or equal to 2^32", and for the packed types
  // "globalDim[0] must be a multiple of 128" (16U6/16U4_ALIGN16B), "of 2" (16U4_ALIGN8B).
  for (uint32_t i = 0; i < m.rank; ++i) {
    if (m.global_dim[i] == 0 || m.global_dim[i] > (uint64_t{1} << 32))
      return problem(at("globalDim", i),
                     fmt::format("a global dimension is 1 to 2^32, got {}", m.global_dim[i]));
  }
  if (is_packed_align16(t) && m.global_dim[0] % 128 != 0)
    return problem(at("globalDim", 0), "a 16-byte-aligned packed type needs globalDim[0] a "
                                       "multiple of 128");
  if (t == kU4Align8 && m.global_dim[0] % 2 != 0)
    return problem(at("globalDim", 0), "16U4_ALIGN8B needs globalDim[0] a multiple of 2");
  // "globalStrides ... must be a multiple of 16 and less than 2^40"; "a multiple of 32" with
  // 32-byte interleave or a 16-byte-aligned packed type.
  const uint64_t stride_unit = m.interleave == kInterleave32B || is_packed_align16(t) ? 32 : 16;
  for (uint32_t i = 0; i + 1 < m.rank; ++i) {
    const uint64_t s = m.global_strides[i];
    if (s % stride_unit != 0 || s >= (uint64_t{1} << 40))
      return problem(at("globalStrides", i),
                     fmt::format("a global stride is a multiple of {} bytes below 2^40, got {}",
                                 stride_unit, s));
  }
  // "boxDim ... must be non-zero and less than or equal to 256"; with no interleave
  // "boxDim[0] * elementSizeInBytes(tensorDataType) must be a multiple of 16 bytes"; the
  // 16-byte-aligned packed types need boxDim[0] = 128.
  for (uint32_t i = 0; i < m.rank; ++i) {
    if (m.box_dim[i] == 0 || m.box_dim[i] > 256)
      return problem(at("boxDim", i),
                     fmt::format("a box dimension is 1 to 256, got {}", m.box_dim[i]));
  }
  if (m.interleave == 0 && elem != 0 && (uint64_t{m.box_dim[0]} * elem) % 16 != 0)
    return problem(at("boxDim", 0),
                   fmt::format("without interleave the box's inner dimension is a multiple of 16 "
                               "bytes; {} elements of {} bytes are {}",
                               m.box_dim[0], elem, uint64_t{m.box_dim[0]} * elem));
  if (is_packed_align16(t) && m.box_dim[0] != 128)
    return problem(at("boxDim", 0), "a 16-byte-aligned packed type needs boxDim[0] = 128");
  // "elementStrides ... must be non-zero and less than or equal to 8."
  for (uint32_t i = 0; i < m.rank; ++i) {
    if (m.element_strides[i] == 0 || m.element_strides[i] > 8)
      return problem(at("elementStrides", i),
                     fmt::format("an element stride is 1 to 8, got {}", m.element_strides[i]));
  }
  // "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be
  // CU_TENSOR_MAP_SWIZZLE_32B."
  if (m.interleave == kInterleave32B && m.swizzle != kSwizzle32B)
    return problem(at("swizzle"), "with CU_TENSOR_MAP_INTERLEAVE_32B the swizzle must be "
                                  "CU_TENSOR_MAP_SWIZZLE_32B");
  // "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and swizzle is not
  // CU_TENSOR_MAP_SWIZZLE_NONE, the bounding box inner dimension (boxDim[0] multiplied by the
  // element size) must be less than or equal to the swizzle size" (32, 64, 128 for 128B*).
  if (m.interleave == 0 && m.swizzle != kSwizzleNone && elem != 0) {
    const uint64_t span = m.swizzle == kSwizzle32B ? 32 : m.swizzle == kSwizzle64B ? 64 : 128;
    const uint64_t inner = uint64_t{m.box_dim[0]} * elem;
    if (inner > span)
      return problem(at("boxDim", 0),
                     fmt::format("the box's inner dimension is {} bytes, more than the {}-byte "
                                 "span of CU_TENSOR_MAP_SWIZZLE_{}",
                                 inner, span, tensor_map_swizzle_name(m.swizzle)));
  }
  // "tensorDataType of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave to be
  // CU_TENSOR_MAP_INTERLEAVE_NONE", and the swizzles each packed type supports.
  if (t == kU6Align16 && m.interleave != 0)
    return problem(at("interleave"), "16U6_ALIGN16B needs CU_TENSOR_MAP_INTERLEAVE_NONE");
  if (is_packed_align16(t)) {
    const bool ok = m.swizzle == kSwizzleNone || m.swizzle == kSwizzle128B ||
                    m.swizzle == kSwizzle128BAtom32B ||
                    (t == kU6Align16 && m.swizzle == kSwizzle128BAtom64B);
    if (!ok)
      return problem(at("swizzle"),
                     fmt::format("{} does not support CU_TENSOR_MAP_SWIZZLE_{}",
                                 tensor_map_data_type_name(t), tensor_map_swizzle_name(m.swizzle)));
  }
  // "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when tensorDataType
  // represents a floating-point data type" (not the packed types).
  if (m.oob_fill != 0 && !is_float_type(t))
    return problem(at("oobFill"), fmt::format("NAN_REQUEST_ZERO_FMA needs a floating-point data "
                                              "type, not {}",
                                              tensor_map_data_type_name(t)));
  return std::nullopt;
}

std::optional<TensorMapProblem>
tensor_map_array_problem(const TensorMap& m, const KernelConfig& config, const std::string& path) {
  const std::string where = path + ".globalAddress";
  const ArraySpec* a = config.find_array(m.array);
  if (a == nullptr)
    return TensorMapProblem{where,
                            fmt::format("no array named \"{}\" in the kernel's arrays", m.array)};
  // "globalAddress ... must be 16 byte aligned"; 32 with CU_TENSOR_MAP_INTERLEAVE_32B or a
  // 16-byte-aligned packed type.
  const uint64_t address = a->base + m.array_offset;
  const uint64_t align = m.interleave == kInterleave32B || is_packed_align16(m.data_type) ? 32 : 16;
  if (address % align != 0)
    return TensorMapProblem{
        where, fmt::format("the global address 0x{:x} is not {}-byte aligned", address, align)};
  // Not a driver requirement but the manifest's: the map describes memory of its array only
  // (the last byte of the last element lies inside it), so that a load through it never reads
  // memory the manifest did not declare.
  const uint32_t elem = tensor_map_element_bytes(m.data_type);
  unsigned __int128 last = m.data_type == kU4Align8 ? (m.global_dim[0] + 1) / 2
                           : elem == 0              ? (m.global_dim[0] + 15) / 16 * 16
                                                    : m.global_dim[0] * uint64_t{elem};
  for (uint32_t i = 1; i < m.rank; ++i)
    last += static_cast<unsigned __int128>(m.global_dim[i] - 1) * m.global_strides[i - 1];
  const unsigned __int128 end = static_cast<unsigned __int128>(m.array_offset) + last;
  if (end > a->size_bytes())
    return TensorMapProblem{path + ".globalDim",
                            fmt::format("the map spans {} bytes from offset {} of array \"{}\", "
                                        "which holds {} bytes",
                                        static_cast<uint64_t>(last), m.array_offset, m.array,
                                        a->size_bytes())};
  return std::nullopt;
}

} // namespace volta::launch
