// Validation of instructions against the PTX instruction table (see validate.hpp).
#include "ptx/validate.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>

#include "ptx/async_forms.hpp"
#include "ptx/instruction_set.hpp"
#include "support/invariant.hpp"

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
bool is_bits_word(std::string_view type) {
  return type.starts_with("b") && !type.starts_with("bf");
}

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
    const bool restricted = colon != std::string_view::npos && colon > 0 &&
                            entry[colon - 1] != ':' &&
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

// ld, st and cvt allow a wider register for an integer or bit type (`ld.global.u8 %r1`, a
// .b32 register); a float type still needs its own size.
bool register_fits_widening(ScalarType instruction, ScalarType reg) {
  if (register_fits(instruction, reg)) {
    return true;
  }
  const TypeKind a = kind_of(instruction);
  const TypeKind b = kind_of(reg);
  if (bit_width(reg) <= bit_width(instruction) || a == TypeKind::Pred || b == TypeKind::Pred) {
    return false;
  }
  // A wider bit register holds anything (`ld.global.f32 %rd1`), a bit type goes into anything
  // wider (`ld.global.b16 %f1`), an integer into a wider integer; a float never into a wider
  // float or integer register (`ld.global.f32 %fd1`, `ld.global.u8 %f1` are refused).
  const bool a_int = a == TypeKind::Signed || a == TypeKind::Unsigned;
  const bool b_int = b == TypeKind::Signed || b == TypeKind::Unsigned;
  return b == TypeKind::Bits || a == TypeKind::Bits || (a_int && b_int);
}

// Whether `name` is one of PTX's special registers (%tid.x, %clock64, %envreg3, %pm0_64, ...).
bool is_special_register(std::string_view name) {
  if (!name.starts_with("%")) {
    return false;
  }
  name.remove_prefix(1);
  name = name.substr(0, name.find('.'));
  for (std::string_view prefix : {"pm", "envreg", "reserved_smem_offset"}) {
    if (name.starts_with(prefix)) {
      return true;
    }
  }
  static constexpr std::string_view kNames[] = {"tid",
                                                "ntid",
                                                "ctaid",
                                                "nctaid",
                                                "laneid",
                                                "warpid",
                                                "nwarpid",
                                                "smid",
                                                "nsmid",
                                                "gridid",
                                                "lanemask_eq",
                                                "lanemask_le",
                                                "lanemask_lt",
                                                "lanemask_ge",
                                                "lanemask_gt",
                                                "clock",
                                                "clock_hi",
                                                "clock64",
                                                "globaltimer",
                                                "globaltimer_lo",
                                                "globaltimer_hi",
                                                "dynamic_smem_size",
                                                "total_smem_size",
                                                "aggr_smem_size",
                                                "current_graph_exec",
                                                "is_explicit_cluster",
                                                "clusterid",
                                                "nclusterid",
                                                "cluster_ctaid",
                                                "cluster_nctaid",
                                                "cluster_ctarank",
                                                "cluster_nctarank"};
  for (std::string_view n : kNames) {
    if (name == n) {
      return true;
    }
  }
  return false;
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
    std::unordered_map<std::string, StateSpace> module_spaces;
    for (const TopLevel& item : module_.items) {
      if (const auto* v = std::get_if<VariableDecl>(&item)) {
        module_spaces[v->name] = v->space;
      }
    }
    for (const TopLevel& item : module_.items) {
      if (const auto* f = std::get_if<Function>(&item); f != nullptr && f->has_body) {
        RegisterTypes regs(*f);
        spaces_ = module_spaces;
        for (const VariableDecl& p : f->params) {
          spaces_[p.name] = p.space;
        }
        for (const VariableDecl& p : f->returns) {
          spaces_[p.name] = p.space;
        }
        for (const Statement& s : f->body) {
          if (const auto* v = std::get_if<VariableDecl>(&s)) {
            spaces_[v->name] = v->space;
          }
        }
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
    if (ins.opcode_name == "cp" &&
        (ins.suffixes.empty() || (ins.suffixes[0] != "async" && ins.suffixes[0] != "reduce"))) {
      instruction_error(ins, "unknown instruction 'cp" +
                                 (ins.suffixes.empty() ? std::string() : "." + ins.suffixes[0]) +
                                 "' (cp.async... or cp.reduce.async...)");
      return;
    }
    if (ins.opcode == Opcode::CpAsync) {
      // sm_80's cp.async has no row in the table; its operand counts are checked here (ptxas:
      // "Arguments mismatch"): a copy takes [dst], [src], cp-size and at most a src-size or
      // ignore-src and a cache policy; commit_group and wait_all none; wait_group one.
      const bool commit_or_all = ins.has_suffix("commit_group") || ins.has_suffix("wait_all");
      const bool wait_group = ins.has_suffix("wait_group");
      const size_t n = ins.operands.size();
      const bool ok = commit_or_all ? n == 0 : wait_group ? n == 1 : n >= 3 && n <= 5;
      if (!ok) {
        const char* expected = commit_or_all ? "no" : wait_group ? "1" : "3 to 5";
        instruction_error(ins, "'cp.async' " +
                                   std::string(commit_or_all || wait_group ? "of this form " : "") +
                                   "takes " + expected + " operands, found " + std::to_string(n));
        return;
      }
    }
    const InstructionRule* rule = instruction_rule(ins.opcode_name);
    if (rule != nullptr) {
      std::vector<std::string_view> types;
      if (!check_suffixes(ins, *rule, types) || !check_required(ins, *rule, types) ||
          !check_operands(ins, *rule, types, regs)) {
        return;
      }
      if (ins.opcode_name == "cvt" && check_cvt_rounding(ins, types)) {
        check_cvt_registers(ins, types, regs);
        return;
      }
      if (ins.opcode_name == "redux" && !check_redux(ins, types))
        return;
      // bar.arrive a, b: the thread count is not optional (ptxas 13: "Arguments mismatch for
      // instruction 'bar.arrive'"; a barrier.cluster.arrive takes no operand at all).
      if ((ins.opcode_name == "bar" || ins.opcode_name == "barrier") && ins.has_suffix("arrive") &&
          !ins.has_suffix("cluster") && ins.operands.size() != 2) {
        instruction_error(ins, "'" + ins.opcode_name +
                                   ".arrive' takes a barrier and a thread "
                                   "count, found " +
                                   std::to_string(ins.operands.size()) + " operand(s)");
        return;
      }
      if (ins.opcode_name == "match" && ins.has_suffix("any") && !ins.operands.empty() &&
          ins.operands[0].is<PairOperand>()) {
        // ptxas 13: "Predicate output not allowed for instruction 'match.any'".
        instruction_error(ins, "'match.any' has no predicate output (only 'match.all' has one)");
        return;
      }
    }
    // The Hopper forms (TMA, mbarrier, wgmma...), with or without a row; an opcode with
    // neither is not checked further: the engine refuses what it does not model.
    if (auto problem = async_form_problem(ins)) {
      report_form_problem(ins, *problem);
    }
  }

  void report_form_problem(const Instruction& ins, const FormProblem& p) {
    switch (p.at) {
    case FormProblem::At::Suffix:
      suffix_error(ins, p.index, p.message);
      return;
    case FormProblem::At::Operand:
      VOLTA_ASSERT(p.index < ins.operands.size(), "a form problem names an operand it has");
      error(ins.operands[p.index].loc, p.message);
      return;
    case FormProblem::At::Opcode:
      instruction_error(ins, p.message);
      return;
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
        if ((s == "u16x2" || s == "s16x2") && sm_ < 90) {
          return suffix_error(ins, i, "the packed type " + q(s) + " needs sm_90 or newer");
        }
        const bool bf16_arith =
            ins.opcode_name == "add" || ins.opcode_name == "sub" || ins.opcode_name == "mul";
        if (bf16_arith && (s == "bf16" || s == "bf16x2") && sm_ < 90) {
          return suffix_error(ins, i,
                              q(s) + " " + name_of(ins) + " needs sm_90 or newer (fma.rn." + s +
                                  " runs on sm_80)");
        }
        // bf16 comparisons came with sm_90 too (ptxas: "Feature 'setp.bf16' requires .target
        // sm_90 or higher"); sm_80 compares bf16 data converted to f32.
        const bool comparison = ins.opcode_name == "setp" || ins.opcode_name == "set";
        if (comparison && (s == "bf16" || s == "bf16x2") && sm_ < 90) {
          return suffix_error(ins, i, q(s) + " " + name_of(ins) + " needs sm_90 or newer");
        }
        continue;
      }
      for (size_t k = 0; k < i; ++k) {
        if (ins.suffixes[k] == s) {
          return suffix_error(ins, i, "duplicate modifier " + q(s));
        }
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
                              "is sm_" +
                                  std::to_string(sm_));
        }
        // ptxas 13: "Feature 'red instruction with vector types' requires .target sm_90 or
        // higher" and "... requires PTX ISA .version 8.1 or later" (atom's likewise).
        if (ins.opcode_name == "red" || ins.opcode_name == "atom") {
          if (sm_ != 0 && sm_ < 90) {
            return suffix_error(ins, i,
                                "a vector " + name_of(ins) +
                                    " needs sm_90 or newer, the target is sm_" +
                                    std::to_string(sm_));
          }
          const uint32_t version = module_.version_major * 10 + module_.version_minor;
          if (module_.version_major != 0 && version < 81) {
            return suffix_error(ins, i,
                                "a vector " + name_of(ins) +
                                    " needs PTX ISA 8.1 or later, the "
                                    "module is " +
                                    std::to_string(module_.version_major) + "." +
                                    std::to_string(module_.version_minor));
          }
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
                                  (first.empty() ? std::string("this form") : q(first)) + " of " +
                                  name_of(ins));
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
      return instruction_error(
          ins, name_of(ins) + " takes at most " + std::to_string(rule.max_types) + " type suffix" +
                   (rule.max_types == 1 ? "" : "es") + ", found " + std::to_string(types.size()));
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
      if (colon != std::string_view::npos && !restriction_admits(group.substr(colon + 1), first)) {
        return;
      }
      const std::string_view words = group.substr(0, colon);
      if (words == "sync" && sm_ != 0 && sm_ < 70) {
        return; // shfl and vote without .sync: removed from sm_70 on, valid before
      }
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
        ok =
            instruction_error(ins, name_of(ins) + (first.empty() ? std::string() : " " + q(first)) +
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
      // The packed integers (add.u16x2) live in 32-bit integer registers.
      typed = types.front() == "u16x2" || types.front() == "s16x2"
                  ? ScalarType::U32
                  : scalar_type_from(types.front());
    }
    if ((ins.opcode_name == "min" || ins.opcode_name == "max") && n == 4 && sm_ < 100) {
      return instruction_error(ins, name_of(ins) + " with three inputs needs sm_100 or newer");
    }
    if (ins.opcode_name == "setp" || ins.opcode_name == "set") {
      const bool combined = ins.bool_op != BoolOp::None;
      if (combined != (n == 4)) {
        return instruction_error(ins, combined ? name_of(ins) + " with .and, .or or .xor takes "
                                                                "a fourth operand (a predicate)"
                                               : name_of(ins) + " with a fourth operand needs "
                                                                ".and, .or or .xor");
      }
    }
    if (ins.has_suffix("xorsign") && !ins.has_suffix("abs")) {
      return instruction_error(ins, "'.xorsign' needs '.abs'");
    }
    if ((ins.opcode_name == "min" || ins.opcode_name == "max") && ins.has_suffix("abs") &&
        sm_ < 86) {
      // ptxas 13: "Feature '.abs' requires .target sm_86 or higher" (.xorsign needs .abs).
      return instruction_error(ins, name_of(ins) + " with .abs needs sm_86 or newer");
    }
    if (ins.opcode_name == "mov" && ins.vector_width > 1 && typed) {
      // mov.v2.b32 {a, b}, {c, d}: every element holds one value of the type.
      for (const Operand& op : ins.operands) {
        if (const auto* v = std::get_if<VectorOperand>(&op.value)) {
          for (const Operand& e : v->elements) {
            const auto* name = std::get_if<NameOperand>(&e.value);
            const std::optional<ScalarType> reg =
                name != nullptr ? regs.type_of(name->name) : std::nullopt;
            if (reg && !register_fits(*typed, *reg)) {
              return error(e.loc, "operand " + name->name + " is declared ." + spelling(*reg) +
                                      ", which does not fit the instruction type ." +
                                      spelling(*typed));
            }
          }
        }
      }
    }
    if (ins.opcode_name == "shfl" && n != (ins.has_suffix("sync") ? 5u : 4u)) {
      return instruction_error(ins, std::string("'shfl") + (ins.has_suffix("sync") ? ".sync" : "") +
                                        "' takes " + (ins.has_suffix("sync") ? "5" : "4") +
                                        " operands, found " + std::to_string(n));
    }
    if (ins.opcode_name == "atom" || ins.opcode_name == "red") {
      // atom: d, [a], b (and c for cas); red: [a], b; plus a cache policy with .L2::cache_hint.
      const bool atom = ins.opcode_name == "atom";
      const size_t expected = (atom ? 3 : 2) + (ins.has_suffix("cas") ? 1 : 0) +
                              (ins.has_suffix("L2::cache_hint") ? 1 : 0);
      if (n != expected) {
        return instruction_error(ins, name_of(ins) + " of this form takes " +
                                          std::to_string(expected) + " operands, found " +
                                          std::to_string(n));
      }
      const bool float_vector =
          !types.empty() && (types.front() == "f32" || types.front().starts_with("f16") ||
                             types.front().starts_with("bf16"));
      if (ins.vector_width > 1 && !float_vector) {
        return instruction_error(ins, "a vector " + name_of(ins) + " takes only f32, f16 or bf16");
      }
    }
    if (ins.opcode_name == "bar" || ins.opcode_name == "barrier") {
      // bar.sync a{, b}; bar.red d, a{, b}, c; barrier.cluster.* none; bar.warp.sync mask.
      const bool red = ins.has_suffix("red");
      const bool warp = ins.has_suffix("warp");
      const size_t least = ins.has_suffix("cluster") ? 0 : red ? 3 : 1;
      const size_t most = ins.has_suffix("cluster") ? 0 : red ? 4 : warp ? 1 : 2;
      if (!types.empty() && !red) {
        return instruction_error(ins, "a type suffix on " + name_of(ins) + " needs .red");
      }
      const size_t number = red ? 1 : 0;
      if (!warp && n > number) {
        if (const auto* imm = std::get_if<IntImmediate>(&ins.operands[number].value);
            imm != nullptr && (imm->value < 0 || imm->value > 15)) {
          return error(ins.operands[number].loc, "barrier number " + std::to_string(imm->value) +
                                                     " is out of range (0 to 15)");
        }
      }
      if (n < least || n > most) {
        return instruction_error(ins, name_of(ins) + " of this form takes " +
                                          std::to_string(least) +
                                          (most != least ? " to " + std::to_string(most) : "") +
                                          " operands, found " + std::to_string(n));
      }
    }
    if (ins.opcode_name == "mov" && types.size() == 1 && !types[0].starts_with("b") &&
        std::any_of(ins.operands.begin(), ins.operands.end(),
                    [](const Operand& o) { return o.is<VectorOperand>(); })) {
      // Packing and unpacking (mov.b32 {lo, hi}, r) take a bit type only (ptxas 13: "Arguments
      // mismatch" for mov.f32 {lo, hi}, r).
      return instruction_error(ins, "'mov' packs or unpacks with a bit type (.b16, .b32, .b64, "
                                    ".b128), not ." +
                                        std::string(types[0]));
    }
    if (ins.opcode_name == "cvt" && types.size() == 2 && types[1].ends_with("x2") &&
        !types[0].ends_with("x2")) {
      return instruction_error(ins, "'cvt' converts a packed ." + std::string(types[1]) +
                                        " only to another packed type");
    }
    if (ins.opcode_name == "cvt" && types.size() == 2) {
      // Two sources only to pack two f32 into an x2 type (cvt.rn.f16x2.f32 d, a, b); a third
      // only with .rs (its random bits).
      const bool packs = types[0].ends_with("x2") && types[1] == "f32";
      const size_t expected = (packs ? 3 : 2) + (ins.has_suffix("rs") ? 1 : 0);
      if (n != expected) {
        return instruction_error(
            ins, "'cvt." + std::string(types[0]) + "." + std::string(types[1]) + "' takes " +
                     std::to_string(expected) + " operands, found " + std::to_string(n));
      }
    }
    std::vector<char> kinds;
    for_each_word(rule.operands, [&](std::string_view k) { kinds.push_back(k.front()); });
    for (size_t i = 0; i < n; ++i) {
      VOLTA_ASSERT(!kinds.empty() || n == 0, "an operand count beyond zero has operand kinds");
      const char kind = kinds.empty() ? '*' : kinds[std::min(i, kinds.size() - 1)];
      const Operand& op = ins.operands[i];
      if (!check_kind(ins, op, kind, i)) {
        return false;
      }
      if ((kind == 'W' || kind == 'V') && typed && !check_data_registers(op, *typed, regs)) {
        return false;
      }
      if ((kind == 'S' || kind == 'V') && typed && !check_immediate(ins, op, *typed, i)) {
        return false;
      }
      const auto* name = std::get_if<NameOperand>(&op.value);
      if (name == nullptr) {
        continue;
      }
      const std::optional<ScalarType> reg = regs.type_of(name->name);
      // %is_explicit_cluster is the one predicate among them (PTX ISA, "Special Registers").
      const bool predicate_register = name->name == "%is_explicit_cluster";
      if (!reg && kind == 'S' && typed && is_special_register(name->name) &&
          (kind_of(*typed) == TypeKind::Float ||
           (*typed == ScalarType::Pred && !predicate_register))) {
        // An undeclared %name is a special register (%tid.x, %clock64): integers only.
        return error(op.loc, "the special register " + name->name + " cannot be read as ." +
                                 spelling(*typed));
      }
      if (!reg && kind == 'S' && typed && spaces_.count(name->name) &&
          (kind_of(*typed) == TypeKind::Float || *typed == ScalarType::Pred)) {
        return error(op.loc, "the address of variable " + name->name + " is an integer, not ." +
                                 spelling(*typed));
      }
      if (!reg) {
        continue; // a special register, a variable's address, a label: not typed here
      }
      // `.wide` doubles the result, and the addend of mad.wide: those registers are wider.
      const bool wide_operand = ins.has_suffix("wide") && (i == 0 || i == 3);
      if ((kind == 'D' || kind == 'S') && typed && !wide_operand && !register_fits(*typed, *reg)) {
        return error(op.loc, "operand " + name->name + " is declared ." + spelling(*reg) +
                                 ", which does not fit the instruction type ." + spelling(*typed));
      }
      if ((kind == 'P' || kind == 'p') && *reg != ScalarType::Pred) {
        return error(op.loc, "operand " + name->name + " of " + name_of(ins) +
                                 " must be a predicate, it is declared ." + spelling(*reg));
      }
    }
    return check_vector_data(ins) && check_memory_form(ins);
  }

  // An immediate must be of the instruction type's kind: no integer for an f32/f64 operand
  // (`add.f32 %f1, %f2, 0`: write 0f00000000), no float for a signed or unsigned one.
  bool check_immediate(const Instruction& ins, const Operand& op, ScalarType type, size_t i) {
    const bool is_float = type == ScalarType::F32 || type == ScalarType::F64;
    const TypeKind kind = kind_of(type);
    if ((op.is<IntImmediate>() || op.is<FloatImmediate>()) && kind == TypeKind::Float &&
        !is_float) {
      return error(op.loc, "operand " + std::to_string(i + 1) + " of " + name_of(ins) +
                               " is an immediate, which ." + spelling(type) +
                               " does not take (use a register)");
    }
    if (op.is<IntImmediate>() && is_float) {
      return error(op.loc, "operand " + std::to_string(i + 1) + " of " + name_of(ins) +
                               " is an integer immediate for ." + spelling(type) +
                               " (write a float, 0f... or 0d...)");
    }
    if (op.is<FloatImmediate>() && (kind == TypeKind::Signed || kind == TypeKind::Unsigned)) {
      return error(op.loc, "operand " + std::to_string(i + 1) + " of " + name_of(ins) +
                               " is a float immediate for ." + spelling(type));
    }
    return true;
  }

  // The data of ld/st (W, V): each register at least as wide as an integer type, of the size
  // of a float type; a vector's elements alike.
  bool check_data_registers(const Operand& op, ScalarType type, const RegisterTypes& regs) {
    auto one = [&](const Operand& o) {
      const auto* name = std::get_if<NameOperand>(&o.value);
      if (name == nullptr) {
        return true;
      }
      const std::optional<ScalarType> reg = regs.type_of(name->name);
      if (!reg || register_fits_widening(type, *reg)) {
        return true;
      }
      return error(o.loc, "operand " + name->name + " is declared ." + spelling(*reg) +
                              ", which cannot hold the instruction type ." + spelling(type));
    };
    if (const auto* v = std::get_if<VectorOperand>(&op.value)) {
      for (const Operand& e : v->elements) {
        if (!one(e)) {
          return false;
        }
      }
      return true;
    }
    return one(op);
  }

  // ld/st qualifiers that depend on each other: a memory order or `.volatile` only on the
  // global, shared and generic spaces, `.relaxed/.acquire/.release` with a scope, `.nc` only on
  // global, one cache operator, and `.L2::cache_hint` exactly when a cache policy operand is
  // given.
  bool check_memory_form(const Instruction& ins) {
    if (ins.opcode_name != "ld" && ins.opcode_name != "st") {
      return true;
    }
    const bool local_like = ins.space == StateSpace::Local || ins.space == StateSpace::Const ||
                            ins.space == StateSpace::Param;
    bool scoped = false;
    bool ordered = false;
    int cache_ops = 0;
    for (const std::string& s : ins.suffixes) {
      scoped = scoped || s == "cta" || s == "gpu" || s == "sys" || s == "cluster";
      ordered = ordered || s == "relaxed" || s == "acquire" || s == "release";
      cache_ops +=
          s == "ca" || s == "cg" || s == "cs" || s == "lu" || s == "cv" || s == "wb" || s == "wt";
    }
    for (size_t i = 0; i < ins.suffixes.size(); ++i) {
      const std::string& s = ins.suffixes[i];
      const bool order = s == "volatile" || s == "relaxed" || s == "acquire" || s == "release" ||
                         s == "mmio" || s == "weak";
      if (order && local_like) {
        return suffix_error(ins, i,
                            "modifier " + q(s) + " cannot be applied to the ." +
                                spelling(ins.space) + " space");
      }
      if (s == "nc" && ins.space != StateSpace::Global) {
        return suffix_error(ins, i, "modifier '.nc' needs the .global space");
      }
      const bool prefetch_size = s == "L2::64B" || s == "L2::128B" || s == "L2::256B";
      if (prefetch_size && ins.space != StateSpace::Global && ins.space != StateSpace::None) {
        return suffix_error(ins, i,
                            "the prefetch size " + q(s) + " needs the .global (or generic) space");
      }
    }
    if (scoped && !ordered) {
      return instruction_error(ins, "a scope on " + name_of(ins) +
                                        " needs a memory order (.relaxed, .acquire or .release)");
    }
    if (ordered && !scoped) {
      return instruction_error(ins, name_of(ins) +
                                        " with .relaxed, .acquire or .release needs a scope "
                                        "(.cta, .cluster, .gpu or .sys)");
    }
    if (cache_ops > 1) {
      return instruction_error(ins, "more than one cache operator");
    }
    if (cache_ops > 0 && (ins.has_suffix("volatile") || ordered)) {
      return instruction_error(ins, "a cache operator does not combine with .volatile or a "
                                    "memory order");
    }
    // `ld.shared` of a .param variable: the address names a variable of another space.
    const size_t address = ins.opcode_name == "ld" ? 1 : 0;
    if (ins.operands.size() > address) {
      const Operand& op = ins.operands[address];
      const bool generic = ins.space == StateSpace::None || ins.space == StateSpace::Generic;
      if (const auto* a = std::get_if<AddressOperand>(&op.value); a != nullptr && a->base) {
        // A generic access may name a variable of any space but .param (not in the generic
        // window); an explicit space must be the variable's.
        if (auto it = spaces_.find(*a->base);
            it != spaces_.end() && it->second != StateSpace::Reg && it->second != ins.space &&
            (!generic || it->second == StateSpace::Param)) {
          return error(op.loc, "'" + *a->base + "' is a ." + spelling(it->second) +
                                   " variable, but the instruction accesses the " +
                                   (generic ? std::string("generic")
                                            : "." + std::string(spelling(ins.space))) +
                                   " space");
        }
      }
    }
    if (ins.has_suffix("L2::cache_hint") != (ins.operands.size() == 3)) {
      return instruction_error(ins, ins.operands.size() == 3
                                        ? name_of(ins) + " with a cache policy operand needs "
                                                         "'.L2::cache_hint'"
                                        : "'.L2::cache_hint' needs a cache policy operand");
    }
    return true;
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

  // ld/ldu/st/mov with `.vN` move a brace vector of N elements; ld/ldu/st without it a single
  // register (mov packs a vector into a wider register: `mov.b64 %rd1, {%r1, %r2}`).
  bool check_vector_data(const Instruction& ins) {
    const bool load =
        ins.opcode_name == "ld" || ins.opcode_name == "ldu" || ins.opcode_name == "mov";
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
    if (ins.vector_width == 1 && v != nullptr && ins.opcode_name != "mov") {
      return error(op.loc, "a vector operand needs a '.v2', '.v4' or '.v8' suffix");
    }
    return true;
  }

  // cvt's destination holds the first type and its sources the second, each register at least
  // as wide as an integer or bit type (as for ld and st).
  // redux.sync (ptxas 13): sm_80 or newer; add, min and max take .u32 or .s32, and, or and xor
  // .b32 ("Incorrect type '.b32' for operation ..."); .f32 (min and max, with .abs and .NaN)
  // needs an sm_10x target with the a or f suffix ("Instruction 'redux.f32' not supported on
  // .target 'sm_100'", and likewise on sm_90a and sm_120a).
  bool check_redux(const Instruction& ins, const std::vector<std::string_view>& types) {
    if (sm_ != 0 && sm_ < 80) {
      return instruction_error(ins, "'redux' needs sm_80 or newer, the target is sm_" +
                                        std::to_string(sm_));
    }
    if (types.size() != 1)
      return true; // check_required's to report
    const std::string_view type = types[0];
    const bool bitwise = ins.has_suffix("and") || ins.has_suffix("or") || ins.has_suffix("xor");
    if (type == "f32") {
      const bool family_10x =
          std::any_of(module_.targets.begin(), module_.targets.end(), [](const std::string& t) {
            return t.size() == 7 && t.starts_with("sm_10") && (t.back() == 'a' || t.back() == 'f');
          });
      if (bitwise || ins.has_suffix("add"))
        return instruction_error(ins, "'redux' of .f32 is min or max only");
      if (!family_10x) {
        return instruction_error(ins, "'redux' of .f32 needs an sm_10x target with the a or f "
                                      "suffix (sm_100a, sm_100f, sm_103a)");
      }
      return true;
    }
    if (bitwise && type != "b32")
      return instruction_error(ins,
                               "'redux' of and, or or xor takes .b32, not ." + std::string(type));
    if (!bitwise && type != "u32" && type != "s32")
      return instruction_error(ins, "'redux' of add, min or max takes .u32 or .s32, not ." +
                                        std::string(type));
    return true;
  }

  bool check_cvt_registers(const Instruction& ins, const std::vector<std::string_view>& types,
                           const RegisterTypes& regs) {
    const std::optional<ScalarType> to = scalar_type_from(types[0]);
    const std::optional<ScalarType> from = scalar_type_from(types[1]);
    if (!to || !from) {
      return true;
    }
    for (size_t i = 0; i < ins.operands.size(); ++i) {
      const ScalarType type = i == 0 ? *to : *from;
      if (!check_data_registers(ins.operands[i], type, regs)) {
        return false;
      }
      // ptxas 13 holds a .bf16 operand of cvt to a 16-bit register ("Arguments mismatch" for
      // cvt.f32.bf16 %f1, %r1 with %r1 .b32), while it lets .f16 use a wider bit register.
      const auto* name = std::get_if<NameOperand>(&ins.operands[i].value);
      const std::optional<ScalarType> reg = name ? regs.type_of(name->name) : std::nullopt;
      if (type == ScalarType::BF16 && reg && bit_width(*reg) != 16) {
        return error(ins.operands[i].loc, "operand " + name->name + " is declared ." +
                                              spelling(*reg) +
                                              ", which cannot hold the .bf16 of '" +
                                              ins.opcode_name + "' (a 16-bit register)");
      }
    }
    return true;
  }

  // cvt's rounding: a float result from an integer, or a narrower float, needs a float rounding
  // (.rn .rz .rm .rp, .rna for tf32, .rs); an integer from a float needs an integer rounding
  // (.rni ...); a float of the same format takes only an integer rounding; anything else none.
  bool check_cvt_rounding(const Instruction& ins, const std::vector<std::string_view>& types) {
    VOLTA_ASSERT(types.size() == 2, "the caller checked for two type suffixes");
    const std::string_view to = types[0];
    const std::string_view from = types[1];
    if (to == "bf16" && is_int_word(from) && sm_ < 90) {
      // ptxas 13: "Feature 'cvt with .bf16.u32' requires .target sm_90 or higher".
      return instruction_error(ins, "'cvt' to .bf16 from ." + std::string(from) +
                                        " needs sm_90 or newer");
    }
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
    enum class Need {
      None,
      Float,
      Integer,
      OptionalInteger,
      OptionalFloat,
      Unknown
    } need = Need::Unknown;
    if (to_float && !from_float) {
      need = Need::Float;
    } else if (!to_float && from_float) {
      need = Need::Integer;
    } else if (!to_float && !from_float) {
      need = Need::None;
    } else if (to == from) {
      need = Need::OptionalInteger;
    } else if (from == "bf16" && width(to) > width(from)) {
      need = Need::OptionalFloat; // ptxas takes (and ignores) a rounding here, unlike for f16
    } else if (width(to) != 0 && width(from) != 0 && width(to) > width(from) &&
               !to.ends_with("x2")) {
      need = Need::None; // widening: exact
    } else if (width(to) != 0 && width(from) != 0 && width(to) < width(from)) {
      need = Need::Float;
    }
    if ((to == "f16x2" || to == "bf16x2") && from == "f32") {
      // cvt.frnd2{.relu}{.satfinite}.f16x2.f32 d, a, b (frnd2: .rn .rz; .rs with a third
      // source): a rounding is required and .ftz is not a modifier of this form (ptxas 13).
      if (ins.has_suffix("ftz")) {
        return instruction_error(ins, "'cvt." + std::string(to) + ".f32' takes no .ftz");
      }
      if (!rounding || (*rounding != "rn" && *rounding != "rz" && *rounding != "rs")) {
        return instruction_error(ins, "'cvt." + std::string(to) +
                                          ".f32' needs a rounding modifier (.rn .rz)");
      }
      return true;
    }
    // .ftz flushes an f32 subnormal: ptxas 13 takes it only with an .f32 source or destination
    // ("Illegal modifier '.ftz'" on cvt.ftz.u64.u32, "does not apply to this type of convert
    // operation" on cvt.rn.ftz.f16.s32 and cvt.rzi.ftz.s32.f64).
    if (ins.has_suffix("ftz") && to != "f32" && from != "f32" && need != Need::Unknown) {
      return instruction_error(ins, "'.ftz' applies only to a 'cvt' with an .f32 source or "
                                    "destination, not 'cvt." +
                                        std::string(to) + "." + std::string(from) + "'");
    }
    // Between integers .sat is legal only where it can clamp (PTX ISA, cvt: "illegal in cases
    // where saturation is not possible based on the source and destination types"; ptxas 13:
    // "Illegal modifier '.sat'" on cvt.sat.s32.s16, cvt.sat.s32.u16, cvt.sat.u64.u32).
    if (!to_float && !from_float && ins.has_suffix("sat") && width(to) != 0 && width(from) != 0) {
      const bool to_signed = to.starts_with('s'), from_signed = from.starts_with('s');
      const bool holds_every_value = to_signed == from_signed
                                         ? width(to) >= width(from)
                                         : to_signed && width(to) > width(from);
      if (holds_every_value) {
        return instruction_error(ins, "'.sat' is illegal on 'cvt." + std::string(to) + "." +
                                          std::string(from) +
                                          "': the destination type holds every source value");
      }
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
    case Need::OptionalFloat:
      if (rounding && is_integer_rounding(*rounding)) {
        return instruction_error(ins, "'cvt." + std::string(to) + "." + std::string(from) +
                                          "' takes only a float rounding (.rn .rz .rm .rp)");
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
  // The state space of every variable the current function can name (module, parameters,
  // body declarations).
  std::unordered_map<std::string, StateSpace> spaces_;
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
