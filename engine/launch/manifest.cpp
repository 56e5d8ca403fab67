#include "engine/launch/manifest.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/launch/cluster.hpp"
#include "engine/launch/cuda_source.hpp"
#include "engine/launch/json_locator.hpp"
#include "engine/launch/tensor_map_reader.hpp"
#include "support/invariant.hpp"

namespace volta::launch {
namespace {

using nlohmann::json;

// Thrown inside one entry's conversion; caught per entry.
struct EntryError {
  std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw EntryError{fmt::format("{}: {}", path, what)};
}

// Levenshtein distance, for "did you mean" suggestions.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

} // namespace

std::string unknown_key_message(std::string_view key, const std::vector<std::string_view>& known) {
  std::string_view best;
  size_t best_distance = std::numeric_limits<size_t>::max();
  for (std::string_view k : known) {
    const size_t d = edit_distance(key, k);
    if (d < best_distance) {
      best_distance = d;
      best = k;
    }
  }
  // Close enough to be a typo: a third of the shorter word (at least one edit).
  const size_t allowed = std::max<size_t>(1, std::min(key.size(), best.size()) / 3);
  if (!best.empty() && best_distance <= allowed)
    return fmt::format("unknown key \"{}\"; did you mean \"{}\"?", key, best);
  std::string list;
  for (std::string_view k : known)
    list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
  return fmt::format("unknown key \"{}\" (known: {})", key, list);
}

namespace {

// A misspelled key must never be ignored: `"cta": "all"` would otherwise check CTA 0 only and
// let a wrong kernel pass. Every object of the schema lists the keys it knows.
void check_keys(const json& obj, const std::string& path,
                const std::vector<std::string_view>& known) {
  for (const auto& [key, value] : obj.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end())
      fail(path + "." + key, unknown_key_message(key, known));
  }
}

const std::vector<std::string_view> kKernelKeys = {
    "ptx",     "cuda", "arch",   "nvcc_flags",       "entry",
    "block",   "grid", "arrays", "dyn_shared_bytes", "params",
    "globals", "ctas", "cluster"};
const std::vector<std::string_view> kArrayKeys = {"name", "base", "elem_width", "len",
                                                  "kind", "type", "range"};
// Descriptive keys (`note`, `category`, `reason`, ...) are strings the tool does not interpret.
const std::vector<std::string_view> kEntryKeys = {
    "name",         "kind",     "expected",    "reference", "optimized",       "kernel",
    "check_arrays", "note",     "reason",      "accept",    "category",        "paper_table",
    "description",  "recorded", "cross_check", "races",     "float_tolerance", "assume"};
const std::vector<std::string_view> kTopKeys = {
    "benchmarks", "conventions", "description", "license", "source", "$schema", "ctas"};

const json& member(const json& obj, const std::string& path, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end())
    fail(path, fmt::format("missing required member '{}'", key));
  return *it;
}

std::string get_string(const json& j, const std::string& path) {
  if (!j.is_string())
    fail(path, "expected a string");
  return j.get<std::string>();
}

// Numbers are JSON numbers; only addresses (`base`) are written as strings ("0x10000"), and
// command-line flags arrive as strings (`strings_allowed`).
uint64_t get_uint(const json& j, const std::string& path, bool strings_allowed = false) {
  if (j.is_number_unsigned())
    return j.get<uint64_t>();
  if (j.is_number_integer() && j.get<int64_t>() >= 0)
    return static_cast<uint64_t>(j.get<int64_t>());
  if (j.is_number_integer())
    fail(path, fmt::format("expected a non-negative integer, got {}", j.get<int64_t>()));
  if (j.is_string() && strings_allowed) {
    const std::string s = j.get<std::string>();
    // stoull would wrap "-1" to 2^64-1.
    if (!s.empty() && s[0] != '-' && s[0] != '+') {
      try {
        size_t used = 0;
        uint64_t v = std::stoull(s, &used, 0);
        if (used == s.size())
          return v;
      } catch (...) {
      }
    }
    fail(path, fmt::format("expected a non-negative integer, got \"{}\"", s));
  }
  if (j.is_string())
    fail(path, fmt::format("expected a non-negative integer, got the string {} (write it "
                           "without quotes)",
                           j.dump()));
  fail(path, fmt::format("expected a non-negative integer, got {}", j.dump()));
}

Dim3 get_dim3(const json& j, const std::string& path) {
  if (!j.is_array() || j.empty() || j.size() > 3)
    fail(path, "expected an array of 1 to 3 positive integers");
  Dim3 d{1, 1, 1};
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string p = fmt::format("{}[{}]", path, i);
    uint64_t v = get_uint(j[i], p);
    if (v == 0 || v > 0x7fffffff)
      fail(p, "expected a positive integer below 2^31");
    d[i] = static_cast<uint32_t>(v);
  }
  return d;
}

ArraySpec get_array(const json& j, const std::string& path, bool strings_allowed = false) {
  if (!j.is_object())
    fail(path, "expected an object with name, base, elem_width, len, kind");
  check_keys(j, path, kArrayKeys);
  ArraySpec a;
  a.name = get_string(member(j, path, "name"), path + ".name");
  if (a.name.empty())
    fail(path + ".name", "array name is empty");
  a.base = get_uint(member(j, path, "base"), path + ".base", true);
  a.elem_width = static_cast<uint32_t>(
      get_uint(member(j, path, "elem_width"), path + ".elem_width", strings_allowed));
  if (a.elem_width != 1 && a.elem_width != 2 && a.elem_width != 4 && a.elem_width != 8) {
    fail(path + ".elem_width", "expected 1, 2, 4 or 8");
  }
  a.len = get_uint(member(j, path, "len"), path + ".len", strings_allowed);
  if (a.len == 0)
    fail(path + ".len", "expected a positive length");
  if (a.len > (uint64_t{1} << 32))
    fail(path + ".len", "arrays are limited to 2^32 elements");
  if (a.base + a.size_bytes() < a.base)
    fail(path, "array wraps around the address space");
  if (a.base % a.elem_width != 0)
    fail(path + ".base", fmt::format("base 0x{:x} is not a multiple of the element width {}",
                                     a.base, a.elem_width));
  if (a.base >= (uint64_t{1} << 46))
    fail(path + ".base",
         "bases must lie below 2^46 (higher addresses are the engine's shared/local windows)");
  const std::string kind = get_string(member(j, path, "kind"), path + ".kind");
  auto k = array_kind_from(kind);
  if (!k)
    fail(path + ".kind",
         fmt::format("unknown kind \"{}\" (expected in, out, inout, index, zero)", kind));
  a.kind = *k;
  if (auto it = j.find("type"); it != j.end()) {
    const std::string type = get_string(*it, path + ".type");
    auto t = elem_type_from(type);
    if (!t)
      fail(path + ".type", fmt::format("unknown element type \"{}\" (expected f16, bf16, f32, "
                                       "f64, s8, s16, s32, s64, u8, u16, u32 or u64)",
                                       type));
    if (byte_width(*t) != a.elem_width)
      fail(path + ".type", fmt::format("type {} is {} bytes wide, but elem_width is {}", type,
                                       byte_width(*t), a.elem_width));
    a.type = *t;
  }
  if (auto it = j.find("range"); it != j.end()) {
    // [lo, hi]: the values the input's elements may hold, for the bound on the kernels' rounding
    // error (symbolic/rounding_error_bound.hpp).
    const std::string rpath = path + ".range";
    if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number() || !(*it)[1].is_number())
      fail(rpath, "expected [lo, hi], two numbers");
    const double lo = (*it)[0].get<double>(), hi = (*it)[1].get<double>();
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi)
      fail(rpath, fmt::format("expected finite lo <= hi, got [{}, {}]", lo, hi));
    if (a.kind != ArrayKind::In && a.kind != ArrayKind::InOut)
      fail(rpath, "a range is given for an input array (kind in or inout)");
    a.range = std::make_pair(lo, hi);
  }
  // What every array the engine is given satisfies (the executor's layout and the emulator rely
  // on it): the checks above, stated once more as the reader's postcondition.
  VOLTA_ASSERT(!a.name.empty() && a.len != 0 && a.base % a.elem_width == 0 &&
                   a.base + a.size_bytes() >= a.base,
               "an array is named, non-empty, aligned to its element width and does not wrap");
  VOLTA_ASSERT(a.type == ElemType::Unknown || byte_width(a.type) == a.elem_width,
               "a declared element type is as wide as elem_width");
  return a;
}

std::string resolve(const std::string& base_dir, const std::string& p) {
  std::filesystem::path path(p);
  if (path.is_absolute() || base_dir.empty())
    return p;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

const std::vector<std::string_view> kStructKeys = {"struct", "bytes", "fields"};
const std::vector<std::string_view> kFieldKeys = {"offset", "type", "value"};

// The bytes of an aggregate's `bytes` file; its size must be the aggregate's.
std::vector<uint8_t> read_struct_bytes(const std::string& file, uint64_t size,
                                       const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    fail(path, fmt::format("cannot read \"{}\": it is a directory", file));
  errno = 0;
  std::ifstream in(file, std::ios::binary);
  if (!in)
    fail(path, fmt::format("cannot read \"{}\": {}", file,
                           errno != 0 ? std::strerror(errno) : "cannot open"));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (bytes.size() != size)
    fail(path, fmt::format("\"{}\" holds {} bytes, but the struct is {} bytes", file, bytes.size(),
                           size));
  return bytes;
}

// One typed field of an aggregate: its value in the positional syntax, checked against its type.
StructField get_field(const json& j, uint64_t struct_size, const std::string& path) {
  if (!j.is_object())
    fail(path, "expected an object with offset, type, value");
  check_keys(j, path, kFieldKeys);
  StructField f;
  f.offset = get_uint(member(j, path, "offset"), path + ".offset");
  const std::string type = get_string(member(j, path, "type"), path + ".type");
  auto t = struct_field_type_from(type);
  if (!t)
    fail(path + ".type", fmt::format("unknown field type \"{}\" (expected u64, s64, u32, s32, u8, "
                                     "bool, f32 or tensormap)",
                                     type));
  f.type = *t;
  const uint32_t width = byte_width(f.type);
  if (f.offset >= struct_size || struct_size - f.offset < width)
    fail(path + ".offset", fmt::format("a {}-byte {} at offset {} lies outside the {}-byte struct",
                                       width, type, f.offset, struct_size));
  const std::string vpath = path + ".value";
  if (f.type == StructField::Type::TensorMap) {
    // cuda.h: "tensorMap address must be aligned to 64 bytes" (the parameter block is, with
    // .align 64 or more; the field's offset in it must be too).
    if (f.offset % 64 != 0)
      fail(path + ".offset", fmt::format("a tensor map lies at a multiple of 64 bytes (cuda.h: "
                                         "\"tensorMap address must be aligned to 64 bytes\"), "
                                         "not at offset {}",
                                         f.offset));
    TensorMapRead read = read_tensor_map(member(j, path, "value"), vpath);
    if (read.problem)
      fail(read.problem->path, read.problem->message);
    f.tensor_map = std::move(read.map);
    f.text = "tensormap " + describe(*f.tensor_map);
    return f;
  }
  f.text = get_string(member(j, path, "value"), vpath);
  auto v = parse_param(f.text);
  if (!v)
    fail(vpath, v.error());
  switch (v->kind) {
  case ParamSpec::Kind::Ptr:
    if (f.type != StructField::Type::U64)
      fail(vpath, fmt::format("a pointer field is u64, not {}", type));
    f.array = v->name;
    break;
  case ParamSpec::Kind::Sym:
    fail(vpath, "symbolic values inside a struct are not supported yet (give a concrete "
                "int: or float:)");
  case ParamSpec::Kind::Struct:
    fail(vpath, "expected ptr:ARRAY, int:VALUE or float:VALUE");
  case ParamSpec::Kind::Float:
    if (f.type != StructField::Type::F32)
      fail(vpath, fmt::format("a float value needs type f32, not {}", type));
    f.bits = symbolic::nearest_f32_bits(v->float_value);
    break;
  case ParamSpec::Kind::Int: {
    const int64_t x = v->int_value;
    bool fits = true;
    switch (f.type) {
    case StructField::Type::U64:
      fits = x >= 0;
      break;
    case StructField::Type::S64:
      break;
    case StructField::Type::U32:
      fits = x >= 0 && x <= 0xffffffffll;
      break;
    case StructField::Type::S32:
      fits = x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max();
      break;
    case StructField::Type::U8:
      fits = x >= 0 && x <= 0xff;
      break;
    case StructField::Type::Bool:
      fits = x == 0 || x == 1;
      break;
    case StructField::Type::F32:
      fail(vpath, "a field of type f32 takes float:VALUE");
    case StructField::Type::TensorMap:
      VOLTA_UNREACHABLE("a tensormap field returned above");
    }
    if (!fits)
      fail(vpath, fmt::format("{} does not fit in a field of type {}", x, type));
    f.bits = static_cast<uint64_t>(x);
    break;
  }
  }
  return f;
}

// An aggregate parameter: {"struct": SIZE, "bytes": FILE, "fields": [...]}.
ParamSpec get_struct_param(const json& j, const std::string& base_dir, const std::string& path) {
  check_keys(j, path, kStructKeys);
  ParamSpec p;
  p.kind = ParamSpec::Kind::Struct;
  p.struct_size = get_uint(member(j, path, "struct"), path + ".struct");
  if (p.struct_size == 0 || p.struct_size > (uint64_t{1} << 16))
    fail(path + ".struct", "expected the struct's size in bytes (1 to 65536)");
  p.text = fmt::format("struct of {} bytes", p.struct_size);
  if (auto it = j.find("bytes"); it != j.end()) {
    const std::string file = resolve(base_dir, get_string(*it, path + ".bytes"));
    p.struct_bytes = read_struct_bytes(file, p.struct_size, path + ".bytes");
  }
  if (auto it = j.find("fields"); it != j.end()) {
    if (!it->is_array())
      fail(path + ".fields", "expected an array of {offset, type, value} objects");
    for (size_t i = 0; i < it->size(); ++i) {
      const std::string fp = fmt::format("{}.fields[{}]", path, i);
      StructField f = get_field((*it)[i], p.struct_size, fp);
      for (size_t k = 0; k < p.struct_fields.size(); ++k) {
        const StructField& o = p.struct_fields[k];
        if (f.offset < o.offset + byte_width(o.type) && o.offset < f.offset + byte_width(f.type))
          fail(fp + ".offset", fmt::format("bytes {}..{} overlap {}.fields[{}] (bytes {}..{})",
                                           f.offset, f.offset + byte_width(f.type) - 1, path, k,
                                           o.offset, o.offset + byte_width(o.type) - 1));
      }
      p.struct_fields.push_back(std::move(f));
    }
  }
  return p;
}

// The PTX of a kernel: "ptx", or "cuda" compiled by nvcc for "arch" (default sm_80) with
// "nvcc_flags" (launch/cuda_source.hpp).
std::string kernel_ptx(const json& j, const std::string& base_dir, const std::string& path) {
  const bool has_ptx = j.contains("ptx");
  const bool has_cuda = j.contains("cuda");
  if (has_ptx && has_cuda)
    fail(path + ".cuda", "give either \"ptx\" or \"cuda\", not both");
  if (!has_cuda) {
    for (const char* key : {"arch", "nvcc_flags"}) {
      if (j.contains(key))
        fail(path + "." + key, fmt::format("\"{}\" goes with \"cuda\" (a CUDA source)", key));
    }
    return resolve(base_dir, get_string(member(j, path, "ptx"), path + ".ptx"));
  }
  CudaCompileRequest request;
  request.source = resolve(base_dir, get_string(j.at("cuda"), path + ".cuda"));
  if (auto it = j.find("arch"); it != j.end())
    request.arch = get_string(*it, path + ".arch");
  if (auto it = j.find("nvcc_flags"); it != j.end()) {
    if (!it->is_array())
      fail(path + ".nvcc_flags", "expected an array of strings");
    for (size_t i = 0; i < it->size(); ++i)
      request.flags.push_back(get_string((*it)[i], fmt::format("{}.nvcc_flags[{}]", path, i)));
  }
  if (!valid_cuda_arch(request.arch))
    fail(path + ".arch", fmt::format("\"{}\" is not a CUDA architecture (expected sm_NN, e.g. "
                                     "sm_80)",
                                     request.arch));
  const CudaCompileResult compiled = compile_cuda(request);
  if (!compiled.ok())
    fail(path + ".cuda", compiled.error);
  return compiled.ptx_path;
}

CtaMode get_cta_mode(const json& j, const std::string& path) {
  const std::string mode = get_string(j, path);
  if (mode == "first")
    return CtaMode::First;
  if (mode == "all")
    return CtaMode::All;
  fail(path, fmt::format("expected \"first\" or \"all\", got \"{}\"", mode));
}

KernelConfig get_kernel(const json& j, const std::string& base_dir, const std::string& path,
                        CtaMode default_ctas) {
  if (!j.is_object())
    fail(path, "expected a kernel configuration object");
  check_keys(j, path, kKernelKeys);
  KernelConfig k;
  k.ctas = default_ctas;
  k.ptx_path = kernel_ptx(j, base_dir, path);
  k.entry = get_string(member(j, path, "entry"), path + ".entry");
  k.block = get_dim3(member(j, path, "block"), path + ".block");
  if (auto it = j.find("grid"); it != j.end())
    k.grid = get_dim3(*it, path + ".grid");
  if (uint64_t{k.block[0]} * k.block[1] * k.block[2] > 1024) {
    fail(path + ".block", "a CTA has at most 1024 threads");
  }
  const json& arrays = member(j, path, "arrays");
  if (!arrays.is_array())
    fail(path + ".arrays", "expected an array");
  for (size_t i = 0; i < arrays.size(); ++i) {
    const std::string p = fmt::format("{}.arrays[{}]", path, i);
    ArraySpec a = get_array(arrays[i], p);
    if (std::string clash = array_clash(k.arrays, a); !clash.empty())
      fail(clash.starts_with("duplicate") ? p + ".name" : p, clash);
    k.arrays.push_back(std::move(a));
  }
  if (auto it = j.find("params"); it != j.end()) {
    if (!it->is_array())
      fail(path + ".params", "expected an array of parameters (strings, or struct objects)");
    for (size_t i = 0; i < it->size(); ++i) {
      const std::string p = fmt::format("{}.params[{}]", path, i);
      std::optional<ParamSpec> param;
      if ((*it)[i].is_object()) {
        param = get_struct_param((*it)[i], base_dir, p);
      } else {
        if (!(*it)[i].is_string())
          fail(p, "expected a string (ptr:, sym:, float:, int:) or a struct object "
                  "{\"struct\": SIZE, \"bytes\": FILE, \"fields\": [...]}");
        auto parsed = parse_param(get_string((*it)[i], p));
        if (!parsed)
          fail(p, parsed.error());
        param = std::move(*parsed);
      }
      if (param->kind == ParamSpec::Kind::Ptr && !k.find_array(param->name)) {
        fail(p, fmt::format("no array named \"{}\" in {}.arrays", param->name, path));
      }
      for (size_t f = 0; f < param->struct_fields.size(); ++f) {
        const std::string& array = param->struct_fields[f].array;
        if (!array.empty() && !k.find_array(array))
          fail(fmt::format("{}.fields[{}].value", p, f),
               fmt::format("no array named \"{}\" in {}.arrays", array, path));
        if (const auto& map = param->struct_fields[f].tensor_map) {
          if (auto problem =
                  tensor_map_array_problem(*map, k, fmt::format("{}.fields[{}].value", p, f)))
            fail(problem->path, problem->message);
        }
      }
      k.params.push_back(std::move(*param));
    }
  }
  if (auto it = j.find("dyn_shared_bytes"); it != j.end()) {
    k.dyn_shared_bytes = get_uint(*it, path + ".dyn_shared_bytes");
    if (k.dyn_shared_bytes > (uint64_t{1} << 24))
      fail(path + ".dyn_shared_bytes", "more than 16 MiB of dynamic shared memory");
  }
  if (auto it = j.find("globals"); it != j.end() && !it->is_null()) {
    if (!it->is_object())
      fail(path + ".globals", "expected an object of name: integer");
    for (auto& [name, value] : it->items()) {
      if (!value.is_number_integer())
        fail(path + ".globals." + name, "expected an integer");
      k.globals[name] = value.get<int64_t>();
    }
  }
  if (auto it = j.find("ctas"); it != j.end())
    k.ctas = get_cta_mode(*it, path + ".ctas");
  if (auto it = j.find("cluster"); it != j.end()) {
    k.cluster = get_dim3(*it, path + ".cluster");
    k.cluster_given = true;
    if (std::string problem = cluster_grid_problem(k.cluster, k.grid); !problem.empty())
      fail(path + ".cluster", problem);
  }
  VOLTA_ASSERT(uint64_t{k.block[0]} * k.block[1] * k.block[2] <= 1024,
               "a CTA has at most 1024 threads (16-bit thread indices in the race shadow)");
  VOLTA_ASSERT(std::all_of(k.params.begin(), k.params.end(),
                           [&](const ParamSpec& p) {
                             return p.kind != ParamSpec::Kind::Ptr || k.find_array(p.name);
                           }),
               "every pointer parameter names an array of the kernel");
  return k;
}

// A bound of a float tolerance: a finite number >= 0 (numpy's allclose takes the same).
double get_tolerance_bound(const json& j, const std::string& path) {
  if (!j.is_number() || !std::isfinite(j.get<double>()) || j.get<double>() < 0)
    fail(path, "expected a finite number >= 0");
  return j.get<double>();
}

// `"float_tolerance": {"rel": 1e-3, "abs": 1e-5}`: a bound left out is 0, at least one given.
FloatTolerance get_float_tolerance(const json& j, const std::string& path) {
  if (!j.is_object())
    fail(path, "expected an object {\"rel\": R, \"abs\": A}");
  check_keys(j, path, {"rel", "abs"});
  if (j.empty())
    fail(path, "expected \"rel\", \"abs\" or both");
  FloatTolerance t;
  if (auto it = j.find("rel"); it != j.end())
    t.rel = get_tolerance_bound(*it, path + ".rel");
  if (auto it = j.find("abs"); it != j.end())
    t.abs = get_tolerance_bound(*it, path + ".abs");
  return t;
}

ManifestEntry get_entry(const json& j, size_t index, const std::string& base_dir,
                        CtaMode default_ctas) {
  const std::string path = fmt::format("$.benchmarks[{}]", index);
  ManifestEntry e;
  e.index = index;
  e.name = fmt::format("entry {}", index);
  try {
    if (!j.is_object())
      fail(path, "expected an object");
    e.name = get_string(member(j, path, "name"), path + ".name");
    check_keys(j, path, kEntryKeys);
    const std::string kind = get_string(member(j, path, "kind"), path + ".kind");
    if (const auto k = entry_kind_from(kind)) {
      e.kind = *k;
    } else {
      fail(path + ".kind",
           fmt::format("expected \"equivalence\" or \"race_check\", got \"{}\"", kind));
    }
    // A kernel block of the other kind would be ignored: say so instead.
    const bool equivalence = e.kind == EntryKind::Equivalence;
    for (const char* key : {"reference", "optimized", "kernel"}) {
      const bool belongs = equivalence == (std::string_view(key) != "kernel");
      if (!belongs && j.contains(key)) {
        fail(path + "." + key,
             fmt::format("an entry of kind \"{}\" has no \"{}\" (it has {})", kind, key,
                         equivalence ? "\"reference\" and \"optimized\"" : "\"kernel\""));
      }
    }
    for (const char* key : {"note", "reason", "category", "paper_table", "description"}) {
      if (auto it = j.find(key); it != j.end() && !it->is_string() && !it->is_null())
        fail(path + "." + key, "expected a string");
    }
    if (auto it = j.find("accept"); it != j.end() && !it->is_null()) {
      if (!it->is_array())
        fail(path + ".accept", "expected an array of verdict words");
      for (size_t i = 0; i < it->size(); ++i) {
        const std::string p = fmt::format("{}.accept[{}]", path, i);
        const std::string word = get_string((*it)[i], p);
        if (!verdict_from(word))
          fail(p, fmt::format("unknown verdict \"{}\"", word));
      }
    }
    if (auto it = j.find("expected"); it != j.end() && !it->is_null()) {
      const std::string word = get_string(*it, path + ".expected");
      e.expected = verdict_from(word);
      if (!e.expected) {
        std::vector<std::string_view> words;
        for (int v = 0; v <= static_cast<int>(Verdict::Error); ++v) // INCONSISTENT never
          words.push_back(to_string(static_cast<Verdict>(v)));
        std::string message = unknown_key_message(word, words);
        message.replace(0, std::string_view("unknown key").size(), "unknown verdict");
        fail(path + ".expected", message);
      }
      if (*e.expected == Verdict::Inconsistent)
        fail(path + ".expected", "INCONSISTENT reports a bug of volta-eg; it is never expected");
    }
    if (auto it = j.find("cross_check"); it != j.end()) {
      if (!it->is_boolean())
        fail(path + ".cross_check", "expected true or false");
      if (e.kind != EntryKind::Equivalence)
        fail(path + ".cross_check", "only equivalence entries have an emulator cross-check");
      e.cross_check = it->get<bool>();
    }
    if (auto it = j.find("float_tolerance"); it != j.end() && !it->is_null()) {
      if (e.kind != EntryKind::Equivalence)
        fail(path + ".float_tolerance", "only equivalence entries have a float tolerance");
      e.float_tolerance = get_float_tolerance(*it, path + ".float_tolerance");
      if (!e.cross_check) // the tolerance is held against the cross-check's measurement
        fail(path + ".float_tolerance",
             "a float tolerance is checked on the emulator cross-check, which \"cross_check\": "
             "false turns off");
    }
    if (auto it = j.find("races"); it != j.end() && !it->is_null()) {
      const std::string rule = get_string(*it, path + ".races");
      if (rule != "benign" && rule != "strict")
        fail(path + ".races", fmt::format("expected \"benign\" or \"strict\", got \"{}\"", rule));
      e.benign_races = rule == "benign";
    }
    if (auto it = j.find("assume"); it != j.end() && !it->is_null()) {
      if (!it->is_array())
        fail(path + ".assume", "expected a list of assumptions, e.g. [\"converged-waits\"]");
      e.converged_waits = false;
      for (size_t i = 0; i < it->size(); ++i) {
        const std::string what = get_string((*it)[i], fmt::format("{}.assume[{}]", path, i));
        if (what != "converged-waits")
          fail(fmt::format("{}.assume[{}]", path, i),
               fmt::format("unknown assumption \"{}\" (known: \"converged-waits\")", what));
        e.converged_waits = true;
      }
    }
    if (e.kind == EntryKind::Equivalence) {
      e.reference =
          get_kernel(member(j, path, "reference"), base_dir, path + ".reference", default_ctas);
      e.optimized =
          get_kernel(member(j, path, "optimized"), base_dir, path + ".optimized", default_ctas);
    } else {
      e.kernel = get_kernel(member(j, path, "kernel"), base_dir, path + ".kernel", default_ctas);
    }
    if (auto it = j.find("check_arrays"); it != j.end() && !it->is_null()) {
      if (!it->is_array())
        fail(path + ".check_arrays", "expected an array of array names");
      for (size_t i = 0; i < it->size(); ++i) {
        const std::string p = fmt::format("{}.check_arrays[{}]", path, i);
        std::string name = get_string((*it)[i], p);
        if (e.kind == EntryKind::Equivalence &&
            (!e.reference.find_array(name) || !e.optimized.find_array(name))) {
          fail(p, fmt::format("\"{}\" is not an array of both kernels", name));
        }
        e.check_arrays.push_back(std::move(name));
      }
    }
    if (auto it = j.find("note"); it != j.end() && it->is_string())
      e.note = it->get<std::string>();
    if (auto it = j.find("recorded"); it != j.end())
      e.recorded_json = it->dump();
  } catch (const EntryError& err) {
    e.error = err.message;
  }
  return e;
}

} // namespace

std::string_view to_string(EntryKind k) {
  return k == EntryKind::RaceCheck ? "race_check" : "equivalence";
}

std::optional<EntryKind> entry_kind_from(std::string_view word) {
  if (word == "equivalence")
    return EntryKind::Equivalence;
  if (word == "race_check")
    return EntryKind::RaceCheck;
  return std::nullopt;
}

std::optional<ArrayKind> array_kind_from(std::string_view word) {
  if (word == "in")
    return ArrayKind::In;
  if (word == "out")
    return ArrayKind::Out;
  if (word == "inout")
    return ArrayKind::InOut;
  if (word == "index")
    return ArrayKind::Index;
  if (word == "zero")
    return ArrayKind::Zero;
  return std::nullopt;
}

Expected<FloatTolerance> parse_float_tolerance(const std::string& text) {
  const std::string usage = fmt::format("expected rel=R,abs=A (either or both), got \"{}\"", text);
  FloatTolerance t;
  bool rel = false, abs = false;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    const size_t eq = part.find('=');
    if (eq == std::string::npos)
      return Unexpected{usage};
    const std::string key = part.substr(0, eq), value = part.substr(eq + 1);
    bool* seen = key == "rel" ? &rel : key == "abs" ? &abs : nullptr;
    if (!seen || *seen)
      return Unexpected{usage};
    *seen = true;
    double v = 0;
    size_t used = 0;
    try {
      v = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (value.empty() || used != value.size() || !std::isfinite(v) || v < 0)
      return Unexpected{fmt::format("{}: expected a finite number >= 0, got \"{}\"", key, value)};
    (key == "rel" ? t.rel : t.abs) = v;
    start = comma + 1;
  }
  return t;
}

Expected<ParamSpec> parse_param(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos) {
    return Unexpected{fmt::format("expected ptr:ARRAY, sym:NAME, float:VALUE, int:VALUE or "
                                  "struct:SIZE[:bytes=FILE], got \"{}\"",
                                  text)};
  }
  const std::string kind = text.substr(0, colon);
  const std::string rest = text.substr(colon + 1);
  ParamSpec p;
  p.text = text;
  if (kind == "ptr" || kind == "sym") {
    if (rest.empty()) {
      return Unexpected{fmt::format("missing name in \"{}\"", text)};
    }
    p.kind = kind == "ptr" ? ParamSpec::Kind::Ptr : ParamSpec::Kind::Sym;
    p.name = rest;
    return p;
  }
  if (kind == "float") {
    auto v = symbolic::parse_rational(rest);
    if (!v) {
      return Unexpected{fmt::format("\"{}\" is not a decimal number", rest)};
    }
    p.kind = ParamSpec::Kind::Float;
    p.float_value = *v;
    return p;
  }
  if (kind == "int") {
    try {
      size_t used = 0;
      long long v = std::stoll(rest, &used, 0);
      if (used != rest.size())
        throw std::invalid_argument("trailing");
      p.kind = ParamSpec::Kind::Int;
      p.int_value = v;
      return p;
    } catch (...) {
      return Unexpected{fmt::format("\"{}\" is not an integer", rest)};
    }
  }
  if (kind == "struct") {
    // The command line's aggregate: struct:SIZE or struct:SIZE:bytes=FILE (typed fields need a
    // manifest or a --config JSON object).
    const size_t colon2 = rest.find(':');
    const std::string size_text = rest.substr(0, colon2);
    try {
      size_t used = 0;
      if (size_text.empty() || size_text[0] == '-' || size_text[0] == '+')
        throw std::invalid_argument("sign");
      json j = {{"struct", std::stoull(size_text, &used, 0)}};
      if (used != size_text.size())
        throw std::invalid_argument("trailing");
      if (colon2 != std::string::npos) {
        const std::string option = rest.substr(colon2 + 1);
        if (option.rfind("bytes=", 0) != 0 || option.size() == 6) {
          return Unexpected{
              fmt::format("expected struct:SIZE or struct:SIZE:bytes=FILE, got \"{}\"", text)};
        }
        j["bytes"] = option.substr(6);
      }
      ParamSpec p = get_struct_param(j, "", "struct");
      p.text = text;
      return p;
    } catch (const EntryError& e) {
      return Unexpected{e.message};
    } catch (...) {
      return Unexpected{fmt::format("\"{}\" is not a struct size", size_text)};
    }
  }
  return Unexpected{
      fmt::format("unknown parameter kind \"{}\" (expected ptr, sym, float, int or struct)", kind)};
}

Expected<ArraySpec> parse_array_flag(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ':'))
    parts.push_back(part);
  if (parts.size() != 5 && parts.size() != 6) {
    return Unexpected{fmt::format("expected name:base:width:len:kind[:type], got \"{}\"", text)};
  }
  json j = {{"name", parts[0]},
            {"base", parts[1]},
            {"elem_width", parts[2]},
            {"len", parts[3]},
            {"kind", parts[4]}};
  if (parts.size() == 6)
    j["type"] = parts[5];
  // Messages name the field as the flag's usage does (LEN, not "--array.len").
  constexpr std::string_view kPath = "@array";
  try {
    return get_array(j, std::string(kPath), true);
  } catch (const EntryError& e) {
    std::string error = e.message;
    static const std::pair<std::string_view, std::string_view> kFields[] = {
        {".name: ", "NAME: "},
        {".base: ", "BASE: "},
        {".elem_width: ", "WIDTH: "},
        {".len: ", "LEN: "},
        {".kind: ", "KIND: "},
        {".type: ", "TYPE: "},
        {": ", ""}};
    if (error.rfind(kPath, 0) == 0) {
      const std::string_view after = std::string_view(error).substr(kPath.size());
      for (const auto& [field, word] : kFields) {
        if (after.rfind(field, 0) == 0) {
          error = std::string(word) + std::string(after.substr(field.size()));
          break;
        }
      }
    }
    return Unexpected{std::move(error)};
  }
}

Expected<KernelConfig> kernel_config_from_json(const json& j, const std::string& base_dir,
                                               const std::string& json_path) {
  try {
    return get_kernel(j, base_dir, json_path, CtaMode::All);
  } catch (const EntryError& e) {
    return Unexpected{e.message};
  }
}

ManifestResult parse_manifest(std::string_view text, const std::string& path) {
  ManifestResult result;
  auto diag = [&](ptx::SourceLocation where, std::string message) {
    ptx::Diagnostic d;
    d.file = path;
    d.where = where;
    d.message = std::move(message);
    if (where.line != 0)
      d.source_line = std::string(ptx::line_of(text, where.line));
    result.diagnostics.push_back(std::move(d));
  };
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    if (auto pos = what.find(": "); pos != std::string::npos)
      what = what.substr(pos + 2);
    diag(location_at(text, e.byte == 0 ? 0 : e.byte - 1), "invalid JSON: " + what);
    return result;
  }
  if (!root.is_object()) {
    diag({}, "$: expected an object with a \"benchmarks\" array");
    return result;
  }
  for (const auto& [key, value] : root.items()) {
    if (std::find(kTopKeys.begin(), kTopKeys.end(), key) == kTopKeys.end()) {
      diag({}, fmt::format("$.{}: {}", key, unknown_key_message(key, kTopKeys)));
      return result;
    }
  }
  auto it = root.find("benchmarks");
  if (it == root.end() || !it->is_array()) {
    diag({}, "$.benchmarks: expected an array of benchmark entries");
    return result;
  }
  if (it->empty()) {
    diag({}, "$.benchmarks: the list is empty: there is nothing to run");
    return result;
  }
  // Every CTA of each launch, unless the manifest says otherwise: a top-level "ctas", or the
  // Volta corpus's declared convention (`conventions.only_cta0`: CTA (0,0,0) only).
  CtaMode default_ctas = CtaMode::All;
  if (auto c = root.find("conventions");
      c != root.end() && c->is_object() && c->contains("only_cta0"))
    default_ctas = CtaMode::First;
  if (auto c = root.find("ctas"); c != root.end()) {
    try {
      default_ctas = get_cta_mode(*c, "$.ctas");
    } catch (const EntryError& e) {
      diag({}, e.message);
      return result;
    }
  }
  const std::string base_dir = std::filesystem::path(path).parent_path().string();
  Manifest m;
  m.path = path;
  std::map<std::string, size_t> first_with_name;
  for (size_t i = 0; i < it->size(); ++i) {
    ManifestEntry e = get_entry((*it)[i], i, base_dir, default_ctas);
    // Names identify entries in reports, filters and merged shards: two entries with one name
    // would be indistinguishable there.
    const json& raw = (*it)[i];
    if (raw.is_object() && raw.contains("name") && raw["name"].is_string()) {
      auto [first, inserted] = first_with_name.emplace(e.name, i);
      if (!inserted && e.error.empty()) {
        e.error = fmt::format("$.benchmarks[{}].name: duplicate entry name \"{}\" (also "
                              "$.benchmarks[{}])",
                              i, e.name, first->second);
      }
    }
    if (!e.error.empty()) {
      const std::string_view json_path = std::string_view(e.error).substr(0, e.error.find(": "));
      if (auto where = locate_json_path(text, json_path))
        e.error_where = *where;
    }
    m.entries.push_back(std::move(e));
  }
  result.manifest = std::move(m);
  return result;
}

ManifestResult read_manifest(const std::string& path) {
  auto cannot_read = [&](std::string why) {
    ManifestResult r;
    ptx::Diagnostic d;
    d.file = path;
    d.message = "cannot read manifest file: " + why;
    r.diagnostics.push_back(std::move(d));
    return r;
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) // an ifstream opens a folder and reads nothing
    return cannot_read("it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return cannot_read(errno != 0 ? std::strerror(errno) : "cannot open");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_manifest(buffer.str(), path);
}

} // namespace volta::launch
