// Mutations of PTX instructions (see ptx_mutator.hpp).
#include "ptx_mutator.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <string_view>

#include "ptx/printer.hpp"

namespace volta::ptx::testing {

namespace {

// Valid types, and near misses ptxas has never heard of.
constexpr std::array<std::string_view, 31> kTypes = {
    "pred", "b8",  "b16",  "b32", "b64",   "b128", "u8",     "u16",   "u32",   "u64", "s8",
    "s16",  "s32", "s64",  "f16", "f16x2", "bf16", "bf16x2", "tf32",  "f32",   "f64", "e4m3",
    "e5m2", "s33", "f32x", "u24", "b12",   "f8",   "u16x2",  "s16x2", "e4m3x2"};

constexpr std::array<std::string_view, 40> kModifiers = {
    "rn",       "rz",      "rm",      "rp",      "rni",  "rzi",      "ftz",   "sat",
    "approx",   "full",    "lo",      "hi",      "wide", "uni",      "sync",  "aligned",
    "volatile", "relaxed", "acquire", "release", "nc",   "ca",       "cg",    "cs",
    "cta",      "gpu",     "sys",     "to",      "cc",   "shiftamt", "x4",    "trans",
    "NaN",      "relu",    "xorsign", "abs",     "eq",   "lt",       "bogus", "L2::128B"};

constexpr std::array<std::string_view, 8> kSpaces = {"global", "shared",  "local",       "param",
                                                     "const",  "generic", "shared::cta", "reg"};

constexpr std::array<std::string_view, 3> kVectors = {"v2", "v4", "v8"};

// The words of the Hopper forms (TMA, mbarrier, wgmma, proxy fences, warp specialization),
// valid and near misses, swapped into an instruction of those opcodes.
constexpr std::array<std::string_view, 32> kHopperWords = {"1d",
                                                           "2d",
                                                           "3d",
                                                           "4d",
                                                           "6d",
                                                           "shared::cta",
                                                           "shared::cluster",
                                                           "global",
                                                           "mbarrier::complete_tx::bytes",
                                                           "bulk_group",
                                                           "multicast::cluster",
                                                           "L2::cache_hint",
                                                           "tile",
                                                           "im2col",
                                                           "read",
                                                           "parity",
                                                           "expect_tx",
                                                           "arrive",
                                                           "try_wait",
                                                           "test_wait",
                                                           "release",
                                                           "acquire",
                                                           "relaxed",
                                                           "cluster",
                                                           "m64n64k16",
                                                           "m64n120k16",
                                                           "m64n64k8",
                                                           "m64n72k32",
                                                           "inc",
                                                           "dec",
                                                           "mbarrier_init",
                                                           "noComplete"};

bool is_hopper(Opcode op) {
  return op == Opcode::CpAsyncBulk || op == Opcode::Mbarrier || op == Opcode::Wgmma ||
         op == Opcode::Setmaxnreg || op == Opcode::Elect || op == Opcode::Griddepcontrol;
}

bool is_space(std::string_view s) {
  return std::find(kSpaces.begin(), kSpaces.end(), s) != kSpaces.end() || s == "shared::cluster";
}
bool is_vector(std::string_view s) {
  return std::find(kVectors.begin(), kVectors.end(), s) != kVectors.end();
}

template <class T>
const T& pick(const std::vector<T>& v, std::mt19937_64& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}
template <size_t N>
std::string pick(const std::array<std::string_view, N>& a, std::mt19937_64& rng) {
  return std::string(a[std::uniform_int_distribution<size_t>(0, N - 1)(rng)]);
}
size_t below(size_t n, std::mt19937_64& rng) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

std::vector<size_t> indices_where(const Instruction& ins, bool (*pred)(const std::string&)) {
  std::vector<size_t> out;
  for (size_t i = 0; i < ins.suffixes.size(); ++i) {
    if (pred(ins.suffixes[i])) {
      out.push_back(i);
    }
  }
  return out;
}

} // namespace

std::vector<std::pair<uint32_t, const Instruction*>> mutable_lines(const std::string& text,
                                                                   const Module& module) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      end = text.size();
    }
    lines.emplace_back(text.data() + start, end - start);
    start = end + 1;
  }
  std::map<uint32_t, int> per_line;
  std::vector<std::pair<uint32_t, const Instruction*>> out;
  for (const TopLevel& item : module.items) {
    if (const auto* f = std::get_if<Function>(&item)) {
      for (const Statement& s : f->body) {
        if (const auto* ins = std::get_if<Instruction>(&s)) {
          ++per_line[ins->loc.line];
          // Calls carry nvcc's parameter protocol on their line: left alone.
          if (ins->opcode != Opcode::Call) {
            out.emplace_back(ins->loc.line, ins);
          }
        }
      }
    }
  }
  std::erase_if(out, [&](const auto& p) {
    const uint32_t l = p.first;
    if (per_line[l] != 1 || l == 0 || l > lines.size()) {
      return true;
    }
    std::string_view line = lines[l - 1];
    const size_t first = line.find_first_not_of(" \t");
    // The line is the instruction alone: it starts with its guard or opcode (no label before
    // it), holds one statement and nothing after it (no comment, no `}` of inline asm).
    const bool alone =
        first != line.npos &&
        (line[first] == '@' || line.substr(first).starts_with(p.second->opcode_name));
    const size_t semicolon = line.find(';');
    return !alone || std::count(line.begin(), line.end(), ';') != 1 ||
           line.find("//") != line.npos ||
           line.find_first_not_of(" \t\r", semicolon + 1) != line.npos; // `...;}`
  });
  return out;
}

Mutant mutate(const Instruction& ins, uint32_t line, std::mt19937_64& rng) {
  Mutant m;
  m.line = line;
  m.original = print(ins);
  Instruction x = ins;
  auto& sfx = x.suffixes;
  const auto types =
      indices_where(x, [](const std::string& s) { return scalar_type_from(s).has_value(); });
  const auto spaces = indices_where(x, [](const std::string& s) { return is_space(s); });
  const auto vectors = indices_where(x, [](const std::string& s) { return is_vector(s); });
  const auto insert_at = [&](std::string word) {
    sfx.insert(sfx.begin() + static_cast<std::ptrdiff_t>(below(sfx.size() + 1, rng)),
               std::move(word));
  };
  if (is_hopper(ins.opcode) && below(2, rng) == 0) {
    // A Hopper form: one of its words replaced or added, a tensor coordinate dropped, or an
    // immediate moved off its range (imm-scale, imm-trans, a register count).
    m.kind = "hopper";
    switch (below(4, rng)) {
    case 0:
      if (!sfx.empty()) {
        sfx[below(sfx.size(), rng)] = pick(kHopperWords, rng);
        break;
      }
      [[fallthrough]];
    case 1:
      insert_at(pick(kHopperWords, rng));
      break;
    case 2:
      for (Operand& o : x.operands) {
        if (auto* a = std::get_if<AddressOperand>(&o.value); a && !a->coordinates.empty()) {
          if (auto* v = std::get_if<VectorOperand>(&a->coordinates[0].value);
              v && !v->elements.empty()) {
            v->elements.pop_back();
            break;
          }
        }
      }
      break;
    default:
      for (Operand& o : x.operands) {
        if (auto* imm = std::get_if<IntImmediate>(&o.value)) {
          imm->value = imm->value == 1 ? 2 : imm->value + 4;
          break;
        }
      }
      break;
    }
    m.mutated = print(x);
    if (m.mutated == m.original) {
      m.mutated.clear();
    }
    return m;
  }
  switch (below(9, rng)) {
  case 0:
  case 1: // the most telling mutation: a type suffix replaced
    if (types.empty()) {
      return m;
    }
    m.kind = "type";
    sfx[pick(types, rng)] = pick(kTypes, rng);
    break;
  case 2:
    m.kind = "modifier+";
    insert_at(pick(kModifiers, rng));
    break;
  case 3:
    if (sfx.empty()) {
      return m;
    }
    m.kind = "suffix-";
    sfx.erase(sfx.begin() + static_cast<std::ptrdiff_t>(below(sfx.size(), rng)));
    break;
  case 4:
    if (x.operands.empty()) {
      return m;
    }
    m.kind = "operand-";
    x.operands.erase(x.operands.begin() +
                     static_cast<std::ptrdiff_t>(below(x.operands.size(), rng)));
    break;
  case 5:
    if (x.operands.empty()) {
      return m;
    }
    m.kind = "operand+";
    x.operands.push_back(pick(x.operands, rng));
    break;
  case 6:
    m.kind = "space";
    if (!spaces.empty() && below(3, rng) != 0) {
      sfx[pick(spaces, rng)] = pick(kSpaces, rng);
    } else {
      insert_at(pick(kSpaces, rng));
    }
    break;
  case 7:
    m.kind = "vector";
    if (!vectors.empty()) {
      if (below(2, rng) == 0) {
        sfx.erase(sfx.begin() + static_cast<std::ptrdiff_t>(vectors.front()));
      } else {
        sfx[vectors.front()] = pick(kVectors, rng);
      }
    } else if (!types.empty()) {
      sfx.insert(sfx.begin() + static_cast<std::ptrdiff_t>(types.front()), pick(kVectors, rng));
    } else {
      insert_at(pick(kVectors, rng));
    }
    break;
  default:
    m.kind = "type+";
    if (!types.empty() && below(2, rng) == 0) {
      sfx.erase(sfx.begin() + static_cast<std::ptrdiff_t>(pick(types, rng)));
      m.kind = "type-";
    } else {
      insert_at(pick(kTypes, rng));
    }
    break;
  }
  m.mutated = print(x);
  if (m.mutated == m.original) {
    m.mutated.clear();
  }
  return m;
}

std::string apply(const std::string& text, const std::vector<Mutant>& mutants) {
  std::map<uint32_t, const Mutant*> by_line;
  for (const Mutant& m : mutants) {
    by_line[m.line] = &m;
  }
  std::string out;
  out.reserve(text.size() + 64 * mutants.size());
  uint32_t line = 1;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    const bool last = end == std::string::npos;
    if (last) {
      end = text.size();
    }
    if (auto it = by_line.find(line); it != by_line.end()) {
      out += '\t';
      out += it->second->mutated;
    } else {
      out.append(text, start, end - start);
    }
    if (last) {
      break;
    }
    out += '\n';
    start = end + 1;
    ++line;
  }
  return out;
}

} // namespace volta::ptx::testing
