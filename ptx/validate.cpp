// Validation of instructions against the PTX instruction table (see validate.hpp).
#include "ptx/validate.hpp"

#include <cassert>
#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>

#include "ptx/instruction_set.hpp"

namespace volta::ptx {

namespace {

// Calls `f(word)` for each space-separated word of `list`.
template <class F>
void for_each_word(std::string_view list, F&& f) {
  size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && list[i] == ' ') {
      ++i;
    }
    size_t end = list.find(' ', i);
    if (end == std::string_view::npos) {
      end = list.size();
    }
    if (end > i) {
      f(list.substr(i, end - i));
    }
    i = end;
  }
}

bool list_has(std::string_view list, std::string_view word) {
  bool found = false;
  for_each_word(list, [&](std::string_view w) { found = found || w == word; });
  return found;
}

bool is_float_word(std::string_view type) {
  return type.starts_with("f") || type.starts_with("bf") || type.starts_with("tf") ||
         type.starts_with("e") || type.starts_with("ue");
}
bool is_int_word(std::string_view type) {
  return type.starts_with("s") || type.starts_with("u");
}
bool is_bits_word(std::string_view type) { return type.starts_with("b") && !type.starts_with("bf"); }

// Whether a restriction list "T,U" (F, I and B standing for every float, integer, bit type)
// admits `type`.
bool restriction_admits(std::string_view restriction, std::string_view type) {
  bool ok = false;
  size_t i = 0;
  while (i <= restriction.size() && !ok) {
    size_t end = restriction.find(',', i);
    if (end == std::string_view::npos) {
      end = restriction.size();
    }
    std::string_view r = restriction.substr(i, end - i);
    ok = (r == "F" && is_float_word(type)) || (r == "I" && is_int_word(type)) ||
         (r == "B" && is_bits_word(type)) || r == type;
    i = end + 1;
  }
  return ok;
}

// The entry `word[:restriction]` of `list` whose word is `word`, if any.
std::optional<std::string_view> find_entry(std::string_view list, std::string_view word) {
  std::optional<std::string_view> found;
  for_each_word(list, [&](std::string_view entry) {
    const size_t colon = entry.rfind(':');
    // "L2::128B" is a word with colons, not a restriction: a restriction follows one ':'.
    const bool restricted =
        colon != std::string_view::npos && colon > 0 && entry[colon - 1] != ':' &&
        (colon + 1 >= entry.size() || entry[colon + 1] != ':');
    std::string_view w = restricted ? entry.substr(0, colon) : entry;
    if (!found && w == word) {
      found = restricted ? entry.substr(colon + 1) : std::string_view{};
    }
  });
  return found;
}

bool is_rounding(std::string_view w) {
  return w == "rn" || w == "rz" || w == "rm" || w == "rp" || w == "rni" || w == "rzi" ||
         w == "rmi" || w == "rpi" || w == "rna" || w == "rs";
}
bool is_integer_rounding(std::string_view w) {
  return w == "rni" || w == "rzi" || w == "rmi" || w == "rpi";
}

// Declared register types of one function: `%r<18>` declares %r0..%r17.
class RegisterTypes {
public:
  explicit RegisterTypes(const Function& f) {
    for (const Statement& s : f.body) {
      if (const auto* r = std::get_if<RegisterDecl>(&s); r != nullptr && r->vector_width == 1) {
        if (r->count) {
          ranges_[r->name] = {r->type, *r->count};
        } else {
          names_[r->name] = r->type;
        }
      }
    }
  }
  std::optional<ScalarType> type_of(const std::string& name) const {
    if (auto it = names_.find(name); it != names_.end()) {
      return it->second;
    }
    size_t digits = name.size();
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') {
      --digits;
    }
    if (digits == name.size() || digits == 0) {
      return std::nullopt;
    }
    auto it = ranges_.find(name.substr(0, digits));
    uint64_t index = 0;
    auto [_, ec] = std::from_chars(name.data() + digits, name.data() + name.size(), index);
    if (it == ranges_.end() || ec != std::errc{} || index >= it->second.second) {
      return std::nullopt;
    }
    return it->second.first;
  }

private:
  std::unordered_map<std::string, ScalarType> names_;
  std::unordered_map<std::string, std::pair<ScalarType, uint32_t>> ranges_;
};

// PTX's operand type rule: the same size, and the same kind unless one side is a bit type
// (signed and unsigned integers mix; floats match only themselves).
bool register_fits(ScalarType instruction, ScalarType reg) {
  if (instruction == reg) {
    return true;
  }
  if (instruction == ScalarType::Pred || reg == ScalarType::Pred ||
      bit_width(instruction) != bit_width(reg)) {
    return false;
  }
  const TypeKind a = kind_of(instruction);
  const TypeKind b = kind_of(reg);
  if (a == TypeKind::Bits || b == TypeKind::Bits) {
    return true;
  }
  return (a == TypeKind::Signed || a == TypeKind::Unsigned) &&
         (b == TypeKind::Signed || b == TypeKind::Unsigned);
}

// The highest sm_NN of the module's targets (0 when none is given).
uint32_t target_sm(const Module& m) {
  uint32_t best = 0;
  for (const std::string& t : m.targets) {
    if (t.starts_with("sm_")) {
      uint32_t v = 0;
      std::from_chars(t.data() + 3, t.data() + t.size(), v);
      best = std::max(best, v);
    }
  }
  return best;
}

class Validator {
public:
  Validator(const Module& m, std::string_view text, std::vector<Diagnostic>& out, size_t max)
      : module_(m), text_(text), out_(out), max_(max), sm_(target_sm(m)) {}

  void run() {
    for (const TopLevel& item : module_.items) {
      if (const auto* f = std::get_if<Function>(&item); f != nullptr && f->has_body) {
        RegisterTypes regs(*f);
        for (const Statement& s : f->body) {
          if (const auto* ins = std::get_if<Instruction>(&s)) {
            if (reported_ >= max_) {
              return;
            }
            check(*ins, regs);
          }
        }
      }
    }
  }

private:
  // --- locations ---------------------------------------------------------------------------

  // The column of the opcode (the instruction's location is its guard when it has one).
  uint32_t opcode_column(const Instruction& ins) const {
    std::string_view line = line_of(text_, ins.loc.line);
    size_t from = ins.loc.column > 0 ? ins.loc.column - 1 : 0;
    size_t at = line.find(ins.opcode_name, std::min(from, line.size()));
    return at == std::string_view::npos ? ins.loc.column : static_cast<uint32_t>(at + 1);
  }

  // The column of the dot before suffix `index`.
  uint32_t suffix_column(const Instruction& ins, size_t index) const {
    uint32_t col = opcode_column(ins) + static_cast<uint32_t>(ins.opcode_name.size());
    for (size_t i = 0; i < index; ++i) {
      col += 1 + static_cast<uint32_t>(ins.suffixes[i].size());
    }
    return col;
  }

  bool error(SourceLocation where, std::string message) {
    Diagnostic d;
    d.file = module_.path;
    d.where = where;
    d.message = std::move(message);
    d.source_line.assign(line_of(text_, where.line));
    out_.push_back(std::move(d));
    ++reported_;
    return false;
  }
  bool suffix_error(const Instruction& ins, size_t index, std::string message) {
    return error({ins.loc.line, suffix_column(ins, index)}, std::move(message));
  }
  bool instruction_error(const Instruction& ins, std::string message) {
    return error({ins.loc.line, opcode_column(ins)}, std::move(message));
  }

  static std::string q(std::string_view word) { return "'." + std::string(word) + "'"; }
  static std::string name_of(const Instruction& ins) { return "'" + ins.opcode_name + "'"; }

  // --- the checks --------------------------------------------------------------------------

  void check(const Instruction& ins, const RegisterTypes& regs) {
    // Type-like words are checked on every opcode, modelled or not: ".s33" is no type of PTX.
    for (size_t i = 0; i < ins.suffixes.size(); ++i) {
      const std::string& s = ins.suffixes[i];
      if (s.empty()) {
        suffix_error(ins, i, "empty suffix after " + name_of(ins));
        return;
      }
      if (looks_like_type(s) && !is_ptx_type(s) && !list_has(kPrmtModes, s)) {
        suffix_error(ins, i, "unknown type " + q(s));
        return;
      }
    }
    const InstructionRule* rule = instruction_rule(ins.opcode_name);
    if (rule == nullptr) {
      return; // not checked further: the engine refuses what it does not model
    }
    std::vector<std::string_view> types;
    if (!check_suffixes(ins, *rule, types) || !check_required(ins, *rule, types) ||
        !check_operands(ins, *rule, types, regs)) {
      return;
    }
    if (ins.opcode_name == "cvt") {
      check_cvt_rounding(ins, types);
    }
  }

  bool check_suffixes(const Instruction& ins, const InstructionRule& rule,
                      std::vector<std::string_view>& types) {
    // Types first: a modifier's restriction refers to the first type.
    for (const std::string& s : ins.suffixes) {
      if (list_has(rule.types, s)) {
        types.push_back(s);
      }
    }
    const std::string_view first = types.empty() ? std::string_view{} : types.front();
    bool space_seen = false;
    int roundings = 0;
    for (size_t i = 0; i < ins.suffixes.size(); ++i) {
      const std::string& s = ins.suffixes[i];
      if (list_has(rule.types, s)) {
        continue;
      }
      if (is_ptx_type(s)) {
        return suffix_error(ins, i, "type " + q(s) + " is not allowed for " + name_of(ins));
      }
      if (s == "v2" || s == "v4" || s == "v8") {
        if (!list_has(rule.vectors, s)) {
          return suffix_error(ins, i,
                              "vector width " + q(s) + " is not allowed for " + name_of(ins));
        }
        if (s == "v8" && sm_ < 100) {
          return suffix_error(ins, i,
                              "'.v8' (256-bit load or store) needs sm_100 or newer, the target "
                              "is sm_" + std::to_string(sm_));
        }
        continue;
      }
      if (list_has(rule.spaces, s)) {
        if (space_seen) {
          return suffix_error(ins, i, "a second state space " + q(s));
        }
        space_seen = true;
        continue;
      }
      if (auto restriction = find_entry(rule.modifiers, s)) {
        if (!restriction->empty() && !restriction_admits(*restriction, first)) {
          return suffix_error(ins, i,
                              "modifier " + q(s) + " does not apply to " +
                                  (first.empty() ? std::string("this form") : q(first)) +
                                  " of " + name_of(ins));
        }
        if (is_rounding(s) && ++roundings > 1) {
          return suffix_error(ins, i, "more than one rounding modifier");
        }
        continue;
      }
      const std::string_view head = std::string_view(s).substr(0, s.find("::"));
      if (state_space_from(head)) {
        return suffix_error(ins, i, "state space " + q(s) + " is not allowed for " + name_of(ins));
      }
      return suffix_error(ins, i, "modifier " + q(s) + " is not allowed for " + name_of(ins));
    }
    if (types.size() < rule.min_types) {
      return instruction_error(ins, name_of(ins) + " needs " + std::to_string(rule.min_types) +
                                        " type suffix" + (rule.min_types > 1 ? "es" : "") +
                                        ", found " + std::to_string(types.size()));
    }
    if (types.size() > rule.max_types) {
      return instruction_error(ins, name_of(ins) + " takes at most " +
                                        std::to_string(rule.max_types) + " type suffix" +
                                        (rule.max_types == 1 ? "" : "es") + ", found " +
                                        std::to_string(types.size()));
    }
    if (rule.space_required && !space_seen) {
      return instruction_error(ins, name_of(ins) + " needs a state space");
    }
    return true;
  }

  // Each group "a|b|c[:T]" of `required`: exactly one of its words when the first type fits T.
  bool check_required(const Instruction& ins, const InstructionRule& rule,
                      const std::vector<std::string_view>& types) {
    const std::string_view first = types.empty() ? std::string_view{} : types.front();
    bool ok = true;
    for_each_word(rule.required, [&](std::string_view group) {
      if (!ok) {
        return;
      }
      const size_t colon = group.find(':');
      if (colon != std::string_view::npos &&
          !restriction_admits(group.substr(colon + 1), first)) {
        return;
      }
      const std::string_view words = group.substr(0, colon);
      int present = 0;
      for (const std::string& s : ins.suffixes) {
        size_t i = 0;
        while (i <= words.size()) {
          size_t end = words.find('|', i);
          if (end == std::string_view::npos) {
            end = words.size();
          }
          present += words.substr(i, end - i) == s;
          i = end + 1;
        }
      }
      std::string shown;
      for (char c : words) {
        shown += c == '|' ? std::string(", .") : std::string(1, c);
      }
      if (present == 0) {
        ok = instruction_error(ins, name_of(ins) +
                                        (first.empty() ? std::string() : " " + q(first)) +
                                        " needs one of ." + shown);
      } else if (present > 1) {
        ok = instruction_error(ins, name_of(ins) + " takes only one of ." + shown);
      }
    });
    return ok;
  }

  bool check_operands(const Instruction& ins, const InstructionRule& rule,
                      const std::vector<std::string_view>& types, const RegisterTypes& regs) {
    const size_t n = ins.operands.size();
    if (n < rule.min_operands || n > rule.max_operands) {
      std::string expected = std::to_string(rule.min_operands);
      if (rule.max_operands != rule.min_operands) {
        expected += " to " + std::to_string(rule.max_operands);
      }
      return instruction_error(ins, name_of(ins) + " takes " + expected + " operand" +
                                        (rule.max_operands == 1 ? "" : "s") + ", found " +
                                        std::to_string(n));
    }
    // The register type the capital letters require: only for a single value type.
    std::optional<ScalarType> typed;
    if (types.size() == 1) {
      typed = scalar_type_from(types.front());
    }
    std::vector<char> kinds;
    for_each_word(rule.operands, [&](std::string_view k) { kinds.push_back(k.front()); });
    for (size_t i = 0; i < n; ++i) {
      assert(!kinds.empty() || n == 0);
      const char kind = kinds.empty() ? '*' : kinds[std::min(i, kinds.size() - 1)];
      const Operand& op = ins.operands[i];
      if (!check_kind(ins, op, kind, i)) {
        return false;
      }
      const auto* name = std::get_if<NameOperand>(&op.value);
      if (name == nullptr) {
        continue;
      }
      const std::optional<ScalarType> reg = regs.type_of(name->name);
      if (!reg) {
        continue; // a special register, a variable's address, a label: not typed here
      }
      // `.wide` doubles the result, and the addend of mad.wide: those registers are wider.
      const bool wide_operand = ins.has_suffix("wide") && (i == 0 || i == 3);
      if ((kind == 'D' || kind == 'S') && typed && !wide_operand &&
          !register_fits(*typed, *reg)) {
        return error(op.loc, "operand " + name->name + " is declared ." + spelling(*reg) +
                                 ", which does not fit the instruction type ." +
                                 spelling(*typed));
      }
      if ((kind == 'P' || kind == 'p') && *reg != ScalarType::Pred) {
        return error(op.loc, "operand " + name->name + " of " + name_of(ins) +
                                 " must be a predicate, it is declared ." + spelling(*reg));
      }
    }
    return check_vector_data(ins);
  }

  bool check_kind(const Instruction& ins, const Operand& op, char kind, size_t i) {
    const bool address = op.is<AddressOperand>();
    const bool immediate = op.is<IntImmediate>() || op.is<FloatImmediate>();
    const std::string where = "operand " + std::to_string(i + 1) + " of " + name_of(ins);
    switch (kind) {
    case 'd':
    case 'D':
    case 'P':
      if (address || immediate || op.is<ParenListOperand>()) {
        return error(op.loc, where + " is a destination: it must be a register");
      }
      return true;
    case 's':
    case 'S':
    case 'p':
      if (address || op.is<ParenListOperand>() || op.is<PairOperand>()) {
        return error(op.loc, where + " must be a register or an immediate");
      }
      return true;
    case 'm':
      if (!address) {
        return error(op.loc, where + " must be an address in '[ ]'");
      }
      return true;
    case 'l':
      if (!op.is<NameOperand>() || op.as<NameOperand>().negated) {
        return error(op.loc, where + " must be a label");
      }
      return true;
    default:
      return true;
    }
  }

  // ld/ldu/st with `.vN` move a brace vector of N elements; without, a single register.
  bool check_vector_data(const Instruction& ins) {
    const bool load = ins.opcode_name == "ld" || ins.opcode_name == "ldu";
    if (!load && ins.opcode_name != "st") {
      return true;
    }
    const size_t data = load ? 0 : 1;
    if (ins.operands.size() <= data) {
      return true;
    }
    const Operand& op = ins.operands[data];
    const auto* v = std::get_if<VectorOperand>(&op.value);
    if (ins.vector_width > 1 && (v == nullptr || v->elements.size() != ins.vector_width)) {
      return error(op.loc, "'.v" + std::to_string(ins.vector_width) + "' needs a vector of " +
                               std::to_string(ins.vector_width) + " elements here");
    }
    if (ins.vector_width == 1 && v != nullptr) {
      return error(op.loc, "a vector operand needs a '.v2', '.v4' or '.v8' suffix");
    }
    return true;
  }

  // cvt's rounding: a float result from an integer, or a narrower float, needs a float rounding
  // (.rn .rz .rm .rp, .rna for tf32, .rs); an integer from a float needs an integer rounding
  // (.rni ...); a float of the same format takes only an integer rounding; anything else none.
  bool check_cvt_rounding(const Instruction& ins, const std::vector<std::string_view>& types) {
    assert(types.size() == 2);
    const std::string_view to = types[0];
    const std::string_view from = types[1];
    std::optional<std::string_view> rounding;
    for (const std::string& s : ins.suffixes) {
      if (is_rounding(s)) {
        rounding = s;
      }
    }
    const auto width = [](std::string_view t) -> uint32_t {
      auto s = scalar_type_from(t);
      return s ? bit_width(*s) : 0;
    };
    const bool to_float = is_float_word(to);
    const bool from_float = is_float_word(from);
    enum class Need { None, Float, Integer, OptionalInteger, Unknown } need = Need::Unknown;
    if (to_float && !from_float) {
      need = Need::Float;
    } else if (!to_float && from_float) {
      need = Need::Integer;
    } else if (!to_float && !from_float) {
      need = Need::None;
    } else if (to == from) {
      need = Need::OptionalInteger;
    } else if (width(to) != 0 && width(from) != 0 && width(to) > width(from) &&
               !to.ends_with("x2")) {
      need = Need::None; // widening: exact
    } else if (width(to) != 0 && width(from) != 0 && width(to) < width(from)) {
      need = Need::Float;
    }
    switch (need) {
    case Need::Unknown:
      return true; // the packed and 8-bit float forms: their rules are not in this table
    case Need::None:
      if (rounding) {
        return instruction_error(ins, "'cvt." + std::string(to) + "." + std::string(from) +
                                          "' takes no rounding modifier");
      }
      return true;
    case Need::OptionalInteger:
      if (rounding && !is_integer_rounding(*rounding)) {
        return instruction_error(ins, "'cvt." + std::string(to) + "." + std::string(from) +
                                          "' takes only an integer rounding (.rni .rzi .rmi .rpi)");
      }
      return true;
    case Need::Float:
      if (!rounding || is_integer_rounding(*rounding)) {
        return instruction_error(ins, "'cvt." + std::string(to) + "." + std::string(from) +
                                          "' needs a rounding modifier (.rn .rz .rm .rp)");
      }
      return true;
    case Need::Integer:
      if (!rounding || !is_integer_rounding(*rounding)) {
        return instruction_error(ins, "'cvt." + std::string(to) + "." + std::string(from) +
                                          "' needs an integer rounding (.rni .rzi .rmi .rpi)");
      }
      return true;
    }
    return true;
  }

  static constexpr std::string_view kPrmtModes = "f4e b4e rc8 ecl ecr rc16";

  const Module& module_;
  std::string_view text_;
  std::vector<Diagnostic>& out_;
  size_t max_;
  size_t reported_ = 0;
  uint32_t sm_;
};

} // namespace

void validate(const Module& module, std::string_view text, std::vector<Diagnostic>& out,
              size_t max_errors) {
  Validator(module, text, out, max_errors).run();
}

} // namespace volta::ptx
