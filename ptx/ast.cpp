// Spellings, lookups and equality of the PTX syntax tree (see ast.hpp).
#include "ptx/ast.hpp"

#include <array>
#include <string_view>

#include "support/invariant.hpp"

namespace volta::ptx {

namespace {

// The spelling tables are indexed by enumerator value; keep them in enum order.
constexpr size_t kTypeCount = static_cast<size_t>(ScalarType::E5M2x2) + 1;
constexpr std::array<const char*, kTypeCount> kTypeSpellings = {
    "",       "pred", "b8",  "b16", "b32",  "b64",  "b128",   "u8",    "u16",
    "u32",    "u64",  "s8",  "s16", "s32",  "s64",  "f16",    "f16x2", "bf16",
    "bf16x2", "tf32", "f32", "f64", "e4m3", "e5m2", "e4m3x2", "e5m2x2"};

constexpr std::array<const char*, 10> kSpaceSpellings = {
    "", "reg", "sreg", "const", "global", "local", "param", "shared", "tex", "generic"};

constexpr std::array<const char*, static_cast<size_t>(Modifier::Count_)> kModifierSpellings = {
    "rn",       "rz",      "rm",      "rp",      "rni",  "rzi", "rmi", "rpi",    "rna",  "ftz",
    "sat",      "relu",    "approx",  "full",    "wide", "lo",  "hi",  "uni",    "sync", "aligned",
    "volatile", "relaxed", "acquire", "release", "weak", "nc",  "ca",  "cg",     "cs",   "lu",
    "cv",       "wb",      "wt",      "to",      "cta",  "gpu", "sys", "cluster"};

// "other", then opcodes.def's spellings in its order: the enum's order by construction.
constexpr std::array<const char*, kOpcodeCount> kOpcodeSpellings = {
    "other",
#define PTX_OPCODE(name, spelling, form) spelling,
#include "ptx/opcodes.def"
#undef PTX_OPCODE
};

// Every enumerator has a spelling: a table one entry short fails to compile.
template <size_t N>
constexpr bool all_spelled(const std::array<const char*, N>& table) {
  for (const char* s : table) {
    if (s == nullptr) {
      return false;
    }
  }
  return true;
}
static_assert(all_spelled(kTypeSpellings));
static_assert(all_spelled(kSpaceSpellings));
static_assert(all_spelled(kModifierSpellings));
static_assert(all_spelled(kOpcodeSpellings));

// Index of `s` in `table`, skipping the first `first` entries (the "none" spellings).
template <size_t N>
int find_spelling(const std::array<const char*, N>& table, std::string_view s, size_t first) {
  for (size_t i = first; i < N; ++i) {
    if (s == table[i]) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// Checked arithmetic for size_bytes(): a fuzzed `[4294967295][4294967295]...` must not wrap.
bool mul_overflows(uint64_t a, uint64_t b, uint64_t& out) {
  return __builtin_mul_overflow(a, b, &out);
}

} // namespace

uint32_t bit_width(ScalarType t) {
  switch (t) {
  case ScalarType::None:
    return 0;
  case ScalarType::Pred:
    return 1;
  case ScalarType::B8:
  case ScalarType::U8:
  case ScalarType::S8:
  case ScalarType::E4M3:
  case ScalarType::E5M2:
    return 8;
  case ScalarType::B16:
  case ScalarType::U16:
  case ScalarType::S16:
  case ScalarType::F16:
  case ScalarType::BF16:
  case ScalarType::E4M3x2:
  case ScalarType::E5M2x2:
    return 16;
  case ScalarType::B32:
  case ScalarType::U32:
  case ScalarType::S32:
  case ScalarType::F32:
  case ScalarType::F16x2:
  case ScalarType::BF16x2:
  case ScalarType::TF32:
    return 32;
  case ScalarType::B64:
  case ScalarType::U64:
  case ScalarType::S64:
  case ScalarType::F64:
    return 64;
  case ScalarType::B128:
    return 128;
  }
  VOLTA_UNREACHABLE("ScalarType value outside the enum");
}

TypeKind kind_of(ScalarType t) {
  switch (t) {
  case ScalarType::None:
    return TypeKind::None;
  case ScalarType::Pred:
    return TypeKind::Pred;
  case ScalarType::B8:
  case ScalarType::B16:
  case ScalarType::B32:
  case ScalarType::B64:
  case ScalarType::B128:
    return TypeKind::Bits;
  case ScalarType::U8:
  case ScalarType::U16:
  case ScalarType::U32:
  case ScalarType::U64:
    return TypeKind::Unsigned;
  case ScalarType::S8:
  case ScalarType::S16:
  case ScalarType::S32:
  case ScalarType::S64:
    return TypeKind::Signed;
  case ScalarType::F16:
  case ScalarType::F16x2:
  case ScalarType::BF16:
  case ScalarType::BF16x2:
  case ScalarType::TF32:
  case ScalarType::F32:
  case ScalarType::F64:
  case ScalarType::E4M3:
  case ScalarType::E5M2:
  case ScalarType::E4M3x2:
  case ScalarType::E5M2x2:
    return TypeKind::Float;
  }
  VOLTA_UNREACHABLE("ScalarType value outside the enum");
}

bool is_signed(ScalarType t) {
  return kind_of(t) == TypeKind::Signed;
}

bool is_float(ScalarType t) {
  return kind_of(t) == TypeKind::Float;
}

const char* spelling(ScalarType t) {
  auto i = static_cast<size_t>(t);
  return i < kTypeCount ? kTypeSpellings[i] : "";
}

std::optional<ScalarType> scalar_type_from(std::string_view dotless) {
  int i = find_spelling(kTypeSpellings, dotless, 1);
  if (i < 0) {
    return std::nullopt;
  }
  return static_cast<ScalarType>(i);
}

const char* spelling(StateSpace s) {
  auto i = static_cast<size_t>(s);
  return i < kSpaceSpellings.size() ? kSpaceSpellings[i] : "";
}

std::optional<StateSpace> state_space_from(std::string_view dotless) {
  int i = find_spelling(kSpaceSpellings, dotless, 1);
  if (i < 0) {
    return std::nullopt;
  }
  return static_cast<StateSpace>(i);
}

const char* spelling(Opcode op) {
  auto i = static_cast<size_t>(op);
  return i < kOpcodeSpellings.size() ? kOpcodeSpellings[i] : "other";
}

Opcode opcode_from(std::string_view name) {
  int i = find_spelling(kOpcodeSpellings, name, 1);
  return i < 0 ? Opcode::Other : static_cast<Opcode>(i);
}

const char* spelling(Modifier m) {
  auto i = static_cast<size_t>(m);
  return i < kModifierSpellings.size() ? kModifierSpellings[i] : "";
}

std::optional<Modifier> modifier_from(std::string_view dotless) {
  int i = find_spelling(kModifierSpellings, dotless, 0);
  if (i < 0) {
    return std::nullopt;
  }
  return static_cast<Modifier>(i);
}

bool Instruction::has_suffix(std::string_view s) const {
  if (!s.empty() && s.front() == '.') {
    s.remove_prefix(1);
  }
  for (const std::string& suffix : suffixes) {
    if (suffix == s) {
      return true;
    }
  }
  return false;
}

bool operator==(const Instruction& a, const Instruction& b) {
  return a.guard == b.guard && a.opcode == b.opcode && a.opcode_name == b.opcode_name &&
         a.suffixes == b.suffixes && a.modifiers == b.modifiers && a.space == b.space &&
         a.types == b.types && a.vector_width == b.vector_width && a.cmp == b.cmp &&
         a.bool_op == b.bool_op && a.operands == b.operands && a.debug_loc == b.debug_loc;
}

std::optional<uint64_t> VariableDecl::size_bytes() const {
  uint64_t element_bits = bit_width(type);
  if (element_bits == 0 || element_bits % 8 != 0) {
    return std::nullopt;
  }
  uint64_t size = 0;
  if (mul_overflows(element_bits / 8, vector_width, size)) {
    return std::nullopt;
  }
  for (const auto& extent : dims) {
    if (!extent || mul_overflows(size, *extent, size)) {
      return std::nullopt;
    }
  }
  return size;
}

bool operator==(const VariableDecl& a, const VariableDecl& b) {
  return a.linkage == b.linkage && a.space == b.space && a.align == b.align &&
         a.vector_width == b.vector_width && a.type == b.type && a.name == b.name &&
         a.dims == b.dims && a.init == b.init && a.has_init == b.has_init && a.is_ptr == b.is_ptr &&
         a.ptr_space == b.ptr_space && a.ptr_align == b.ptr_align && a.opaque == b.opaque &&
         a.managed == b.managed;
}

bool operator==(const RegisterDecl& a, const RegisterDecl& b) {
  return a.type == b.type && a.vector_width == b.vector_width && a.name == b.name &&
         a.count == b.count;
}

bool operator==(const Function& a, const Function& b) {
  return a.is_entry == b.is_entry && a.linkage == b.linkage && a.name == b.name &&
         a.returns == b.returns && a.params == b.params && a.directives == b.directives &&
         a.has_body == b.has_body && a.body == b.body;
}

bool operator==(const Module& a, const Module& b) {
  return a.version_major == b.version_major && a.version_minor == b.version_minor &&
         a.targets == b.targets && a.address_size == b.address_size && a.items == b.items &&
         a.debug_sections == b.debug_sections;
}

const Function* Module::find_function(std::string_view name) const {
  const Function* prototype = nullptr;
  for (const TopLevel& item : items) {
    if (const auto* f = std::get_if<Function>(&item); f != nullptr && f->name == name) {
      if (f->has_body) {
        return f;
      }
      if (prototype == nullptr) {
        prototype = f;
      }
    }
  }
  return prototype;
}

const VariableDecl* Module::find_variable(std::string_view name) const {
  for (const TopLevel& item : items) {
    if (const auto* v = std::get_if<VariableDecl>(&item); v != nullptr && v->name == name) {
      return v;
    }
  }
  return nullptr;
}

std::vector<const Function*> Module::entries() const {
  std::vector<const Function*> out;
  for (const TopLevel& item : items) {
    if (const auto* f = std::get_if<Function>(&item); f != nullptr && f->is_entry) {
      out.push_back(f);
    }
  }
  return out;
}

const FileDirective* Module::find_file(uint32_t index) const {
  for (const TopLevel& item : items) {
    if (const auto* f = std::get_if<FileDirective>(&item); f != nullptr && f->index == index) {
      return f;
    }
  }
  return nullptr;
}

} // namespace volta::ptx
