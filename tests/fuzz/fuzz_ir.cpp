#include "fuzz_ir.hpp"

#include <cassert>
#include <fmt/format.h>
#include <map>

namespace volta::pair_fuzz {

RegClass reg_class(Ty t) {
  switch (t) {
  case Ty::Pred:
    return RegClass::P;
  case Ty::I16:
  case Ty::F16:
  case Ty::BF16:
    return RegClass::H;
  case Ty::I32:
  case Ty::F16x2:
  case Ty::BF16x2:
    return RegClass::R;
  case Ty::I64:
    return RegClass::RD;
  case Ty::F32:
    return RegClass::F;
  case Ty::F64:
    return RegClass::FD;
  }
  return RegClass::R;
}

int bit_width(Ty t) {
  switch (t) {
  case Ty::Pred:
    return 1;
  case Ty::I16:
  case Ty::F16:
  case Ty::BF16:
    return 16;
  case Ty::I32:
  case Ty::F32:
  case Ty::F16x2:
  case Ty::BF16x2:
    return 32;
  case Ty::I64:
  case Ty::F64:
    return 64;
  }
  return 32;
}

bool is_float(Ty t) {
  return t == Ty::F16 || t == Ty::BF16 || t == Ty::F32 || t == Ty::F64 || t == Ty::F16x2 ||
         t == Ty::BF16x2;
}
bool is_int(Ty t) {
  return t == Ty::I16 || t == Ty::I32 || t == Ty::I64;
}
bool is_packed(Ty t) {
  return t == Ty::F16x2 || t == Ty::BF16x2;
}

std::string_view to_string(Ty t) {
  static constexpr std::string_view names[] = {"pred", "i16", "i32", "i64",   "f16",
                                               "bf16", "f32", "f64", "f16x2", "bf16x2"};
  return names[static_cast<int>(t)];
}

std::string_view to_string(PT t) {
  static constexpr std::string_view names[] = {"",    "pred", "b8",  "b16", "b32",   "b64",   "u8",
                                               "u16", "u32",  "u64", "s8",  "s16",   "s32",   "s64",
                                               "f16", "bf16", "f32", "f64", "f16x2", "bf16x2"};
  return names[static_cast<int>(t)];
}

int pt_bits(PT t) {
  switch (t) {
  case PT::None:
    return 0;
  case PT::Pred:
    return 1;
  case PT::B8:
  case PT::U8:
  case PT::S8:
    return 8;
  case PT::B16:
  case PT::U16:
  case PT::S16:
  case PT::F16:
  case PT::BF16:
    return 16;
  case PT::B32:
  case PT::U32:
  case PT::S32:
  case PT::F32:
  case PT::F16x2:
  case PT::BF16x2:
    return 32;
  case PT::B64:
  case PT::U64:
  case PT::S64:
  case PT::F64:
    return 64;
  }
  return 0;
}

bool pt_signed(PT t) {
  return t == PT::S8 || t == PT::S16 || t == PT::S32 || t == PT::S64;
}
bool pt_float(PT t) {
  return t == PT::F16 || t == PT::BF16 || t == PT::F32 || t == PT::F64 || t == PT::F16x2 ||
         t == PT::BF16x2;
}
bool pt_int(PT t) {
  return !pt_float(t) && t != PT::None && t != PT::Pred;
}

PT int_pt(int bits, bool is_signed) {
  switch (bits) {
  case 8:
    return is_signed ? PT::S8 : PT::U8;
  case 16:
    return is_signed ? PT::S16 : PT::U16;
  case 32:
    return is_signed ? PT::S32 : PT::U32;
  default:
    return is_signed ? PT::S64 : PT::U64;
  }
}

PT bits_pt(int bits) {
  switch (bits) {
  case 8:
    return PT::B8;
  case 16:
    return PT::B16;
  case 32:
    return PT::B32;
  default:
    return PT::B64;
  }
}

PT natural_pt(Ty ty, bool is_signed) {
  switch (ty) {
  case Ty::Pred:
    return PT::Pred;
  case Ty::I16:
  case Ty::I32:
  case Ty::I64:
    return int_pt(bit_width(ty), is_signed);
  case Ty::F16:
    return PT::F16;
  case Ty::BF16:
    return PT::BF16;
  case Ty::F32:
    return PT::F32;
  case Ty::F64:
    return PT::F64;
  case Ty::F16x2:
    return PT::F16x2;
  case Ty::BF16x2:
    return PT::BF16x2;
  }
  return PT::B32;
}

std::string_view to_string(Rnd r) {
  static constexpr std::string_view names[] = {"",    "rn",  "rz",  "rm", "rp",
                                               "rni", "rzi", "rmi", "rpi"};
  return names[static_cast<int>(r)];
}
bool is_integral_rounding(Rnd r) {
  return r == Rnd::Rni || r == Rnd::Rzi || r == Rnd::Rmi || r == Rnd::Rpi;
}

std::string_view to_string(Cmp c) {
  static constexpr std::string_view names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                               "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                               "ltu", "leu", "gtu", "geu", "num", "nan"};
  return names[static_cast<int>(c)];
}

std::string_view to_string(Op op) {
  static constexpr std::string_view names[] = {
      "const", "load",  "tid",  "add", "sub",  "mul",    "mad",  "fma",  "mul24", "mad24", "sad",
      "div",   "rem",   "abs",  "neg", "min",  "max",    "and",  "or",   "xor",   "not",   "cnot",
      "shl",   "shr",   "popc", "clz", "brev", "bfe",    "bfi",  "prmt", "lop3",  "shf",   "rcp",
      "sqrt",  "rsqrt", "ex2",  "lg2", "sin",  "cos",    "tanh", "cvt",  "bits",  "pack",  "unpack",
      "setp",  "pnot",  "pand", "por", "pxor", "select", "shfl", "vote", "redux", "atom"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(Op::Atom) + 1);
  return names[static_cast<int>(op)];
}

std::string_view to_string(AtomOp a) {
  static constexpr std::string_view names[] = {"add", "min", "max", "and", "or", "xor", "exch"};
  return names[static_cast<int>(a)];
}

uint32_t apply_steps(const std::vector<IdxStep>& steps, uint32_t tid) {
  uint32_t i = tid;
  for (const auto& s : steps) {
    switch (s.kind) {
    case IdxStep::Kind::Xor:
      i ^= s.k;
      break;
    case IdxStep::Kind::Rot:
      i = (i & ~31u) | ((i + s.k) & 31u);
      break;
    case IdxStep::Kind::Lane:
      i = (i & ~31u) | (s.k & 31u);
      break;
    case IdxStep::Kind::Fixed:
      i = s.k;
      break;
    }
  }
  return i;
}

int elem_bytes(PT t) {
  return pt_bits(t) / 8;
}

std::string_view manifest_type(PT t) {
  switch (t) {
  case PT::B8:
    return "u8";
  case PT::B16:
    return "u16";
  case PT::B32:
    return "u32";
  case PT::B64:
    return "u64";
  default:
    return to_string(t);
  }
}

bool guardable(const Node& n) {
  switch (n.op) {
  case Op::Const:
  case Op::Load:
  case Op::Select:
  case Op::Shfl:
  case Op::Vote:
  case Op::Redux:
  case Op::Atom:
  case Op::Tid:
  case Op::Unpack:
  case Op::Div: // the instrumented kernel guards integer divisors with more than one instruction
  case Op::Rem:
    return false;
  default:
    return n.ty != Ty::Pred;
  }
}

bool int_cvt_sat_ok(PT dst, PT src) {
  if (pt_bits(dst) < pt_bits(src))
    return true;
  if (pt_signed(src) && !pt_signed(dst))
    return true;
  return !pt_signed(src) && pt_signed(dst) && pt_bits(dst) <= pt_bits(src);
}

void normalize_selects(Kernel& k) {
  // Modifiers a mutation made illegal (a .sat on a cvt that can no longer saturate).
  for (auto& x : k.nodes) {
    if (x.op == Op::Cvt && x.sat && pt_int(x.t1) && pt_int(x.t2) && !int_cvt_sat_ok(x.t1, x.t2))
      x.sat = false;
  }
  for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
    Node& s = k.nodes[i];
    if (s.op != Op::Select || s.style != SelStyle::Predicated)
      continue;
    int members = 0;
    for (const auto& x : k.nodes)
      members += x.region == i && x.arm == 0;
    const int root = s.args[1];
    const bool ok = members == 1 && root >= 0 && k.nodes[root].region == i &&
                    k.nodes[root].arm == 0 && guardable(k.nodes[root]) && k.nodes[root].ty == s.ty;
    if (!ok)
      s.style = SelStyle::Branch;
  }
  // Selp-style selects own no arm nodes.
  for (auto& x : k.nodes) {
    if (x.region >= 0 && k.nodes[x.region].style == SelStyle::Selp) {
      x.region = -1;
      x.arm = 0;
    }
  }
}

int Kernel::add(Node n) {
  nodes.push_back(std::move(n));
  return static_cast<int>(nodes.size()) - 1;
}

namespace {

// Nodes printed inside a branch arm (or as the guarded instruction) of each select.
std::map<int, std::vector<int>> region_members(const Kernel& k) {
  std::map<int, std::vector<int>> m;
  for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
    if (k.nodes[i].region >= 0)
      m[k.nodes[i].region].push_back(i);
  }
  return m;
}

} // namespace

std::vector<int> topological_order(const Kernel& k) {
  const int n = static_cast<int>(k.nodes.size());
  const auto regions = region_members(k);
  std::vector<uint8_t> state(n, 0); // 0 new, 1 on stack, 2 done
  std::vector<int> order;
  order.reserve(n);
  // Iterative DFS (kernels are small, but mutations can build long chains).
  std::vector<std::pair<int, size_t>> stack;
  auto deps = [&](int v) {
    std::vector<int> d = k.nodes[v].args;
    if (k.nodes[v].op == Op::Select) {
      if (auto it = regions.find(v); it != regions.end())
        d.insert(d.end(), it->second.begin(), it->second.end());
    }
    return d;
  };
  for (int root = 0; root < n; ++root) {
    if (state[root])
      continue;
    stack.push_back({root, 0});
    state[root] = 1;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      const auto d = deps(v);
      if (next < d.size()) {
        const int w = d[next++];
        assert(w >= 0 && w < n);
        if (state[w] == 0) {
          state[w] = 1;
          stack.push_back({w, 0});
        }
        // state 1: a cycle; validate() reports it, the order is then meaningless.
        continue;
      }
      state[v] = 2;
      order.push_back(v);
      stack.pop_back();
    }
  }
  return order;
}

std::vector<bool> live_nodes(const Kernel& k) {
  std::vector<bool> live(k.nodes.size(), false);
  std::vector<int> work;
  for (const auto& s : k.stores)
    work.push_back(s.value);
  for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
    if (k.nodes[i].op == Op::Atom)
      work.push_back(i);
  }
  const auto regions = region_members(k);
  while (!work.empty()) {
    const int v = work.back();
    work.pop_back();
    if (v < 0 || live[v])
      continue;
    live[v] = true;
    for (int a : k.nodes[v].args)
      work.push_back(a);
  }
  return live;
}

std::vector<std::vector<int>> users_of(const Kernel& k) {
  std::vector<std::vector<int>> users(k.nodes.size());
  for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
    for (int a : k.nodes[i].args)
      users[a].push_back(i);
  }
  return users;
}

std::string validate(const Kernel& k) {
  const int n = static_cast<int>(k.nodes.size());
  for (int i = 0; i < n; ++i) {
    const Node& x = k.nodes[i];
    for (int a : x.args) {
      if (a < 0 || a >= n)
        return fmt::format("node {} ({}) has argument {} out of range", i, to_string(x.op), a);
    }
    if (x.region >= 0) {
      if (x.region >= n || k.nodes[x.region].op != Op::Select)
        return fmt::format("node {} lives in region {}, not a select", i, x.region);
      if (x.op == Op::Load || is_collective(x.op) || x.op == Op::Atom ||
          (x.op == Op::Select && x.style != SelStyle::Selp))
        return fmt::format("node {} ({}) cannot live in a branch arm", i, to_string(x.op));
    }
    if (x.op == Op::Load && (x.array < 0 || x.array >= static_cast<int>(k.inputs.size())))
      return fmt::format("load {} reads no input array", i);
    if (x.op == Op::Atom && (x.array < 0 || x.array >= static_cast<int>(k.outputs.size()) ||
                             k.outputs[x.array].kind != ArrayKind::Zero))
      return fmt::format("atomic {} targets no zero array", i);
    if (x.op == Op::Load || x.op == Op::Tid || x.op == Op::Atom) {
      const uint32_t len = x.op == Op::Load   ? k.inputs[x.array].len
                           : x.op == Op::Atom ? k.outputs[x.array].len
                                              : k.block;
      for (uint32_t t = 0; t < k.block; ++t) {
        if (apply_steps(x.index, t) >= len)
          return fmt::format("node {} indexes past its array for thread {}", i, t);
      }
    }
  }
  // Users of a region node must be in the same region, or be the select itself.
  const auto users = users_of(k);
  for (int i = 0; i < n; ++i) {
    const Node& x = k.nodes[i];
    if (x.region < 0)
      continue;
    for (int u : users[i]) {
      const Node& y = k.nodes[u];
      if (u == x.region)
        continue;
      if (y.region != x.region || y.arm != x.arm)
        return fmt::format("node {} of region {} arm {} is used by node {} outside it", i, x.region,
                           x.arm, u);
    }
  }
  // No cycles: every node's arguments come before it in the topological order.
  const auto order = topological_order(k);
  std::vector<int> pos(n, -1);
  for (int j = 0; j < static_cast<int>(order.size()); ++j)
    pos[order[j]] = j;
  for (int i = 0; i < n; ++i) {
    for (int a : k.nodes[i].args) {
      if (pos[a] >= pos[i])
        return fmt::format("node {} depends on node {} that does not come first (a cycle)", i, a);
    }
  }
  for (const auto& s : k.stores) {
    if (s.array < 0 || s.array >= static_cast<int>(k.outputs.size()) || s.value < 0 || s.value >= n)
      return "a store names no array or value";
    if (k.nodes[s.value].region >= 0)
      return "a store reads a value private to a branch arm";
  }
  return "";
}

} // namespace volta::pair_fuzz
