#include "engine/exec/lower.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>
#include <unordered_set>

#include "engine/exec/address_map.hpp"
#include "engine/exec/instruction_family.hpp"
#include "engine/exec/lexical_scopes.hpp"
#include "engine/symbolic/expr.hpp"
#include "ptx/printer.hpp"
#include "support/invariant.hpp"

namespace volta::exec {
namespace {

using ptx::Modifier;
using ptx::Opcode;

uint64_t align_up(uint64_t v, uint64_t a) {
  return a <= 1 ? v : (v + a - 1) / a * a;
}

struct Symbol {
  Space space;
  uint64_t address;
};

// The special registers of the ISA that have no value in this model: timers and counters, which
// differ from run to run, and the registers that depend on the driver or on cluster launches.
std::optional<Special> counter_or_unmodelled_special(std::string_view name) {
  static const std::pair<std::string_view, Special> table[] = {
      {"%clock_hi", Special::ClockHi},
      {"%globaltimer_lo", Special::GlobalTimerLo},
      {"%globaltimer_hi", Special::GlobalTimerHi},
      {"%is_explicit_cluster", Special::Unmodelled},
      {"%aggr_smem_size", Special::Unmodelled},
      // What the driver allocates, not what the kernel declares: an H200 reads 0 in a kernel
      // without shared variables, where the engine's layout (red zones) would say 256.
      {"%total_smem_size", Special::Unmodelled},
      {"%current_graph_exec", Special::Unmodelled},
      {"%reserved_smem_offset_begin", Special::Unmodelled},
      {"%reserved_smem_offset_end", Special::Unmodelled},
      {"%reserved_smem_offset_cap", Special::Unmodelled},
  };
  for (const auto& [n, s] : table) {
    if (n == name)
      return s;
  }
  // Families with an index: %pm0..%pm7, %pm0_64..%pm7_64, %envreg0..%envreg31,
  // %reserved_smem_offset_0/_1.
  auto indexed = [&](std::string_view prefix, std::string_view suffix, int count) {
    if (!name.starts_with(prefix) || !name.ends_with(suffix) ||
        name.size() <= prefix.size() + suffix.size())
      return false;
    const std::string_view digits =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.size() > 2 || (digits.size() == 2 && digits[0] == '0'))
      return false;
    int value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9')
        return false;
      value = value * 10 + (c - '0');
    }
    return value < count;
  };
  if (indexed("%pm", "", 8) || indexed("%pm", "_64", 8))
    return Special::PerfCounter;
  if (indexed("%envreg", "", 32) || indexed("%reserved_smem_offset_", "", 2))
    return Special::Unmodelled;
  return std::nullopt;
}

std::optional<Special> special_from(std::string_view name) {
  static const std::pair<std::string_view, Special> table[] = {
      {"%tid.x", Special::TidX},
      {"%tid.y", Special::TidY},
      {"%tid.z", Special::TidZ},
      {"%ntid.x", Special::NtidX},
      {"%ntid.y", Special::NtidY},
      {"%ntid.z", Special::NtidZ},
      {"%ctaid.x", Special::CtaidX},
      {"%ctaid.y", Special::CtaidY},
      {"%ctaid.z", Special::CtaidZ},
      {"%nctaid.x", Special::NctaidX},
      {"%nctaid.y", Special::NctaidY},
      {"%nctaid.z", Special::NctaidZ},
      {"%laneid", Special::LaneId},
      {"%warpid", Special::WarpId},
      {"%nwarpid", Special::NWarpId},
      {"%smid", Special::SmId},
      {"%nsmid", Special::NSmId},
      {"%gridid", Special::GridId},
      {"%lanemask_eq", Special::LaneMaskEq},
      {"%lanemask_lt", Special::LaneMaskLt},
      {"%lanemask_le", Special::LaneMaskLe},
      {"%lanemask_gt", Special::LaneMaskGt},
      {"%lanemask_ge", Special::LaneMaskGe},
      {"%clock", Special::Clock},
      {"%clock64", Special::Clock64},
      {"%globaltimer", Special::GlobalTimer},
      {"%dynamic_smem_size", Special::DynSmemSize},
      {"%cluster_ctarank", Special::ClusterCtaRank},
      {"%cluster_nctarank", Special::ClusterNCtaRank},
      {"%cluster_ctaid.x", Special::ClusterCtaidX},
      {"%cluster_ctaid.y", Special::ClusterCtaidY},
      {"%cluster_ctaid.z", Special::ClusterCtaidZ},
      {"%cluster_nctaid.x", Special::ClusterNCtaidX},
      {"%cluster_nctaid.y", Special::ClusterNCtaidY},
      {"%cluster_nctaid.z", Special::ClusterNCtaidZ},
      {"%clusterid.x", Special::ClusterIdX},
      {"%clusterid.y", Special::ClusterIdY},
      {"%clusterid.z", Special::ClusterIdZ},
      {"%nclusterid.x", Special::NClusterIdX},
      {"%nclusterid.y", Special::NClusterIdY},
      {"%nclusterid.z", Special::NClusterIdZ},
  };
  for (const auto& [n, s] : table) {
    if (n == name)
      return s;
  }
  return counter_or_unmodelled_special(name);
}

Space space_of(ptx::StateSpace s) {
  switch (s) {
  case ptx::StateSpace::Global:
    return Space::Global;
  case ptx::StateSpace::Shared:
    return Space::Shared;
  case ptx::StateSpace::Local:
    return Space::Local;
  case ptx::StateSpace::Param:
    return Space::Param;
  case ptx::StateSpace::Const:
    return Space::Const;
  default:
    return Space::Generic;
  }
}

Rounding rounding_of(const ptx::Instruction& ins) {
  const auto& m = ins.modifiers;
  if (m.has(Modifier::Rn))
    return Rounding::Rn;
  if (m.has(Modifier::Rz))
    return Rounding::Rz;
  if (m.has(Modifier::Rm))
    return Rounding::Rm;
  if (m.has(Modifier::Rp))
    return Rounding::Rp;
  if (m.has(Modifier::Rni))
    return Rounding::Rni;
  if (m.has(Modifier::Rzi))
    return Rounding::Rzi;
  if (m.has(Modifier::Rmi))
    return Rounding::Rmi;
  if (m.has(Modifier::Rpi))
    return Rounding::Rpi;
  return Rounding::None;
}

// fence.proxy.async[.shared::cta|.shared::cluster|.global]: suffixes "proxy", "async" and a
// state space at most.
bool is_fence_proxy_async(const ptx::Instruction& ins) {
  if (ins.suffixes.size() < 2 || ins.suffixes[0] != "proxy" || ins.suffixes[1] != "async")
    return false;
  for (size_t i = 2; i < ins.suffixes.size(); ++i) {
    const auto& s = ins.suffixes[i];
    if (s != "shared::cta" && s != "shared::cluster" && s != "global" && s != "shared")
      return false;
  }
  return true;
}

std::optional<MmaShape> shape_of(const ptx::Instruction& ins) {
  static const std::pair<std::string_view, MmaShape> table[] = {
      {"m16n16k16", MmaShape::M16N16K16}, {"m16n8k16", MmaShape::M16N8K16},
      {"m16n8k8", MmaShape::M16N8K8},     {"m8n8k4", MmaShape::M8N8K4},
      {"m32n8k16", MmaShape::M32N8K16},   {"m8n32k16", MmaShape::M8N32K16}};
  for (const auto& s : ins.suffixes) {
    for (const auto& [n, shape] : table) {
      if (s == n)
        return shape;
    }
  }
  return std::nullopt;
}

// The SM version of a module's `.target` (`sm_80` -> 80, `sm_90a` -> 90), or nullopt when it
// names none.
std::optional<uint32_t> sm_version(const std::vector<std::string>& targets) {
  for (const std::string& t : targets) {
    if (!t.starts_with("sm_"))
      continue;
    uint32_t v = 0;
    size_t i = 3;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9' && v < 100000; ++i)
      v = v * 10 + static_cast<uint32_t>(t[i] - '0');
    if (i > 3)
      return v;
  }
  return std::nullopt;
}

class Lowerer {
public:
  Lowerer(const ptx::Module& m, std::string_view text) : m_(m), text_(text) {}

  LowerResult run(const std::string& entry) {
    const ptx::Function* f = m_.find_function(entry);
    if (f == nullptr || !f->is_entry) {
      std::string names;
      for (const auto* e : m_.entries())
        names += (names.empty() ? "" : ", ") + e->name;
      error({}, fmt::format("no kernel entry named '{}' (kernels: {})", entry,
                            names.empty() ? "none" : names));
      return finish();
    }
    if (!f->has_body) {
      error(f->loc, fmt::format("kernel '{}' has no body", entry));
      return finish();
    }
    p_.ptx_path = m_.path;
    p_.entry = entry;
    layout_files();
    layout_module_variables();
    layout_params(*f);
    collect_body_declarations(*f);
    collect_labels(*f);
    lower_body(*f);
    return finish();
  }

private:
  LowerResult finish() {
    LowerResult r;
    bool failed = false;
    for (const auto& d : diags_)
      failed |= d.severity == ptx::Severity::Error;
    if (!failed)
      r.program = std::move(p_);
    r.diagnostics = std::move(diags_);
    return r;
  }

  void error(ptx::SourceLocation where, std::string message) {
    if (diags_.size() >= 20)
      return;
    ptx::Diagnostic d;
    d.file = m_.path;
    d.where = where;
    d.message = std::move(message);
    if (where.line != 0 && !text_.empty())
      d.source_line = std::string(ptx::line_of(text_, where.line));
    diags_.push_back(std::move(d));
  }

  void layout_files() {
    for (const auto& item : m_.items) {
      if (const auto* f = std::get_if<ptx::FileDirective>(&item)) {
        if (p_.cuda_files.size() <= f->index)
          p_.cuda_files.resize(f->index + 1);
        p_.cuda_files[f->index] = f->path;
      }
    }
  }

  // Places a variable of `space` and returns its symbol, for the caller to bind in its scope
  // (none: not placed, or placed after every static variable).
  std::optional<Symbol> place(const ptx::VariableDecl& v, uint64_t& cursor, uint64_t window) {
    if (v.opaque != ptx::OpaqueType::None || v.managed) {
      // Valid PTX the engine does not model: no memory is placed, and an instruction that
      // names the variable is refused as UNSUPPORTED (see unmodeled_operand).
      unmodeled_symbols_[v.name] =
          v.managed ? fmt::format("names the managed variable '{}' (.attribute(.managed) is not "
                                  "modeled)",
                                  v.name)
                    : fmt::format("names the texture, sampler or surface reference '{}' "
                                  "(textures and surfaces are not modeled)",
                                  v.name);
      return std::nullopt;
    }
    const Space space = space_of(v.space);
    const uint64_t align = std::max<uint64_t>(v.align.value_or(1), 16);
    PlacedVariable pv;
    pv.name = v.name;
    pv.space = space;
    pv.line = v.loc.line;
    auto size = v.size_bytes();
    if (!size) {
      if (space == Space::Shared && v.linkage == ptx::Linkage::Extern) {
        pv.dynamic = true;
        dynamic_shared_.push_back(v);
        return std::nullopt; // placed after every static variable
      }
      error(v.loc, fmt::format("variable '{}' has no size", v.name));
      return std::nullopt;
    }
    cursor = align_up(cursor + kRedZone, align);
    pv.address = window + cursor;
    pv.size = *size;
    cursor += *size;
    const Symbol placed{space, pv.address};
    if (space == Space::Global || space == Space::Const) {
      std::vector<uint8_t> bytes(*size, 0);
      fill_initializer(v, bytes);
      p_.initial_data.emplace_back(pv.address, std::move(bytes));
    }
    p_.variables.push_back(std::move(pv));
    return placed;
  }

  void fill_initializer(const ptx::VariableDecl& v, std::vector<uint8_t>& bytes) {
    if (!v.has_init)
      return;
    const uint32_t elem = std::max<uint32_t>(1, ptx::bit_width(v.type) / 8);
    size_t at = 0;
    for (const auto& init : v.init) {
      uint64_t value = 0;
      if (const auto* i = std::get_if<ptx::IntImmediate>(&init.value)) {
        value = static_cast<uint64_t>(i->value);
      } else if (const auto* f = std::get_if<ptx::FloatImmediate>(&init.value)) {
        value = f->bits;
        if (f->width == 64 && elem == 4) {
          float narrowed = static_cast<float>(std::bit_cast<double>(f->bits));
          value = std::bit_cast<uint32_t>(narrowed);
        }
      } else if (const auto* name = std::get_if<std::string>(&init.value)) {
        auto it = symbols_.find(*name);
        if (it == symbols_.end()) {
          error(v.loc, fmt::format("initializer refers to unknown symbol '{}'", *name));
          return;
        }
        value = it->second.address + static_cast<uint64_t>(init.offset);
      }
      for (uint32_t b = 0; b < elem && at < bytes.size(); ++b)
        bytes[at++] = static_cast<uint8_t>(value >> (8 * b));
    }
  }

  void layout_module_variables() {
    for (const auto& item : m_.items) {
      const auto* v = std::get_if<ptx::VariableDecl>(&item);
      if (v == nullptr)
        continue;
      if (v->opaque != ptx::OpaqueType::None || v->managed) {
        place(*v, global_cursor_, kGlobalVarWindow); // records it as unmodeled
        continue;
      }
      std::optional<Symbol> placed;
      switch (v->space) {
      case ptx::StateSpace::Shared:
        placed = place(*v, shared_cursor_, 0);
        break;
      case ptx::StateSpace::Global:
        placed = place(*v, global_cursor_, kGlobalVarWindow);
        break;
      case ptx::StateSpace::Const:
        placed = place(*v, const_cursor_, kConstWindow);
        break;
      default:
        break;
      }
      if (placed)
        symbols_[v->name] = *placed;
    }
  }

  void layout_params(const ptx::Function& f) {
    uint64_t cursor = 0;
    for (const auto& param : f.params) {
      const uint64_t size = param.size_bytes().value_or(8);
      const uint64_t align =
          param.align.value_or(std::max<uint64_t>(1, ptx::bit_width(param.type) / 8));
      cursor = align_up(cursor, align);
      symbols_[param.name] = Symbol{Space::Param, cursor};
      p_.param_offsets.push_back(cursor);
      p_.param_types.push_back(param.type);
      p_.param_names.push_back(param.name);
      p_.param_sizes.push_back(size);
      p_.param_aggregate.push_back(!param.dims.empty());
      cursor += size;
    }
    p_.param_bytes = align_up(cursor, 16);
  }

  void collect_body_declarations(const ptx::Function& f) {
    uint64_t scratch = 0;
    // Visibility while placing, so that a call-sequence parameter reuses the scratch of a
    // parameter of its name only when that one's block has closed (nvcc reuses `param0` in every
    // call block; a block inside another that binds the same name needs its own bytes).
    ScopedNames<Symbol> visible;
    std::unordered_map<std::string, std::pair<Symbol, uint64_t>> call_scratch; // name -> bytes
    for (size_t at = 0; at < f.body.size(); ++at) {
      const auto& st = f.body[at];
      if (std::holds_alternative<ptx::ScopeBegin>(st)) {
        visible.open();
      } else if (std::holds_alternative<ptx::ScopeEnd>(st)) {
        visible.close(); // an unbalanced `}` is reported by lower_body
      } else if (const auto* v = std::get_if<ptx::VariableDecl>(&st)) {
        std::optional<Symbol> placed;
        switch (v->space) {
        case ptx::StateSpace::Shared:
          placed = place(*v, shared_cursor_, 0);
          break;
        case ptx::StateSpace::Local:
          placed = place(*v, local_cursor_, 0);
          break;
        case ptx::StateSpace::Const:
          placed = place(*v, const_cursor_, kConstWindow);
          break;
        case ptx::StateSpace::Global:
          placed = place(*v, global_cursor_, kGlobalVarWindow);
          break;
        case ptx::StateSpace::Param: {
          // Call-sequence parameters: per-thread scratch after the kernel parameters.
          const uint64_t size = std::max<uint64_t>(v->size_bytes().value_or(8), 8);
          auto reuse = call_scratch.find(v->name);
          if (reuse != call_scratch.end() && reuse->second.second >= size &&
              visible.find(v->name) == nullptr) {
            placed = reuse->second.first;
            break;
          }
          scratch = align_up(scratch, 8);
          placed = Symbol{Space::Param, p_.param_bytes + scratch};
          scratch += size;
          call_scratch.insert_or_assign(v->name, std::pair{*placed, size});
          break;
        }
        default:
          error(v->loc, fmt::format("unsupported declaration of '{}' in state space .{}", v->name,
                                    ptx::spelling(v->space)));
        }
        if (placed) {
          visible.bind(v->name, *placed);
          body_symbols_.emplace(at, *placed);
        }
      }
    }
    p_.scratch_param_bytes = static_cast<uint32_t>(scratch);
    // Dynamic shared memory goes last, aligned as declared; every extern array aliases it.
    uint64_t align = 16;
    for (const auto& v : dynamic_shared_)
      align = std::max<uint64_t>(align, v.align.value_or(16));
    p_.shared_dynamic_base = align_up(shared_cursor_ + kRedZone, align);
    for (const auto& v : dynamic_shared_) {
      symbols_[v.name] = Symbol{Space::Shared, p_.shared_dynamic_base};
      PlacedVariable pv{v.name, Space::Shared, p_.shared_dynamic_base, 0, true, v.loc.line};
      p_.variables.push_back(pv);
    }
    p_.shared_static_bytes = shared_cursor_;
    p_.local_bytes = local_cursor_;
  }

  // Each declaration is a register of its own: one in a nested block that spells an outer
  // register's name shadows it until the block closes (lexical_scopes.hpp).
  void declare_registers(const ptx::RegisterDecl& r) {
    auto one = [&](const std::string& name) {
      const auto slot = static_cast<uint32_t>(p_.registers.size());
      if (!regs_.bind(name, slot)) {
        error(r.loc, fmt::format("duplicate definition of register '{}' in its block", name));
        return;
      }
      p_.registers.push_back(RegisterInfo{name, r.type});
    };
    if (r.count) {
      for (uint32_t i = 0; i < *r.count; ++i)
        one(r.name + std::to_string(i));
    } else {
      one(r.name);
    }
  }

  // The labels of every block, before any instruction is lowered: a branch may name a label
  // further down its block (or down an enclosing one).
  void collect_labels(const ptx::Function& f) {
    block_labels_.assign(1, {});
    std::vector<size_t> open{0};
    uint32_t index = 0;
    for (const auto& st : f.body) {
      if (std::holds_alternative<ptx::ScopeBegin>(st)) {
        open.push_back(block_labels_.size());
        block_labels_.emplace_back();
      } else if (std::holds_alternative<ptx::ScopeEnd>(st)) {
        if (open.size() > 1)
          open.pop_back(); // an unbalanced `}` is reported by lower_body
      } else if (const auto* l = std::get_if<ptx::Label>(&st)) {
        if (!block_labels_[open.back()].try_emplace(l->name, index).second)
          error(l->loc, fmt::format("duplicate definition of label '{}' in its block", l->name));
      } else if (std::holds_alternative<ptx::Instruction>(st)) {
        ++index;
      }
    }
    instruction_count_ = index;
  }

  // A variable's symbol: the innermost visible one declared in the body, else a kernel
  // parameter's or a module variable's.
  const Symbol* find_symbol(const std::string& name) const {
    if (const Symbol* s = body_scope_symbols_.find(name))
      return s;
    auto it = symbols_.find(name);
    return it == symbols_.end() ? nullptr : &it->second;
  }

  // ---- operands

  std::optional<Operand> value_operand(const ptx::Operand& o, const ptx::Instruction& ins) {
    Operand r;
    if (const auto* n = std::get_if<ptx::NameOperand>(&o.value)) {
      r.negated = n->negated;
      if (const uint32_t* reg = regs_.find(n->name)) {
        r.kind = OpKind::Reg;
        r.reg = *reg;
        return r;
      }
      if (auto s = special_from(n->name)) {
        r.kind = OpKind::Special;
        r.special = static_cast<uint8_t>(*s);
        return r;
      }
      if (const Symbol* sym = find_symbol(n->name)) {
        r.kind = OpKind::Imm;
        r.imm = sym->address;
        return r;
      }
      // WARP_SZ is PTX's predefined constant for the warp size (ISA §10.1: "a run-time
      // constant"); every target the engine models has 32-lane warps.
      if (n->name == "WARP_SZ") {
        r.kind = OpKind::Imm;
        r.imm = 32;
        return r;
      }
      error(o.loc.line ? o.loc : ins.loc, fmt::format("unknown register or symbol '{}'", n->name));
      return std::nullopt;
    }
    if (const auto* i = std::get_if<ptx::IntImmediate>(&o.value)) {
      r.kind = OpKind::Imm;
      r.imm = static_cast<uint64_t>(i->value);
      return r;
    }
    if (const auto* f = std::get_if<ptx::FloatImmediate>(&o.value)) {
      r.kind = OpKind::Imm;
      r.imm = f->bits;
      r.imm_is_float = true;
      r.imm_width = f->width;
      return r;
    }
    if (std::holds_alternative<ptx::SinkOperand>(o.value)) {
      r.kind = OpKind::Sink;
      return r;
    }
    error(o.loc.line ? o.loc : ins.loc, "expected a register, an immediate or a symbol here");
    return std::nullopt;
  }

  // Appends the operand (or each element of a vector operand) to `out`.
  bool append_values(const ptx::Operand& o, const ptx::Instruction& ins, std::vector<Operand>& out,
                     uint8_t* group_size = nullptr) {
    if (const auto* v = std::get_if<ptx::VectorOperand>(&o.value)) {
      for (const auto& e : v->elements) {
        auto x = value_operand(e, ins);
        if (!x)
          return false;
        out.push_back(*x);
      }
      if (group_size)
        *group_size = static_cast<uint8_t>(v->elements.size());
      return true;
    }
    if (const auto* pair = std::get_if<ptx::PairOperand>(&o.value)) {
      for (const auto* name : {&pair->first, &pair->second}) {
        const uint32_t* reg = regs_.find(*name);
        if (reg == nullptr) {
          if (*name == "_") {
            out.push_back(Operand{OpKind::Sink});
            continue;
          }
          error(o.loc.line ? o.loc : ins.loc, fmt::format("unknown register '{}'", *name));
          return false;
        }
        Operand r;
        r.kind = OpKind::Reg;
        r.reg = *reg;
        out.push_back(r);
      }
      if (group_size)
        *group_size = 2;
      return true;
    }
    auto x = value_operand(o, ins);
    if (!x)
      return false;
    out.push_back(*x);
    if (group_size)
      *group_size = 1;
    return true;
  }

  bool mem_operand(const ptx::Operand& o, const ptx::Instruction& ins, MemRef& m) {
    const auto* a = std::get_if<ptx::AddressOperand>(&o.value);
    if (a == nullptr) {
      error(o.loc.line ? o.loc : ins.loc, "expected a memory operand [address]");
      return false;
    }
    m.present = true;
    m.offset = a->offset;
    if (!a->base)
      return true;
    if (const uint32_t* reg = regs_.find(*a->base)) {
      m.has_base = true;
      m.base = *reg;
      return true;
    }
    if (const Symbol* sym = find_symbol(*a->base)) {
      m.offset += static_cast<int64_t>(sym->address);
      return true;
    }
    error(o.loc.line ? o.loc : ins.loc, fmt::format("unknown register or symbol '{}'", *a->base));
    return false;
  }

  // ---- instructions

  // Lowers the instructions in source order, binding each block's registers, variables and
  // labels as the block opens (lexical_scopes.hpp), so that every name resolves to the
  // declaration ptxas resolves it to.
  void lower_body(const ptx::Function& f) {
    p_.insts.reserve(instruction_count_);
    VOLTA_ASSERT(!block_labels_.empty(), "collect_labels runs first");
    labels_ = ScopedNames<uint32_t>(block_labels_[0]);
    size_t next_block = 1;
    for (size_t at = 0; at < f.body.size(); ++at) {
      const auto& st = f.body[at];
      if (const auto* ins = std::get_if<ptx::Instruction>(&st)) {
        p_.insts.push_back(lower_instruction(*ins));
      } else if (std::holds_alternative<ptx::ScopeBegin>(st)) {
        VOLTA_ASSERT(next_block < block_labels_.size(), "collect_labels saw every block");
        regs_.open();
        body_scope_symbols_.open();
        labels_.open(block_labels_[next_block++]);
      } else if (const auto* e = std::get_if<ptx::ScopeEnd>(&st)) {
        if (!regs_.close()) {
          error(e->loc, "'}' closes no block");
          continue;
        }
        body_scope_symbols_.close();
        labels_.close();
      } else if (const auto* r = std::get_if<ptx::RegisterDecl>(&st)) {
        declare_registers(*r);
      } else if (const auto* v = std::get_if<ptx::VariableDecl>(&st)) {
        if (auto it = body_symbols_.find(at);
            it != body_symbols_.end() && !body_scope_symbols_.bind(v->name, it->second))
          error(v->loc, fmt::format("duplicate definition of variable '{}' in its block", v->name));
      }
    }
    refuse_schedule_dependent_masks();
    refuse_inexact_waits();
    refuse_opaque_addresses();
  }

  // A mapa's result is an address whose bits the PTX ISA does not document (cluster_address.hpp
  // models it as the address it maps, which is right for every memory access through it): it may
  // only be the base of a memory operand. A register some mapa writes that any instruction reads
  // otherwise (as data, a guard, an operand of arithmetic) refuses that mapa (UNSUPPORTED at its
  // line), never a guessed value observed — also where other instructions write the register
  // too (the read may still see the mapa's value).
  void refuse_opaque_addresses() {
    std::unordered_set<uint32_t> mapped; // registers some mapa writes
    for (const Inst& x : p_.insts) {
      if (x.op == XOp::Mapa && x.dsts.size() == 1 && x.dsts[0].kind == OpKind::Reg)
        mapped.insert(x.dsts[0].reg);
    }
    if (mapped.empty())
      return;
    std::unordered_set<uint32_t> misread;
    for (const Inst& x : p_.insts) {
      auto check = [&](uint32_t reg) {
        if (mapped.count(reg) != 0)
          misread.insert(reg);
      };
      if (x.has_guard)
        check(x.guard_reg);
      for (const Operand& s : x.srcs) {
        if (s.kind == OpKind::Reg)
          check(s.reg);
      }
    }
    if (misread.empty())
      return;
    for (size_t i = 0; i < p_.insts.size(); ++i) {
      Inst& x = p_.insts[i];
      if (x.op == XOp::Mapa && x.dsts.size() == 1 && misread.count(x.dsts[0].reg) != 0) {
        x.op = XOp::Unsupported;
        p_.unsupported_reasons[static_cast<uint32_t>(i)] =
            "maps a shared address whose value another instruction reads as data (the bits of a "
            "mapped address are not documented; it is modelled only as a memory operand's base)";
      }
    }
  }

  // `activemask` returns the lanes a GPU happens to run together at that moment, which depends
  // on its scheduler (a diverged warp need not have reconverged; Volta-and-later warps may run
  // converged code in several groups). The engine runs a warp's lanes in lockstep and would
  // give the converged set: right for the member mask of a warp collective that the lanes
  // reach together (`__shfl_sync(__activemask(), ...)`, the idiom compilers emit), but a
  // guessed value anywhere else (a popcount stored, a branch, an address). So the result may
  // only be read as the member mask (the last operand) of shfl.sync, vote.sync or
  // bar.warp.sync; any other read of its register refuses the activemask (UNSUPPORTED) instead
  // of running on a value a GPU may not produce.
  void refuse_schedule_dependent_masks() {
    std::unordered_map<uint32_t, std::vector<size_t>> defined_at; // register -> activemask pcs
    for (size_t i = 0; i < p_.insts.size(); ++i) {
      const Inst& x = p_.insts[i];
      if (x.op == XOp::Activemask && !x.dsts.empty() && x.dsts[0].kind == OpKind::Reg)
        defined_at[x.dsts[0].reg].push_back(i);
    }
    if (defined_at.empty())
      return;
    auto refuse = [&](uint32_t reg, const Inst& reader) {
      auto it = defined_at.find(reg);
      if (it == defined_at.end())
        return;
      for (size_t pc : it->second) {
        if (p_.insts[pc].op != XOp::Activemask)
          continue; // refused already (its first other reader is named)
        p_.insts[pc].op = XOp::Unsupported;
        p_.unsupported_reasons[static_cast<uint32_t>(pc)] = fmt::format(
            "returns the lanes a GPU happens to run together, which depends on its scheduler; "
            "it is modelled only as the member mask of shfl.sync, vote.sync or bar.warp.sync, "
            "but its result {} is also read by '{}' (line {})",
            p_.registers[reg].name, reader.text, reader.line);
      }
    };
    for (const Inst& x : p_.insts) {
      const bool takes_mask = has_member_mask(x.op);
      for (size_t k = 0; k < x.srcs.size(); ++k) {
        if (x.srcs[k].kind == OpKind::Reg && !(takes_mask && k + 1 == x.srcs.size()))
          refuse(x.srcs[k].reg, x);
      }
      for (const MemRef& m : x.mem) {
        if (m.present && m.has_base)
          refuse(m.base, x);
      }
      if (x.has_guard)
        refuse(x.guard_reg, x);
    }
  }

  Inst lower_instruction(const ptx::Instruction& ins) {
    Inst x;
    x.line = ins.loc.line;
    x.column = ins.loc.column;
    x.text = ptx::print(ins);
    if (ins.debug_loc) {
      // Inlined code (a CUDA header's atomicAdd, say) is reported at the kernel's line that
      // called it, not inside the header.
      const ptx::DebugLocation& d = *ins.debug_loc;
      const bool inlined = d.inlined_line != 0;
      x.debug_file = static_cast<int32_t>(inlined ? d.inlined_file : d.file);
      x.debug_line = inlined ? d.inlined_line : d.line;
    }
    if (ins.guard) {
      const uint32_t* reg = regs_.find(ins.guard->predicate);
      if (reg == nullptr) {
        error(ins.loc, fmt::format("unknown predicate register '{}'", ins.guard->predicate));
      } else {
        x.has_guard = true;
        x.guard_negated = ins.guard->negated;
        x.guard_reg = *reg;
      }
    }
    if (auto why = unmodeled_operand(ins)) {
      // Valid PTX outside the model: refused when a thread reaches it, with its PTX line.
      x.op = XOp::Unsupported;
      p_.unsupported_reasons[static_cast<uint32_t>(p_.insts.size())] = std::move(*why);
      return x;
    }
    if (auto why = unmodeled_type(ins)) {
      // b128 and fp8 values: refused as above, so that no type outside modeled_type() reaches
      // the interpreter's switches, where it could be mistaken for another.
      x.op = XOp::Unsupported;
      p_.unsupported_reasons[static_cast<uint32_t>(p_.insts.size())] = std::move(*why);
      return x;
    }
    const auto& m = ins.modifiers;
    x.type = ins.type();
    x.type2 = ins.types.size() > 1 ? ins.types[1] : ValType::None;
    x.space = space_of(ins.space);
    x.rounding = rounding_of(ins);
    x.vec = ins.vector_width;
    x.sat = m.has(Modifier::Sat);
    x.relu = m.has(Modifier::Relu);
    x.ftz = m.has(Modifier::Ftz);
    x.approx = m.has(Modifier::Approx);
    x.volatile_ = m.has(Modifier::Volatile);
    x.wide = m.has(Modifier::Wide);
    x.hi = m.has(Modifier::Hi);
    x.cmp = static_cast<uint8_t>(ins.cmp);
    x.bool_op = static_cast<uint8_t>(ins.bool_op);
    decode(ins, x);
    x.float_mods = float_mods_of(ins, x).aux();
    if (x.op != XOp::Unsupported && has_unmodelled_modifier(ins, x))
      x.op = XOp::Unsupported;
    return x;
  }

  // Why a type of `ins` is outside the model, if one is: a type suffix, or the declared type of
  // a register it reads or writes, that modeled_type() refuses (b128, e4m3, e5m2, ...).
  std::optional<std::string> unmodeled_type(const ptx::Instruction& ins) const {
    for (ptx::ScalarType t : ins.types) {
      if (!modeled_type(t))
        return fmt::format("has the type .{} (b128 and fp8 values are not modeled)",
                           ptx::spelling(t));
    }
    std::optional<std::string> why;
    auto reg = [&](const std::string& name) {
      const uint32_t* slot = regs_.find(name);
      if (why || slot == nullptr)
        return;
      const ValType t = p_.registers[*slot].type;
      if (!modeled_type(t))
        why = fmt::format("uses the register {} of type .{} (b128 and fp8 values are not modeled)",
                          name, ptx::spelling(t));
    };
    auto operand = [&](const ptx::Operand& o, auto& self) -> void {
      if (const auto* n = std::get_if<ptx::NameOperand>(&o.value)) {
        reg(n->name);
      } else if (const auto* a = std::get_if<ptx::AddressOperand>(&o.value)) {
        if (a->base)
          reg(*a->base);
      } else if (const auto* v = std::get_if<ptx::VectorOperand>(&o.value)) {
        for (const ptx::Operand& e : v->elements)
          self(e, self);
      } else if (const auto* p = std::get_if<ptx::PairOperand>(&o.value)) {
        reg(p->first);
        reg(p->second);
      }
    };
    for (const ptx::Operand& o : ins.operands)
      operand(o, operand);
    return why;
  }

  // Why an operand of `ins` is outside the model, if one is: an address with coordinates
  // (texture, surface and tensor accesses), a texture/surface reference or a managed variable.
  std::optional<std::string> unmodeled_operand(const ptx::Instruction& ins) const {
    auto symbol = [&](const std::string& name) -> std::optional<std::string> {
      if (auto it = unmodeled_symbols_.find(name); it != unmodeled_symbols_.end())
        return it->second;
      return std::nullopt;
    };
    for (const ptx::Operand& o : ins.operands) {
      if (const auto* a = std::get_if<ptx::AddressOperand>(&o.value)) {
        // (cp.async.bulk's tensor operand is lower_bulk_copy's to take or refuse.)
        if (!a->coordinates.empty() && ins.opcode != ptx::Opcode::CpAsyncBulk)
          return std::string("takes an address with coordinates ([base, {...}]: texture, surface "
                             "and tensor accesses are not modeled)");
        if (a->base) {
          if (auto why = symbol(*a->base))
            return why;
        }
      } else if (const auto* n = std::get_if<ptx::NameOperand>(&o.value)) {
        if (auto why = symbol(n->name))
          return why;
        // A function's address as a value (`mov.u64 %rd1, f;`), for an indirect call.
        if (ins.opcode != ptx::Opcode::Call && regs_.find(n->name) == nullptr &&
            find_symbol(n->name) == nullptr && m_.find_function(n->name) != nullptr)
          return fmt::format("takes the address of function '{}' (function pointers are not "
                             "modeled)",
                             n->name);
      }
    }
    return std::nullopt;
  }

  // The modifiers a float operation's nodes carry (docs/semantics.md, "Floats observed as bits").
  static symbolic::FloatMods float_mods_of(const ptx::Instruction& ins, const Inst& x) {
    using symbolic::FloatMode;
    symbolic::FloatMods m;
    switch (x.rounding) {
    case Rounding::Rn:
      m.mode = FloatMode::Rn;
      break;
    case Rounding::Rz:
      m.mode = FloatMode::Rz;
      break;
    case Rounding::Rm:
      m.mode = FloatMode::Rm;
      break;
    case Rounding::Rp:
      m.mode = FloatMode::Rp;
      break;
    default:
      // cvt.rna (to nearest, ties away: cvt.rna.tf32.f32) shares div.full's code: no
      // instruction has both.
      m.mode = x.approx                                          ? FloatMode::Approx
               : ins.has_suffix("full") || ins.has_suffix("rna") ? FloatMode::Full
                                                                 : FloatMode::Default;
      break;
    }
    m.ftz = x.ftz;
    // Bit 7: .NaN on min/max, .satfinite on a conversion (it clamps an overflow to the largest
    // finite value instead of an infinity).
    m.nan_propagating = ins.has_suffix("NaN") || ins.has_suffix("satfinite");
    switch (x.type) {
    case ValType::F16:
    case ValType::F16x2:
      m.format = 1;
      break;
    case ValType::F32:
      m.format = 2;
      break;
    case ValType::F64:
      m.format = 3;
      break;
    case ValType::BF16:
    case ValType::BF16x2:
      m.format = symbolic::kFormatBF16;
      break;
    case ValType::TF32:
      m.format = 5;
      break;
    default:
      break;
    }
    return m;
  }

  // Modifiers that change an instruction's value but that the engine does not model on it: the
  // instruction is refused rather than run without them (max.relu.s32 ran as max.s32,
  // mad.hi.sat.s32 as mad.hi.s32 and min.xorsign.abs.f32 as min.f32: false EQUIVALENTs).
  static bool has_unmodelled_modifier(const ptx::Instruction& ins, const Inst& x) {
    for (const char* s : {"oob", "rs", "xorsign"}) {
      if (ins.has_suffix(s))
        return true;
    }
    if ((ins.opcode == Opcode::Min || ins.opcode == Opcode::Max) && ins.has_suffix("abs"))
      return true;
    if (ins.has_suffix("satfinite") && ins.opcode != Opcode::Cvt)
      return true;
    if (is_float(x.type) || ins.opcode == Opcode::Cvt)
      return false; // float .sat and .relu are modelled on every float operation, and on cvt
    // Integer .sat is modelled on add and sub only (add.sat.s32); integer .relu nowhere.
    return x.relu || (x.sat && x.op != XOp::IAdd && x.op != XOp::ISub);
  }

  // dst, src, src...
  void simple(const ptx::Instruction& ins, Inst& x, XOp op, size_t min_srcs, size_t max_srcs) {
    x.op = op;
    const auto& ops = ins.operands;
    if (ops.size() < 1 + min_srcs || ops.size() > 1 + max_srcs) {
      error(ins.loc,
            fmt::format("'{}' expects {} operands, got {}", ins.opcode_name,
                        min_srcs == max_srcs ? std::to_string(1 + min_srcs)
                                             : fmt::format("{} to {}", 1 + min_srcs, 1 + max_srcs),
                        ops.size()));
      x.op = XOp::Unsupported;
      return;
    }
    append_values(ops[0], ins, x.dsts);
    for (size_t i = 1; i < ops.size(); ++i)
      append_values(ops[i], ins, x.srcs);
  }

  void decode(const ptx::Instruction& ins, Inst& x) {
    const bool fl = is_float(x.type);
    const auto& ops = ins.operands;
    switch (ins.opcode) {
    case Opcode::Add:
      return simple(ins, x, fl ? XOp::FAdd : XOp::IAdd, 2, 2);
    case Opcode::Sub:
      return simple(ins, x, fl ? XOp::FSub : XOp::ISub, 2, 2);
    case Opcode::Mul:
      if (fl)
        return simple(ins, x, XOp::FMul, 2, 2);
      return simple(ins, x, x.wide ? XOp::IMulWide : x.hi ? XOp::IMulHi : XOp::IMulLo, 2, 2);
    case Opcode::Mad:
      if (fl)
        return simple(ins, x, XOp::FFma, 3, 3);
      return simple(ins, x, x.wide ? XOp::IMadWide : x.hi ? XOp::IMadHi : XOp::IMadLo, 3, 3);
    case Opcode::Mul24:
      return simple(ins, x, x.hi ? XOp::Unsupported : XOp::IMul24Lo, 2, 2);
    case Opcode::Mad24:
      return simple(ins, x, x.hi ? XOp::Unsupported : XOp::IMad24Lo, 3, 3);
    case Opcode::Sad:
      return simple(ins, x, XOp::Sad, 3, 3);
    case Opcode::Fma:
      return simple(ins, x, XOp::FFma, 3, 3);
    case Opcode::Div:
      return simple(ins, x, fl ? XOp::FDiv : XOp::IDiv, 2, 2);
    case Opcode::Rem:
      return simple(ins, x, XOp::IRem, 2, 2);
    case Opcode::Abs:
      return simple(ins, x, fl ? XOp::FAbs : XOp::IAbs, 1, 1);
    case Opcode::Neg:
      return simple(ins, x, fl ? XOp::FNeg : XOp::INeg, 1, 1);
    case Opcode::Min:
      return simple(ins, x, fl ? XOp::FMin : XOp::IMin, 2, 2);
    case Opcode::Max:
      return simple(ins, x, fl ? XOp::FMax : XOp::IMax, 2, 2);
    case Opcode::Rcp:
      return simple(ins, x, XOp::FRcp, 1, 1);
    case Opcode::Sqrt:
      return simple(ins, x, XOp::FSqrt, 1, 1);
    case Opcode::Rsqrt:
      return simple(ins, x, XOp::FRsqrt, 1, 1);
    case Opcode::Ex2:
      return simple(ins, x, XOp::FEx2, 1, 1);
    case Opcode::Lg2:
      return simple(ins, x, XOp::FLg2, 1, 1);
    case Opcode::Sin:
      return simple(ins, x, XOp::FSin, 1, 1);
    case Opcode::Cos:
      return simple(ins, x, XOp::FCos, 1, 1);
    case Opcode::Tanh:
      return simple(ins, x, XOp::FTanh, 1, 1);
    case Opcode::Copysign:
      return simple(ins, x, XOp::FCopysign, 2, 2);
    case Opcode::Testp:
      return simple(ins, x, XOp::Unsupported, 1, 1);
    case Opcode::And:
      return simple(ins, x, XOp::And, 2, 2);
    case Opcode::Or:
      return simple(ins, x, XOp::Or, 2, 2);
    case Opcode::Xor:
      return simple(ins, x, XOp::Xor, 2, 2);
    case Opcode::Not:
      return simple(ins, x, XOp::Not, 1, 1);
    case Opcode::Cnot:
      return simple(ins, x, XOp::CNot, 1, 1);
    case Opcode::Shl:
      return simple(ins, x, XOp::Shl, 2, 2);
    case Opcode::Shr:
      return simple(ins, x, XOp::Shr, 2, 2);
    case Opcode::Popc:
      return simple(ins, x, XOp::Popc, 1, 1);
    case Opcode::Clz:
      return simple(ins, x, XOp::Clz, 1, 1);
    case Opcode::Brev:
      return simple(ins, x, XOp::Brev, 1, 1);
    case Opcode::Bfind:
      x.sub = ins.has_suffix("shiftamt") ? 1 : 0;
      return simple(ins, x, XOp::Bfind, 1, 1);
    case Opcode::Bfe:
      return simple(ins, x, XOp::Bfe, 3, 3);
    case Opcode::Bfi:
      return simple(ins, x, XOp::Bfi, 4, 4);
    case Opcode::Prmt:
      if (ins.suffixes.size() > 1)
        return simple(ins, x, XOp::Unsupported, 3, 3); // prmt modes
      return simple(ins, x, XOp::Prmt, 3, 3);
    case Opcode::Lop3:
      return simple(ins, x, XOp::Lop3, 4, 4);
    case Opcode::Shf:
      return simple(ins, x, ins.has_suffix("l") ? XOp::ShfL : XOp::ShfR, 3, 3);
    case Opcode::Setp:
      return simple(ins, x, XOp::Setp, 2, 3);
    case Opcode::Set:
      return simple(ins, x, XOp::Set, 2, 3);
    case Opcode::Selp:
      return simple(ins, x, XOp::Selp, 3, 3);
    case Opcode::Mov:
      simple(ins, x, XOp::Mov, 1, 1);
      if (x.dsts.size() > 1 && x.srcs.size() == 1)
        x.sub = 2; // unpack
      if (x.dsts.size() == 1 && x.srcs.size() > 1)
        x.sub = 1; // pack
      return;
    case Opcode::Cvt:
      if (ins.types.size() != 2) {
        error(ins.loc, "cvt needs a destination and a source type");
        x.op = XOp::Unsupported;
        return;
      }
      {
        // cvt.rn.f16x2.f32 d, a, b (and .bf16x2): two sources, d.hi = a, d.lo = b.
        const bool packed =
            ins.types[0] == ptx::ScalarType::F16x2 || ins.types[0] == ptx::ScalarType::BF16x2;
        return simple(ins, x, XOp::Cvt, packed ? 2 : 1, packed ? 2 : 1);
      }
    case Opcode::Mapa:
      // mapa{.shared::cluster}.type d, a, rank: `a` a register, a variable or variable+imm.
      return simple(ins, x, XOp::Mapa, 2, 2);
    case Opcode::Cvta:
      x.sub = ins.modifiers.has(Modifier::To) ? 1 : 0; // 1: generic -> space
      return simple(ins, x, XOp::Cvta, 1, 1);
    case Opcode::Ld:
    case Opcode::Ldu: {
      x.op = XOp::Ld;
      x.non_coherent = ins.opcode == Opcode::Ldu || ins.has_suffix("nc");
      // ld...L2::cache_hint d, [a], cache-policy: the policy is a hint, no value.
      const size_t policy = ins.has_suffix("L2::cache_hint") ? 1 : 0;
      if (ops.size() != 2 + policy)
        return bad_operands(ins, x, 2 + policy);
      append_values(ops[0], ins, x.dsts);
      mem_operand(ops[1], ins, x.mem[0]);
      return;
    }
    case Opcode::St:
      x.op = XOp::St;
      if (ops.size() != 2)
        return bad_operands(ins, x, 2);
      mem_operand(ops[0], ins, x.mem[0]);
      append_values(ops[1], ins, x.srcs);
      return;
    case Opcode::Atom:
      return decode_atom(ins, x, false);
    case Opcode::Red:
      return decode_atom(ins, x, true);
    case Opcode::CpAsync:
      return decode_cp_async(ins, x);
    case Opcode::Prefetch:
      x.op = XOp::Prefetch;
      return;
    case Opcode::Ldmatrix:
      x.op = XOp::Ldmatrix;
      x.trans = ins.has_suffix("trans");
      x.sub = ins.has_suffix("x4") ? 4 : ins.has_suffix("x2") ? 2 : 1;
      if (!ins.has_suffix("m8n8") || ops.size() != 2)
        return unsupported_form(ins, x);
      append_values(ops[0], ins, x.dsts);
      mem_operand(ops[1], ins, x.mem[0]);
      if (x.dsts.size() != x.sub)
        return unsupported_form(ins, x);
      return;
    case Opcode::Wmma:
      return decode_wmma(ins, x);
    case Opcode::Mma:
      return decode_mma(ins, x);
    case Opcode::Bra:
      x.op = XOp::Bra;
      if (ops.size() != 1 || !ops[0].is<ptx::NameOperand>())
        return bad_operands(ins, x, 1);
      if (const uint32_t* target = labels_.find(ops[0].as<ptx::NameOperand>().name)) {
        x.target = *target;
      } else {
        error(ops[0].loc.line ? ops[0].loc : ins.loc,
              fmt::format("undefined label '{}'", ops[0].as<ptx::NameOperand>().name));
      }
      return;
    case Opcode::Call:
      return decode_call(ins, x);
    case Opcode::Ret:
      x.op = XOp::Ret;
      return;
    case Opcode::Exit:
      x.op = XOp::Exit;
      return;
    case Opcode::Trap:
      x.op = XOp::Trap;
      return;
    case Opcode::Bar:
    case Opcode::Barrier:
      if (ins.has_suffix("cluster"))
        return unsupported_form(ins, x); // barrier.cluster.arrive/wait: clusters (issue 33)
      if (ins.has_suffix("warp")) {
        x.op = XOp::BarWarpSync;
      } else if (ins.has_suffix("arrive")) {
        x.op = XOp::BarArrive;
      } else if (ins.has_suffix("red")) {
        return unsupported_form(ins, x);
      } else {
        x.op = XOp::BarSync;
      }
      if (x.op != XOp::BarWarpSync)
        x.sub = barrier_form(ins);
      for (const auto& o : ops)
        append_values(o, ins, x.srcs);
      if (x.srcs.empty() || x.srcs.size() > 2)
        return bad_operands(ins, x, 1);
      // bar.arrive does not wait: it needs the thread count of the barrier it signals (PTX ISA,
      // "a non-zero thread count is required for barrier{.cta}.arrive").
      if (x.op == XOp::BarArrive && x.srcs.size() != 2)
        return bad_operands(ins, x, 2);
      return;
    case Opcode::Membar:
    case Opcode::Fence:
      // fence.proxy.async{.space} orders the generic proxy's accesses with the async proxy's:
      // of those only wgmma's operand reads are modelled, which check it (exec_warpgroup_mma.cpp);
      // it is kept apart (Inst::sub) for that check, and orders nothing else.
      // fence.mbarrier_init.release.cluster makes mbarrier inits visible to the cluster's other
      // CTAs: a cluster of one CTA has none (clusters of more are refused), and as a fence it
      // orders nothing the race check relies on. fence.proxy.tensormap::generic orders
      // tensor-map writes (not modelled): refused.
      if (ins.opcode == Opcode::Fence && is_fence_proxy_async(ins)) {
        x.op = XOp::Fence;
        x.sub = kFenceProxyAsync;
        return;
      }
      if (ins.has_suffix("proxy") && !ins.has_suffix("alias"))
        return unsupported_form(ins, x);
      x.op = XOp::Fence;
      return;
    case Opcode::Shfl: {
      x.op = XOp::Shfl;
      if (ins.has_suffix("up"))
        x.sub = static_cast<uint8_t>(ShflMode::Up);
      else if (ins.has_suffix("down"))
        x.sub = static_cast<uint8_t>(ShflMode::Down);
      else if (ins.has_suffix("bfly"))
        x.sub = static_cast<uint8_t>(ShflMode::Bfly);
      else
        x.sub = static_cast<uint8_t>(ShflMode::Idx);
      if (!ins.modifiers.has(Modifier::Sync))
        return unsupported_form(ins, x); // pre-Volta form
      if (ops.size() != 5)
        return bad_operands(ins, x, 5);
      append_values(ops[0], ins, x.dsts);
      for (size_t i = 1; i < ops.size(); ++i)
        append_values(ops[i], ins, x.srcs);
      return;
    }
    case Opcode::Vote:
      x.op = XOp::Vote;
      if (ins.has_suffix("all"))
        x.sub = static_cast<uint8_t>(VoteMode::All);
      else if (ins.has_suffix("any"))
        x.sub = static_cast<uint8_t>(VoteMode::Any);
      else if (ins.has_suffix("uni"))
        x.sub = static_cast<uint8_t>(VoteMode::Uni);
      else if (ins.has_suffix("ballot"))
        x.sub = static_cast<uint8_t>(VoteMode::Ballot);
      else
        return unsupported_form(ins, x);
      if (!ins.modifiers.has(Modifier::Sync) || ops.size() != 3)
        return unsupported_form(ins, x);
      append_values(ops[0], ins, x.dsts);
      append_values(ops[1], ins, x.srcs);
      append_values(ops[2], ins, x.srcs);
      return;
    case Opcode::Activemask:
      return simple(ins, x, XOp::Activemask, 0, 0);
    case Opcode::Stmatrix:
      return decode_stmatrix(ins, x);
    case Opcode::Wgmma:
      return decode_wgmma(ins, x);
    case Opcode::Mbarrier:
      return lower_mbarrier(ins, x);
    case Opcode::Elect:
    case Opcode::Setmaxnreg:
    case Opcode::Griddepcontrol:
      return lower_warp_specialization(ins, x);
    case Opcode::Redux:
    case Opcode::Match:
      return lower_warp_reduction(ins, x);
    // Valid PTX that neither machine models: refused when a thread reaches it, with its PTX
    // line (Program::unsupported_reasons, or the instruction itself). No `default:` here, so
    // that a new opcode of opcodes.def is lowered or refused where it is added.
    case Opcode::Other: // every opcode of PTX without an enumerator (tex, ...)
    case Opcode::Addc:
    case Opcode::Subc:
    case Opcode::Madc:
    case Opcode::Fns:
    case Opcode::Bmsk:
    case Opcode::Dp4a:
    case Opcode::Dp2a:
    case Opcode::Slct:
    case Opcode::Isspacep:
    case Opcode::Brkpt:
    case Opcode::Nanosleep:
      x.op = XOp::Unsupported;
      return;
    // Hopper (issue 33): cp.async.bulk is its own opcode so that its commit_group and
    // wait_group are never run as sm_80's cp.async groups.
    case Opcode::CpAsyncBulk:
      return lower_bulk_copy(ins, x);
    }
  }

  // cp.async.bulk (PTX ISA 9.7.9.25; forms checked by ptx/async_forms.cpp). Modelled: the tiled
  // tensor load `cp.async.bulk.tensor.Nd.shared::{cluster,cta}.global{.tile}
  // .mbarrier::complete_tx::bytes{.L2::cache_hint} [dst], [map, {c0..}], [mbar]{, policy}` as
  // XOp::TensorLoad (mem[0] the destination, mem[1] the mbarrier, srcs[0] the map's address,
  // srcs[1..rank] the coordinates; the cache policy is a hint without effect), and the tensor
  // prefetch (a hint: no effect). Everything else is refused with its reason.
  void lower_bulk_copy(const ptx::Instruction& ins, Inst& x) {
    const auto& ops = ins.operands;
    auto refuse = [&](std::string why) {
      x.op = XOp::Unsupported;
      p_.unsupported_reasons[static_cast<uint32_t>(p_.insts.size())] = std::move(why);
    };
    auto any_suffix = [&](std::string_view prefix) {
      return std::any_of(ins.suffixes.begin(), ins.suffixes.end(),
                         [&](const std::string& s) { return s.starts_with(prefix); });
    };
    const std::string_view third =
        ins.suffixes.size() > 2 ? std::string_view(ins.suffixes[2]) : std::string_view();
    const bool prefetch = third == "prefetch";
    const bool tensor =
        third == "tensor" || (prefetch && ins.suffixes.size() > 3 && ins.suffixes[3] == "tensor");
    if (third == "commit_group" && ops.empty()) {
      x.op = XOp::BulkCommit;
      return;
    }
    if (third == "wait_group") {
      x.op = XOp::BulkWait;
      x.sub = ins.has_suffix("read") ? kBulkWaitRead : 0;
      if (ops.size() != 1 || !append_values(ops[0], ins, x.srcs) || x.srcs[0].kind != OpKind::Imm)
        return unsupported_form(ins, x); // async_forms.cpp refuses these first
      return;
    }
    if (!tensor)
      return refuse("is a non-tensor bulk copy (not modelled)");
    if (any_suffix("im2col"))
      return refuse("is an im2col tensor copy (only the tile mode is modelled)");
    if (any_suffix("tile::gather4"))
      return refuse("is a tile::gather4 tensor copy (only the plain tile mode is modelled)");
    if (prefetch) {
      x.op = XOp::Prefetch; // cp.async.bulk.prefetch.tensor: a hint to the L2 cache
      return;
    }
    if (ins.has_suffix("bulk_group"))
      return lower_tensor_store(ins, x);
    if (ins.has_suffix("multicast::cluster"))
      return refuse("is a .multicast::cluster tensor load (clusters are not modelled)");
    if (any_suffix("cta_group"))
      return refuse("names a CTA group (.cta_group: not modelled)");
    int rank = 0;
    for (const std::string& s : ins.suffixes) {
      if (s.size() == 2 && s[1] == 'd' && s[0] >= '1' && s[0] <= '5')
        rank = s[0] - '0';
    }
    const auto* tensor_op =
        ops.size() >= 3 ? std::get_if<ptx::AddressOperand>(&ops[1].value) : nullptr;
    if (rank == 0 || tensor_op == nullptr || !tensor_op->base ||
        tensor_op->coordinates.size() != 1 || !tensor_op->coordinates[0].is<ptx::VectorOperand>())
      return unsupported_form(ins, x); // async_forms.cpp refuses these first
    x.op = XOp::TensorLoad;
    x.space = Space::Shared; // [dst] and [mbar] are .shared::cluster (this CTA's, cluster 1)
    ptx::Operand map;
    map.value = ptx::NameOperand{*tensor_op->base};
    map.loc = ops[1].loc;
    const auto map_value = value_operand(map, ins);
    bool ok = map_value.has_value() && mem_operand(ops[0], ins, x.mem[0]) &&
              mem_operand(ops[2], ins, x.mem[1]);
    if (ok) {
      x.srcs.push_back(*map_value);
      ok = append_values(tensor_op->coordinates[0], ins, x.srcs, &x.groups[0]);
    }
    if (!ok || x.groups[0] != rank)
      x.op = XOp::Unsupported;
  }

  // The tiled tensor store `cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group
  // {.L2::cache_hint} [map, {c0..}], [src]{, policy}` as XOp::TensorStore (mem[0] the shared
  // source, srcs[0] the map's address, srcs[1..rank] the coordinates; the cache policy is a hint
  // without effect). The program then tracks generic-proxy shared writes (the store reads its
  // source through the async proxy).
  void lower_tensor_store(const ptx::Instruction& ins, Inst& x) {
    const auto& ops = ins.operands;
    int rank = 0;
    for (const std::string& s : ins.suffixes) {
      if (s.size() == 2 && s[1] == 'd' && s[0] >= '1' && s[0] <= '5')
        rank = s[0] - '0';
    }
    const auto* tensor_op =
        ops.size() >= 2 ? std::get_if<ptx::AddressOperand>(&ops[0].value) : nullptr;
    if (rank == 0 || tensor_op == nullptr || !tensor_op->base ||
        tensor_op->coordinates.size() != 1 || !tensor_op->coordinates[0].is<ptx::VectorOperand>())
      return unsupported_form(ins, x); // async_forms.cpp refuses these first
    x.op = XOp::TensorStore;
    x.space = Space::Shared;
    ptx::Operand map;
    map.value = ptx::NameOperand{*tensor_op->base};
    map.loc = ops[0].loc;
    const auto map_value = value_operand(map, ins);
    bool ok = map_value.has_value() && mem_operand(ops[1], ins, x.mem[0]);
    if (ok) {
      x.srcs.push_back(*map_value);
      ok = append_values(tensor_op->coordinates[0], ins, x.srcs, &x.groups[0]);
    }
    if (!ok || x.groups[0] != rank)
      x.op = XOp::Unsupported;
    p_.uses_tensor_store = true;
  }

  // mbarrier operations on a CTA's own shared memory (PTX ISA 9.7.13.15; forms checked by
  // ptx/async_forms.cpp). Refused here: .relaxed (an arrive that does not release, a wait that
  // does not acquire), .noComplete, pending_count (reads the opaque state). The waits are checked
  // by refuse_inexact_waits() after lowering. A .shared::cluster barrier is the executing CTA's
  // own: the machines run clusters of one CTA (run_kernel refuses larger ones), whose
  // shared::cluster window is the CTA's own shared memory (cluster_address.hpp); CUTLASS's
  // consumers release a stage by a remote arrive through mapa to their own rank.
  void lower_mbarrier(const ptx::Instruction& ins, Inst& x) {
    const auto& ops = ins.operands;
    const std::string& verb = ins.suffixes.empty() ? std::string() : ins.suffixes[0];
    auto refuse = [&](std::string why) {
      x.op = XOp::Unsupported;
      p_.unsupported_reasons[static_cast<uint32_t>(p_.insts.size())] = std::move(why);
    };
    if (ins.has_suffix("relaxed"))
      return refuse("is .relaxed: an mbarrier operation without release or acquire order is "
                    "not modelled");
    if (ins.has_suffix("noComplete"))
      return refuse("is .noComplete (not modelled)");
    if (x.space != Space::Shared && x.space != Space::Generic)
      return unsupported_form(ins, x);
    auto address = [&](size_t i) { return ops.size() > i && mem_operand(ops[i], ins, x.mem[0]); };
    auto values = [&](size_t from, std::vector<Operand>& out) {
      for (size_t i = from; i < ops.size(); ++i) {
        if (!append_values(ops[i], ins, out))
          return false;
      }
      return true;
    };
    bool ok = false;
    if (verb == "init" || verb == "inval") {
      x.op = verb == "init" ? XOp::MbarInit : XOp::MbarInval;
      ok = address(0) && values(1, x.srcs);
    } else if (verb == "arrive" || verb == "arrive_drop") {
      x.op = XOp::MbarArrive;
      x.sub = static_cast<uint8_t>((verb == "arrive_drop" ? kMbarDrop : 0) |
                                   (ins.has_suffix("expect_tx") ? kMbarExpectTx : 0));
      ok = ops.size() >= 2 && append_values(ops[0], ins, x.dsts) && address(1) && values(2, x.srcs);
    } else if (verb == "expect_tx" || verb == "complete_tx") {
      x.op = XOp::MbarTx;
      x.sub = verb == "complete_tx" ? kMbarComplete : 0;
      ok = address(0) && values(1, x.srcs);
    } else if (verb == "test_wait" || verb == "try_wait") {
      // The suspend-time hint of try_wait (a fourth operand) only bounds how long one try
      // waits: the exact-wait model below does not depend on it.
      x.op = XOp::MbarWait;
      x.sub = ins.has_suffix("parity") ? kMbarParity : 0;
      ok = ops.size() >= 3 && append_values(ops[0], ins, x.dsts) && address(1) &&
           append_values(ops[2], ins, x.srcs);
    } else {
      return refuse("reads the opaque state of an mbarrier (pending_count is not modelled)");
    }
    if (!ok)
      x.op = XOp::Unsupported;
  }

  // An mbarrier wait (test_wait, try_wait) may return false before its phase completes: a
  // try_wait after a time limit, a test_wait whenever the phase is pending. The machines model
  // a wait exactly only where the false outcome leads straight back to the same wait, with no
  // other effect: the instruction after it is `@!p bra W` (W the wait), or `@p bra X` followed by
  // an unguarded `bra W`. Then the thread blocks until the phase completes and p is true, which
  // is what every schedule of the loop ends with. Another use of p could observe a false the
  // hardware may or may not give: the wait is refused (UNSUPPORTED at its line).
  //
  // An arrive's state token is opaque (the ISA does not say its bits): it may only be the state
  // operand of a wait. A token register that another instruction writes or reads refuses the
  // arrive (or the wait), never a guessed value.
  void refuse_inexact_waits() {
    std::unordered_map<uint32_t, bool> token_only; // register -> written by arrives only
    for (const Inst& x : p_.insts) {
      for (const Operand& d : x.dsts) {
        if (d.kind == OpKind::Reg) {
          auto [it, fresh] = token_only.try_emplace(d.reg, x.op == XOp::MbarArrive);
          it->second = it->second && x.op == XOp::MbarArrive;
        }
      }
    }
    auto is_token = [&](uint32_t reg) {
      auto it = token_only.find(reg);
      return it != token_only.end() && it->second;
    };
    // A read other than a wait's state is a misuse wherever some arrive writes the register, also
    // when other instructions write it too: the read may still see the arrive's state.
    std::unordered_set<uint32_t> some_token;
    for (const Inst& x : p_.insts) {
      if (x.op == XOp::MbarArrive && !x.dsts.empty() && x.dsts[0].kind == OpKind::Reg)
        some_token.insert(x.dsts[0].reg);
    }
    auto may_be_token = [&](uint32_t reg) { return some_token.count(reg) != 0; };
    for (size_t i = 0; i < p_.insts.size(); ++i) {
      const Inst& x = p_.insts[i];
      const bool wait_state = x.op == XOp::MbarWait && (x.sub & kMbarParity) == 0;
      auto reads = [&](uint32_t reg, size_t k) {
        return may_be_token(reg) && !(wait_state && k == 0);
      };
      bool misuse = x.has_guard && may_be_token(x.guard_reg);
      for (size_t k = 0; k < x.srcs.size(); ++k)
        misuse = misuse || (x.srcs[k].kind == OpKind::Reg && reads(x.srcs[k].reg, k));
      for (const MemRef& m : x.mem)
        misuse = misuse || (m.present && m.has_base && may_be_token(m.base));
      if (misuse) {
        p_.insts[i].op = XOp::Unsupported;
        p_.unsupported_reasons[static_cast<uint32_t>(i)] =
            "reads the state an mbarrier arrive returned, whose bits the PTX ISA leaves opaque "
            "(only a wait may take it)";
      }
      if (wait_state && !(x.srcs[0].kind == OpKind::Reg && is_token(x.srcs[0].reg))) {
        p_.insts[i].op = XOp::Unsupported;
        p_.unsupported_reasons[static_cast<uint32_t>(i)] =
            "waits with a state that is not (only) an mbarrier arrive's result";
      }
    }
    for (size_t i = 0; i < p_.insts.size(); ++i) {
      Inst& x = p_.insts[i];
      if (x.op != XOp::MbarWait)
        continue;
      const auto pc = static_cast<uint32_t>(i);
      auto branch_on = [&](size_t j, bool negated, uint32_t target) {
        if (j >= p_.insts.size())
          return false;
        const Inst& b = p_.insts[j];
        return b.op == XOp::Bra && b.has_guard && b.guard_reg == x.dsts[0].reg &&
               b.guard_negated == negated && (target == UINT32_MAX || b.target == target);
      };
      const bool reg = x.dsts.size() == 1 && x.dsts[0].kind == OpKind::Reg;
      const bool back = reg && branch_on(i + 1, true, pc);
      const bool around = reg && branch_on(i + 1, false, UINT32_MAX) && i + 2 < p_.insts.size() &&
                          p_.insts[i + 2].op == XOp::Bra && !p_.insts[i + 2].has_guard &&
                          p_.insts[i + 2].target == pc;
      if (back || around || probe_then_wait(i))
        continue;
      x.op = XOp::Unsupported;
      p_.unsupported_reasons[pc] =
          "is an mbarrier wait whose false outcome does not lead straight back to it (the next "
          "instruction is not '@!p bra' to the wait, nor '@p bra' then 'bra' to it): a try_wait "
          "may return false at any time, which the engine does not guess";
    }
  }

  // CUTLASS's ClusterBarrier::wait (a probe, then the wait loop only if the probe said no):
  //   i    mbarrier.try_wait.parity P, [a], parity;      (the probe)
  //   i+1  selp.b32 r, 1, 0, P;
  //   i+2  setp.ne.s32 q, r, 0;
  //   i+3  @q bra T;
  //        mov.u32 h, imm;                               (any number: suspend-time hints)
  //   W    mbarrier.try_wait.parity P', [a], parity{, h}; (an exact loop: @P' bra T; bra W)
  // Both outcomes of the probe end at T with the same phase observed complete and acquired, and
  // differ only in r, q and h (and P, P'). So the probe is run as an exact wait (it blocks until
  // the phase completes, then says yes) when nothing else reads those registers: a read could
  // see the outcome the hardware may or may not give. Any other shape is refused by the caller.
  bool probe_then_wait(size_t i) const {
    const auto& in = p_.insts;
    auto reg_dst = [&](size_t j) -> std::optional<uint32_t> {
      if (j >= in.size() || in[j].has_guard || in[j].dsts.size() != 1 ||
          in[j].dsts[0].kind != OpKind::Reg)
        return std::nullopt;
      return in[j].dsts[0].reg;
    };
    auto is_reg = [](const Operand& o, uint32_t r) { return o.kind == OpKind::Reg && o.reg == r; };
    auto is_imm = [](const Operand& o, uint64_t v) {
      return o.kind == OpKind::Imm && !o.imm_is_float && o.imm == v;
    };
    const Inst& probe = in[i];
    const auto p = reg_dst(i);
    if (!p || probe.has_guard || (probe.sub & kMbarParity) == 0 || i + 4 >= in.size())
      return false;
    const Inst& sel = in[i + 1];
    const auto r = reg_dst(i + 1);
    if (!r || sel.op != XOp::Selp || sel.srcs.size() != 3 || !is_imm(sel.srcs[0], 1) ||
        !is_imm(sel.srcs[1], 0) || !is_reg(sel.srcs[2], *p) || sel.srcs[2].negated)
      return false;
    const Inst& test = in[i + 2];
    const auto q = reg_dst(i + 2);
    if (!q || test.op != XOp::Setp || test.cmp != static_cast<uint8_t>(ptx::CmpOp::Ne) ||
        test.srcs.size() != 2 || !is_reg(test.srcs[0], *r) || !is_imm(test.srcs[1], 0))
      return false;
    const Inst& skip = in[i + 3];
    if (skip.op != XOp::Bra || !skip.has_guard || skip.guard_negated || skip.guard_reg != *q)
      return false;
    std::unordered_set<uint32_t> hints;
    size_t w = i + 4;
    for (; w < in.size() && in[w].op == XOp::Mov; ++w) {
      const auto h = reg_dst(w);
      if (!h || in[w].srcs.size() != 1 || in[w].srcs[0].kind != OpKind::Imm)
        return false;
      hints.insert(*h);
    }
    if (w + 2 >= in.size())
      return false;
    const Inst& wait = in[w];
    const auto p2 = reg_dst(w);
    const MemRef& a = probe.mem[0];
    const MemRef& b = wait.mem[0];
    if (!p2 || wait.op != XOp::MbarWait || wait.sub != probe.sub || wait.space != probe.space ||
        a.has_base != b.has_base || a.base != b.base || a.offset != b.offset ||
        wait.srcs.size() != 1 || probe.srcs.size() != 1 || !is_reg(wait.srcs[0], probe.srcs[0].reg))
      return false;
    const Inst& done = in[w + 1];
    const Inst& again = in[w + 2];
    if (done.op != XOp::Bra || !done.has_guard || done.guard_negated || done.guard_reg != *p2 ||
        done.target != skip.target || again.op != XOp::Bra || again.has_guard || again.target != w)
      return false;
    // Nothing reads the outcome's registers but the pattern itself; none is written between
    // the probe and the branch (the pattern's own instructions are consecutive).
    std::unordered_set<uint32_t> outcome = hints;
    outcome.insert({*p, *r, *q, *p2});
    for (size_t j = 0; j < in.size(); ++j) {
      const bool own = j == i + 1 || j == i + 2 || j == i + 3 || j == w + 1;
      if (own)
        continue;
      const Inst& x = in[j];
      if (x.has_guard && outcome.count(x.guard_reg) != 0)
        return false;
      for (const Operand& s : x.srcs) {
        if (s.kind == OpKind::Reg && outcome.count(s.reg) != 0)
          return false;
      }
      for (const MemRef& m : x.mem) {
        if (m.present && m.has_base && outcome.count(m.base) != 0)
          return false;
      }
    }
    return true;
  }

  // redux.sync.op.type d, a, membermask (sm_80: add, min, max of .u32/.s32, and, or, xor of .b32;
  // the .f32 min and max of sm_100a are not modelled) and match.{any,all}.sync.{b32,b64}
  // d[|p], a, membermask (sm_70). ptx/validate.cpp checks the forms as ptxas does.
  void lower_warp_reduction(const ptx::Instruction& ins, Inst& x) {
    const auto& ops = ins.operands;
    if (!ins.has_suffix("sync") || ops.size() != 3)
      return unsupported_form(ins, x);
    if (ins.opcode == Opcode::Redux) {
      if (x.type == ValType::F32)
        return unsupported_form(ins, x); // sm_100a's float reduction
      x.op = XOp::Redux;
      const std::pair<const char*, AtomOp> kinds[] = {{"add", AtomOp::Add}, {"min", AtomOp::Min},
                                                      {"max", AtomOp::Max}, {"and", AtomOp::And},
                                                      {"or", AtomOp::Or},   {"xor", AtomOp::Xor}};
      bool found = false;
      for (const auto& [word, kind] : kinds) {
        if (ins.has_suffix(word)) {
          x.sub = static_cast<uint8_t>(kind);
          found = true;
        }
      }
      if (!found)
        return unsupported_form(ins, x);
    } else {
      x.op = XOp::Match;
      x.sub = ins.has_suffix("all") ? 1 : 0;
    }
    if (!append_values(ops[0], ins, x.dsts) || !append_values(ops[1], ins, x.srcs) ||
        !append_values(ops[2], ins, x.srcs))
      x.op = XOp::Unsupported;
  }

  // elect.sync d|p, membermask; setmaxnreg.{inc,dec}.sync.aligned.u32 count;
  // griddepcontrol.{launch_dependents,wait} (PTX ISA 9.7.13.x, 9.7.19.6; docs/ptx.md). Their
  // operand forms are checked by ptx/async_forms.cpp where ptxas checks them; the suffixes here.
  void lower_warp_specialization(const ptx::Instruction& ins, Inst& x) {
    const auto& ops = ins.operands;
    auto only = [&](std::initializer_list<const char*> words) {
      for (const std::string& s : ins.suffixes) {
        if (std::find_if(words.begin(), words.end(), [&](const char* w) { return s == w; }) ==
            words.end())
          return false;
      }
      return true;
    };
    switch (ins.opcode) {
    case Opcode::Elect:
      // The destination pair d|p (either may be the sink `_`) and the member mask.
      if (!only({"sync"}) || !ins.has_suffix("sync") || ops.size() != 2 ||
          !std::holds_alternative<ptx::PairOperand>(ops[0].value))
        return unsupported_form(ins, x);
      x.op = XOp::Elect;
      if (!append_values(ops[0], ins, x.dsts) || !append_values(ops[1], ins, x.srcs))
        x.op = XOp::Unsupported;
      return;
    case Opcode::Setmaxnreg:
      // The register count only bounds the allocation (no value changes); every thread of the
      // warpgroup executes the same instruction (.sync.aligned), checked by the machines.
      if (!only({"inc", "dec", "sync", "aligned", "u32"}) || !ins.has_suffix("sync") ||
          !ins.has_suffix("aligned") || ins.has_suffix("inc") == ins.has_suffix("dec") ||
          ops.size() != 1)
        return unsupported_form(ins, x);
      x.op = XOp::Setmaxnreg;
      x.sub = ins.has_suffix("inc") ? 1 : 0;
      return append_values(ops[0], ins, x.srcs) ? void() : unsupported_form(ins, x);
    default: // Opcode::Griddepcontrol
      // launch_dependents lets a dependent grid launch early, wait waits for the prerequisite
      // grids of a programmatic dependent launch (and their memory): a single launch has none,
      // so both return at once with nothing to order.
      if (ins.suffixes.size() != 1 || !only({"launch_dependents", "wait"}) || !ops.empty())
        return unsupported_form(ins, x);
      x.op = XOp::Griddepcontrol;
      return;
    }
  }

  void bad_operands(const ptx::Instruction& ins, Inst& x, size_t expected) {
    error(ins.loc, fmt::format("'{}' expects {} operand{}, got {}", ins.opcode_name, expected,
                               expected == 1 ? "" : "s", ins.operands.size()));
    x.op = XOp::Unsupported;
  }

  void unsupported_form(const ptx::Instruction&, Inst& x) { x.op = XOp::Unsupported; }

  // kBarrierAligned / kBarrierWarpAligned of a CTA barrier (PTX ISA, "barrier"): `bar.sync` and
  // `bar.arrive` are `barrier.sync.aligned` and `barrier.arrive.aligned`; `barrier` is aligned
  // with `.aligned` only. Below sm_70 a barrier without `.aligned` must still be reached at one
  // instruction by all the threads of a warp; a module without an sm target is read so too (the
  // stricter reading can only report more).
  uint8_t barrier_form(const ptx::Instruction& ins) const {
    if (ins.opcode == Opcode::Bar || ins.modifiers.has(Modifier::Aligned))
      return kBarrierAligned;
    const auto sm = sm_version(m_.targets);
    return sm && *sm >= 70 ? 0 : kBarrierWarpAligned;
  }

  void decode_atom(const ptx::Instruction& ins, Inst& x, bool is_red) {
    x.op = is_red ? XOp::Red : XOp::Atom;
    static const std::pair<std::string_view, AtomOp> table[] = {
        {"add", AtomOp::Add},   {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
        {"dec", AtomOp::Dec},   {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
        {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas}};
    bool found = false;
    for (const auto& [n, op] : table) {
      if (ins.has_suffix(n)) {
        x.sub = static_cast<uint8_t>(op);
        found = true;
        break;
      }
    }
    if (!found || x.vec != 1)
      return unsupported_form(ins, x);
    const auto& ops = ins.operands;
    size_t i = 0;
    if (!is_red) {
      if (ops.empty())
        return bad_operands(ins, x, 3);
      append_values(ops[i++], ins, x.dsts);
    }
    if (i >= ops.size())
      return bad_operands(ins, x, is_red ? 2 : 3);
    mem_operand(ops[i++], ins, x.mem[0]);
    for (; i < ops.size(); ++i)
      append_values(ops[i], ins, x.srcs);
    const size_t want = static_cast<AtomOp>(x.sub) == AtomOp::Cas ? 2 : 1;
    if (x.srcs.size() != want)
      return bad_operands(ins, x, (is_red ? 1 : 2) + want);
  }

  void decode_cp_async(const ptx::Instruction& ins, Inst& x) {
    if (ins.has_suffix("commit_group")) {
      x.op = XOp::CpAsyncCommit;
      return;
    }
    if (ins.has_suffix("wait_group")) {
      x.op = XOp::CpAsyncWait;
      x.sub = 0;
      for (const auto& o : ins.operands)
        append_values(o, ins, x.srcs);
      if (x.srcs.size() != 1)
        return bad_operands(ins, x, 1);
      return;
    }
    if (ins.has_suffix("wait_all")) {
      x.op = XOp::CpAsyncWait;
      x.sub = 1;
      return;
    }
    if (ins.has_suffix("bulk") || ins.has_suffix("mbarrier"))
      return unsupported_form(ins, x);
    // The PTX ISA's two forms (9.7.9.25.3.1):
    //   cp.async... [dst], [src], cp-size{, src-size}{, cache-policy};
    //   cp.async... [dst], [src], cp-size{, ignore-src}{, cache-policy};
    // The fourth operand is a src-size (an integer: bytes [src-size, cp-size) are zero-filled)
    // or, when it is a predicate register, ignore-src (true: the source is ignored and every byte
    // is zero). The cache policy, present exactly with .L2::cache_hint, is a hint that changes no
    // value: dropped. x.srcs = {cp-size, src-size or ignore-src}; x.sub says which.
    x.op = XOp::CpAsync;
    x.sub = static_cast<uint8_t>(CpAsyncExtra::None);
    const auto& ops = ins.operands;
    const size_t policy = ins.has_suffix("L2::cache_hint") ? 1 : 0;
    if (ops.size() < 3 + policy || ops.size() > 4 + policy) {
      error(ins.loc,
            fmt::format("'cp.async' expects {} or {} operands ([dst], [src], cp-size{{, "
                        "src-size or ignore-src}}{}), got {}",
                        3 + policy, 4 + policy, policy ? ", cache-policy" : "", ops.size()));
      x.op = XOp::Unsupported;
      return;
    }
    mem_operand(ops[0], ins, x.mem[0]);
    mem_operand(ops[1], ins, x.mem[1]);
    append_values(ops[2], ins, x.srcs);
    if (ops.size() - policy == 4) {
      append_values(ops[3], ins, x.srcs);
      if (x.srcs.size() != 2) {
        error(ops[3].loc.line ? ops[3].loc : ins.loc,
              "a cp.async src-size or ignore-src is one value, not a vector");
        x.op = XOp::Unsupported;
        return;
      }
      const Operand& extra = x.srcs[1];
      const bool predicate =
          extra.kind == OpKind::Reg && p_.registers[extra.reg].type == ValType::Pred;
      x.sub = static_cast<uint8_t>(predicate ? CpAsyncExtra::IgnoreSrc : CpAsyncExtra::SrcSize);
      if (!predicate && extra.negated) {
        error(ops[3].loc.line ? ops[3].loc : ins.loc,
              "'!' negates a predicate; a cp.async src-size is an integer");
        x.op = XOp::Unsupported;
      }
    }
  }

  void decode_wmma(const ptx::Instruction& ins, Inst& x) {
    auto shape = shape_of(ins);
    if (!shape)
      return unsupported_form(ins, x);
    x.shape = static_cast<uint8_t>(*shape);
    const auto& ops = ins.operands;
    if (ins.has_suffix("load")) {
      x.op = XOp::WmmaLoad;
      x.sub = static_cast<uint8_t>(ins.has_suffix("a")   ? WmmaPart::A
                                   : ins.has_suffix("b") ? WmmaPart::B
                                                         : WmmaPart::C);
      x.layout = ins.has_suffix("col") ? 1 : 0;
      // The element type is the last type suffix.
      x.type = ins.types.empty() ? ValType::None : ins.types.back();
      if (ops.size() < 2 || ops.size() > 3)
        return bad_operands(ins, x, 3);
      append_values(ops[0], ins, x.dsts);
      mem_operand(ops[1], ins, x.mem[0]);
      if (ops.size() == 3)
        append_values(ops[2], ins, x.srcs);
      return;
    }
    if (ins.has_suffix("store")) {
      x.op = XOp::WmmaStore;
      x.sub = static_cast<uint8_t>(WmmaPart::D);
      x.layout = ins.has_suffix("col") ? 1 : 0;
      x.type = ins.types.empty() ? ValType::None : ins.types.back();
      if (ops.size() < 2 || ops.size() > 3)
        return bad_operands(ins, x, 3);
      mem_operand(ops[0], ins, x.mem[0]);
      append_values(ops[1], ins, x.srcs, &x.groups[0]);
      if (ops.size() == 3)
        append_values(ops[2], ins, x.srcs, &x.groups[1]);
      return;
    }
    if (ins.has_suffix("mma")) {
      x.op = XOp::WmmaMma;
      // wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype
      std::vector<std::string_view> layouts;
      for (const auto& s : ins.suffixes) {
        if (s == "row" || s == "col")
          layouts.push_back(s);
      }
      if (layouts.size() != 2)
        return unsupported_form(ins, x);
      x.layout =
          static_cast<uint8_t>((layouts[0] == "col" ? 1 : 0) | (layouts[1] == "col" ? 2 : 0));
      if (ops.size() != 4)
        return bad_operands(ins, x, 4);
      append_values(ops[0], ins, x.dsts);
      for (int g = 0; g < 3; ++g)
        append_values(ops[1 + g], ins, x.srcs, &x.groups[g]);
      return;
    }
    unsupported_form(ins, x);
  }

  // wgmma.{fence,commit_group,wait_group,mma_async} (exec_warpgroup_mma.cpp). mma_async: f16 /
  // bf16 inputs, an f32 or f16 accumulator; Inst::sub = N / 8; dsts: the accumulator; srcs: A (a
  // descriptor, or 4 registers: groups[0]), the B descriptor, scale-d, imm-scale-a, imm-scale-b,
  // imm-trans-a (A from shared memory only), imm-trans-b. Inst::trans: A from registers.
  void decode_wgmma(const ptx::Instruction& ins, Inst& x) {
    const auto& ops = ins.operands;
    const std::string_view op = ins.suffixes.empty() ? "" : std::string_view(ins.suffixes[0]);
    if (op == "fence" || op == "commit_group" || op == "wait_group") {
      x.op = op == "fence"          ? XOp::WgmmaFence
             : op == "commit_group" ? XOp::WgmmaCommit
                                    : XOp::WgmmaWait;
      for (const auto& o : ops)
        append_values(o, ins, x.srcs);
      return;
    }
    if (op != "mma_async" || ins.has_suffix("sp"))
      return unsupported_form(ins, x);
    std::optional<uint32_t> n;
    for (const auto& s : ins.suffixes) {
      if (s.starts_with("m64n") && s.ends_with("k16"))
        n = static_cast<uint32_t>(std::stoul(s.substr(4, s.size() - 7)));
    }
    // async_forms.cpp checked the form; the types are d, a, b.
    if (!n || *n % 8 != 0 || *n > 256 || ins.types.size() != 3 ||
        (ins.types[1] != ValType::F16 && ins.types[1] != ValType::BF16) ||
        ins.types[2] != ins.types[1] ||
        (ins.types[0] != ValType::F32 && ins.types[0] != ValType::F16))
      return unsupported_form(ins, x);
    x.op = XOp::Wgmma;
    p_.uses_wgmma = true;
    x.type = ins.types[0];
    x.type2 = ins.types[1];
    x.sub = static_cast<uint8_t>(*n / 8);
    x.trans = ops.size() > 1 && ops[1].is<ptx::VectorOperand>();
    if (ops.size() != (x.trans ? 7u : 8u))
      return unsupported_form(ins, x);
    append_values(ops[0], ins, x.dsts);
    for (size_t i = 1; i < ops.size(); ++i)
      append_values(ops[i], ins, x.srcs, i == 1 ? &x.groups[0] : nullptr);
  }

  // stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 [addr], {regs}: ldmatrix's inverse.
  void decode_stmatrix(const ptx::Instruction& ins, Inst& x) {
    const auto& ops = ins.operands;
    x.op = XOp::Stmatrix;
    x.trans = ins.has_suffix("trans");
    x.sub = ins.has_suffix("x4") ? 4 : ins.has_suffix("x2") ? 2 : 1;
    x.space = Space::Shared;
    if (!ins.has_suffix("m8n8") || ops.size() != 2)
      return unsupported_form(ins, x);
    mem_operand(ops[0], ins, x.mem[0]);
    append_values(ops[1], ins, x.srcs);
    if (x.srcs.size() != x.sub)
      return unsupported_form(ins, x);
  }

  void decode_mma(const ptx::Instruction& ins, Inst& x) {
    auto shape = shape_of(ins);
    if (!shape)
      return unsupported_form(ins, x);
    x.shape = static_cast<uint8_t>(*shape);
    x.op = XOp::Mma;
    std::vector<std::string_view> layouts;
    for (const auto& s : ins.suffixes) {
      if (s == "row" || s == "col")
        layouts.push_back(s);
    }
    if (layouts.size() == 2) {
      x.layout =
          static_cast<uint8_t>((layouts[0] == "col" ? 1 : 0) | (layouts[1] == "col" ? 2 : 0));
    }
    // types: d, a, b, c
    if (ins.types.size() == 4) {
      x.type = ins.types[0];
      x.type2 = ins.types[1];
    }
    const auto& ops = ins.operands;
    if (ops.size() != 4)
      return bad_operands(ins, x, 4);
    append_values(ops[0], ins, x.dsts);
    for (int g = 0; g < 3; ++g)
      append_values(ops[1 + g], ins, x.srcs, &x.groups[g]);
  }

  void decode_call(const ptx::Instruction& ins, Inst& x) {
    x.op = XOp::Call;
    // call{.uni} (ret), name, (args);  or  call name, (args);  or  call name;
    const ptx::ParenListOperand* ret = nullptr;
    const ptx::ParenListOperand* args = nullptr;
    std::string name;
    for (const auto& o : ins.operands) {
      if (const auto* p = std::get_if<ptx::ParenListOperand>(&o.value)) {
        (name.empty() ? ret : args) = p;
      } else if (const auto* n = std::get_if<ptx::NameOperand>(&o.value)) {
        name = n->name;
      }
    }
    if (name.empty())
      return bad_operands(ins, x, 2);
    for (const auto& o : ins.operands) {
      const auto* n = std::get_if<ptx::NameOperand>(&o.value);
      if (n != nullptr && regs_.find(n->name) != nullptr) {
        // `call (ret), %rd1, (args), prototype;`: valid PTX, but which function runs depends
        // on a register's value.
        x.op = XOp::Unsupported;
        p_.unsupported_reasons[static_cast<uint32_t>(p_.insts.size())] = fmt::format(
            "is an indirect call through register {} (indirect calls are not modeled)", n->name);
        return;
      }
    }
    Callee c;
    c.name = name;
    c.is_symexp = name == "__symexpf";
    x.call_id = static_cast<uint32_t>(p_.callees.size());
    p_.callees.push_back(c);
    auto address_of = [&](const std::string& n) -> std::optional<Operand> {
      const Symbol* sym = find_symbol(n);
      if (sym == nullptr || sym->space != Space::Param) {
        error(ins.loc, fmt::format("call argument '{}' is not a declared .param", n));
        return std::nullopt;
      }
      Operand o;
      o.kind = OpKind::Imm;
      o.imm = sym->address;
      return o;
    };
    if (ret) {
      for (const auto& n : ret->names) {
        if (auto o = address_of(n))
          x.dsts.push_back(*o);
      }
    }
    if (args) {
      for (const auto& n : args->names) {
        if (auto o = address_of(n))
          x.srcs.push_back(*o);
      }
    }
  }

  const ptx::Module& m_;
  std::string_view text_;
  Program p_;
  std::vector<ptx::Diagnostic> diags_;
  ScopedNames<uint32_t> regs_;   // register -> slot, as visible where lowering stands
  ScopedNames<uint32_t> labels_; // label -> instruction index, likewise
  std::vector<std::unordered_map<std::string, uint32_t>> block_labels_; // per block, in order
  std::unordered_map<std::string, Symbol> symbols_; // kernel parameters and module variables
  std::unordered_map<size_t, Symbol> body_symbols_; // body statement index -> its variable
  ScopedNames<Symbol> body_scope_symbols_;          // the body's variables, as visible
  // Variables of valid PTX that the engine does not model, with the reason a use is refused.
  std::unordered_map<std::string, std::string> unmodeled_symbols_;
  std::vector<ptx::VariableDecl> dynamic_shared_;
  uint64_t shared_cursor_ = 0;
  uint64_t local_cursor_ = 0;
  uint64_t const_cursor_ = 0;
  uint64_t global_cursor_ = 0;
  uint32_t instruction_count_ = 0;
};

} // namespace

LowerResult lower(const ptx::Module& module, const std::string& entry,
                  std::string_view source_text) {
  LowerResult result = Lowerer(module, source_text).run(entry);
  VOLTA_ASSERT(!result.program || !malformation(*result.program),
               "a lowered program is well-formed (targets, registers, callees in range)");
  return result;
}

} // namespace volta::exec
