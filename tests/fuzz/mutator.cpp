#include "mutator.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <set>

#include "kernel_generator.hpp"
#include "value_taint.hpp"

namespace volta::pair_fuzz {

std::string_view to_string(Label l) {
  static constexpr std::string_view names[] = {"eq-bits",  "eq-reals",   "neq",
                                               "neq-bits", "neq-domain", "race"};
  return names[static_cast<int>(l)];
}

namespace {

// Is a store of this type into this array compared as a number (same float format)?
bool stored_as_number(PT st, PT array) {
  return pt_float(st) && st == array;
}

bool store_observes_bits(const Kernel& k, const Store& s) {
  const Node& v = k.nodes[s.value];
  if (!is_float(v.ty))
    return false;
  const PT at = k.outputs[s.array].type;
  if (v.ty == Ty::F16 || v.ty == Ty::BF16)
    return at != natural_pt(v.ty);
  return !stored_as_number(s.st, at);
}

} // namespace

bool observed_as_bits(const Kernel& k, int i) {
  const auto users = users_of(k);
  std::vector<bool> seen(k.nodes.size(), false);
  std::vector<int> work = {i};
  std::set<int> values;
  while (!work.empty()) {
    const int v = work.back();
    work.pop_back();
    if (seen[v])
      continue;
    seen[v] = true;
    for (int u : users[v]) {
      const Node& x = k.nodes[u];
      if (x.op == Op::Setp)
        continue; // a real-number observer (or an integer comparison of integer data)
      if (x.op == Op::Cvt && pt_float(x.t2) && (pt_int(x.t1) || is_integral_rounding(x.rnd)))
        return true; // a rounding to an integer observes its operand's bits (semantics.md)
      if (x.op == Op::Select && x.args[0] == v)
        continue;
      if (is_float(k.nodes[v].ty) && !is_float(x.ty) && x.ty != Ty::Pred)
        return true; // a reinterpretation, a packing into an integer
      work.push_back(u);
    }
  }
  for (const auto& s : k.stores) {
    if (seen[s.value] && store_observes_bits(k, s))
      return true;
    // Integer values derived from float bits are covered above; float data in an integer
    // array is a store of bits.
  }
  return false;
}

namespace {

const Rnd kRoundModes[] = {Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp};

bool k_is_region_of(const Kernel& k, int node, int select) {
  return k.nodes[node].region == select;
}

struct Ctx {
  Kernel k;
  Rng& r;
  std::vector<AppliedMutation> applied;
  Ctx(const Kernel& kernel, Rng& rng) : k(kernel), r(rng) {}

  int add_like(Node n, int user) {
    // New nodes live where their user lives.
    if (user >= 0) {
      n.region = k.nodes[user].region;
      n.arm = k.nodes[user].arm;
    } else {
      n.region = -1;
      n.arm = 0;
    }
    return k.add(std::move(n));
  }
  int constant(Ty t, uint64_t bits, int user, bool imm = true) {
    Node c;
    c.op = Op::Const;
    c.ty = t;
    c.bits = bits;
    c.imm = imm;
    return add_like(c, user);
  }
  // A random node satisfying `f`, or -1.
  int pick(const std::function<bool(int, const Node&)>& f) {
    std::vector<int> c;
    for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
      if (f(i, k.nodes[i]))
        c.push_back(i);
    }
    return c.empty() ? -1 : c[r.below(c.size())];
  }
  // A use of a value: (user node, argument slot) or a store (user -1 - store index, slot 0).
  struct Use {
    int user;
    int slot;
  };
  std::vector<Use> uses(const std::function<bool(int)>& value_ok) {
    std::vector<Use> u;
    for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
      const Node& x = k.nodes[i];
      for (int s = 0; s < static_cast<int>(x.args.size()); ++s) {
        if (x.op == Op::Select && s > 0 && x.style != SelStyle::Selp &&
            k.nodes[x.args[s]].region == i)
          continue; // keep a branch arm's root in its arm
        if (x.op == Op::Select && x.style == SelStyle::Predicated && s == 1)
          continue;
        if (value_ok(x.args[s]))
          u.push_back({i, s});
      }
    }
    for (int j = 0; j < static_cast<int>(k.stores.size()); ++j) {
      if (value_ok(k.stores[j].value))
        u.push_back({-1 - j, 0});
    }
    return u;
  }
  int used(const Use& u) const {
    return u.user >= 0 ? k.nodes[u.user].args[u.slot] : k.stores[-1 - u.user].value;
  }
  void set_use(const Use& u, int v) {
    if (u.user >= 0)
      k.nodes[u.user].args[u.slot] = v;
    else
      k.stores[-1 - u.user].value = v;
  }
  bool note(std::string name, Label l, std::string detail) {
    applied.push_back({std::move(name), l, std::move(detail)});
    return true;
  }
  // Nodes that (transitively) use `i`: never valid replacements for an argument of `i`.
  std::vector<bool> forward_cone(int i) {
    const auto users = users_of(k);
    std::vector<bool> seen(k.nodes.size(), false);
    std::vector<int> work = {i};
    while (!work.empty()) {
      const int v = work.back();
      work.pop_back();
      if (seen[v])
        continue;
      seen[v] = true;
      for (int u : users[v])
        work.push_back(u);
    }
    // A select's arm nodes are printed inside it: they cannot feed it through anything else.
    return seen;
  }
  bool visible_from(int value, int user) const {
    const Node& v = k.nodes[value];
    if (v.region < 0)
      return true;
    return user >= 0 && k.nodes[user].region == v.region && k.nodes[user].arm == v.arm;
  }
};

bool is_commutative(const Node& n) {
  switch (n.op) {
  case Op::Add:
  case Op::Min:
  case Op::Max:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::PAnd:
  case Op::POr:
  case Op::PXor:
    return true;
  case Op::Mul:
    return true;
  default:
    return false;
  }
}

Cmp mirror(Cmp c) {
  switch (c) {
  case Cmp::Lt:
    return Cmp::Gt;
  case Cmp::Gt:
    return Cmp::Lt;
  case Cmp::Le:
    return Cmp::Ge;
  case Cmp::Ge:
    return Cmp::Le;
  case Cmp::Lo:
    return Cmp::Hi;
  case Cmp::Hi:
    return Cmp::Lo;
  case Cmp::Ls:
    return Cmp::Hs;
  case Cmp::Hs:
    return Cmp::Ls;
  case Cmp::Ltu:
    return Cmp::Gtu;
  case Cmp::Gtu:
    return Cmp::Ltu;
  case Cmp::Leu:
    return Cmp::Geu;
  case Cmp::Geu:
    return Cmp::Leu;
  default:
    return c; // symmetric
  }
}

// --- equivalence-preserving ------------------------------------------------------------------

bool m_commute(Ctx& c) {
  const int i = c.pick([](int, const Node& n) {
    return (is_commutative(n) && n.args.size() == 2) || n.op == Op::Fma ||
           (n.op == Op::Mad && n.imode != IMode::Wide) || n.op == Op::Setp;
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  std::swap(n.args[0], n.args[1]);
  if (n.op == Op::Setp)
    n.cmp = mirror(n.cmp);
  return c.note("commute", Label::EqBits, fmt::format("node {} ({})", i, to_string(n.op)));
}

bool same_kind(const Node& a, const Node& b) {
  // Integer add / mul.lo / logic do not depend on the signedness of their type.
  const bool t1_ok = a.t1 == b.t1 || (is_int(a.ty) && a.op != Op::Min && a.op != Op::Max &&
                                      pt_bits(a.t1) == pt_bits(b.t1));
  return a.op == b.op && a.ty == b.ty && t1_ok && a.rnd == b.rnd && a.ftz == b.ftz &&
         a.sat == b.sat && a.nan == b.nan && a.imode == b.imode && a.region == b.region &&
         a.arm == b.arm;
}

bool m_reassociate(Ctx& c) {
  const int i = c.pick([&](int, const Node& n) {
    if (!(n.op == Op::Add || (n.op == Op::Mul && n.imode == IMode::Lo) || n.op == Op::Min ||
          n.op == Op::Max || n.op == Op::And || n.op == Op::Or || n.op == Op::Xor))
      return false;
    if (n.sat || is_packed(n.ty) || n.ty == Ty::BF16)
      return false;
    for (int a : n.args) {
      if (same_kind(c.k.nodes[a], n))
        return true;
    }
    return false;
  });
  if (i < 0)
    return false;
  Node x = c.k.nodes[i];
  const int inner_slot = same_kind(c.k.nodes[x.args[0]], x) ? 0 : 1;
  const Node y = c.k.nodes[x.args[inner_slot]];
  const int cc = x.args[1 - inner_slot];
  // (a op b) op c  ->  a op (b op c)
  Node z = x;
  z.args = {y.args[1], cc};
  const int zi = c.add_like(z, i);
  c.k.nodes[i].args = {y.args[0], zi};
  const bool exact = is_int(x.ty) || x.op == Op::Min || x.op == Op::Max;
  return c.note("reassociate", exact ? Label::EqBits : Label::EqReals,
                fmt::format("node {} ({})", i, to_string(x.op)));
}

bool m_fma_split(Ctx& c) {
  const int i = c.pick([](int, const Node& n) {
    return n.op == Op::Fma && !n.sat &&
           (n.ty == Ty::F32 || n.ty == Ty::F64 || n.ty == Ty::F16 || n.ty == Ty::F16x2);
  });
  if (i < 0)
    return false;
  const Node f = c.k.nodes[i];
  Node m = f;
  m.op = Op::Mul;
  m.args = {f.args[0], f.args[1]};
  const int mi = c.add_like(m, i);
  Node& a = c.k.nodes[i];
  a.op = Op::Add;
  a.args = {mi, f.args[2]};
  return c.note("fma-split", Label::EqReals, fmt::format("node {}", i));
}

bool m_fma_fuse(Ctx& c) {
  const auto users = users_of(c.k);
  const int i = c.pick([&](int, const Node& n) {
    if (n.op != Op::Add || !(n.ty == Ty::F32 || n.ty == Ty::F64) || n.sat)
      return false;
    const Node& m = c.k.nodes[n.args[0]];
    return m.op == Op::Mul && m.ty == n.ty && !m.sat && users[n.args[0]].size() == 1 &&
           m.region == n.region && m.arm == n.arm;
  });
  if (i < 0)
    return false;
  const Node m = c.k.nodes[c.k.nodes[i].args[0]];
  Node& a = c.k.nodes[i];
  a.op = Op::Fma;
  a.rnd = Rnd::Rn;
  a.args = {m.args[0], m.args[1], a.args[1]};
  return c.note("fma-fuse", Label::EqReals, fmt::format("node {}", i));
}

bool m_mad_split(Ctx& c) {
  const int i =
      c.pick([](int, const Node& n) { return n.op == Op::Mad && n.imode == IMode::Lo && !n.sat; });
  if (i < 0)
    return false;
  const Node f = c.k.nodes[i];
  Node m = f;
  m.op = Op::Mul;
  m.args = {f.args[0], f.args[1]};
  const int mi = c.add_like(m, i);
  Node& a = c.k.nodes[i];
  a.op = Op::Add;
  a.args = {mi, f.args[2]};
  return c.note("mad-split", Label::EqBits, fmt::format("node {}", i));
}

bool m_sub_to_add_neg(Ctx& c) {
  const int i = c.pick([](int, const Node& n) {
    return n.op == Op::Sub && !(is_int(n.ty) && n.sat) && n.ty != Ty::BF16 && n.ty != Ty::BF16x2;
  });
  if (i < 0)
    return false;
  const Node s = c.k.nodes[i];
  Node ng;
  ng.op = Op::Neg;
  ng.ty = s.ty;
  ng.t1 = is_int(s.ty) ? int_pt(bit_width(s.ty), true) : s.t1;
  ng.args = {s.args[1]};
  const int ni = c.add_like(ng, i);
  Node& a = c.k.nodes[i];
  a.op = Op::Add;
  a.args = {s.args[0], ni};
  return c.note("sub-to-add-neg", Label::EqBits, fmt::format("node {}", i));
}

bool m_shl_to_mul(Ctx& c) {
  const int i = c.pick([&](int, const Node& n) {
    if (n.op != Op::Shl)
      return false;
    const Node& a = c.k.nodes[n.args[1]];
    return a.op == Op::Const && a.bits < static_cast<uint64_t>(bit_width(n.ty));
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  const uint64_t k = c.k.nodes[n.args[1]].bits;
  const Ty t = n.ty;
  const int ci = c.constant(t, uint64_t{1} << k, i, c.r.chance(0.7));
  Node& m = c.k.nodes[i];
  m.op = Op::Mul;
  m.imode = IMode::Lo;
  m.t1 = int_pt(bit_width(t), c.r.chance(0.5));
  m.args[1] = ci;
  return c.note("shl-to-mul", Label::EqBits, fmt::format("node {} by {}", i, k));
}

bool m_neg_via_not(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.op == Op::Neg && is_int(n.ty); });
  if (i < 0)
    return false;
  const Node ng = c.k.nodes[i];
  Node nt;
  nt.op = Op::Not;
  nt.ty = ng.ty;
  nt.t1 = bits_pt(bit_width(ng.ty));
  nt.args = ng.args;
  const int ti = c.add_like(nt, i);
  const int one = c.constant(ng.ty, 1, i, c.r.chance(0.7));
  Node& a = c.k.nodes[i];
  a.op = Op::Add;
  a.t1 = int_pt(bit_width(ng.ty), c.r.chance(0.5));
  a.args = {ti, one};
  return c.note("neg-via-not", Label::EqBits, fmt::format("node {}", i));
}

// Replaces one use of a value with f(value), built by `make` (returns the new node).
bool wrap_use(Ctx& c, const std::function<bool(const Node&)>& ok,
              const std::function<int(int value, int user)>& make, const std::string& name,
              Label label) {
  auto us = c.uses([&](int v) { return ok(c.k.nodes[v]); });
  if (us.empty())
    return false;
  const auto u = us[c.r.below(us.size())];
  const int v = c.used(u);
  const int w = make(v, u.user);
  if (w < 0)
    return false;
  c.set_use(u, w);
  return c.note(name, label, fmt::format("value {} at user {}", v, u.user));
}

bool m_double_negation(Ctx& c) {
  const bool use_not = c.r.chance(0.5);
  return wrap_use(
      c,
      [&](const Node& n) {
        return use_not ? is_int(n.ty) : (n.ty == Ty::F32 || n.ty == Ty::F64 || n.ty == Ty::F16);
      },
      [&](int v, int user) {
        Node a;
        a.op = use_not ? Op::Not : Op::Neg;
        a.ty = c.k.nodes[v].ty;
        a.t1 = use_not ? bits_pt(bit_width(a.ty)) : natural_pt(a.ty);
        a.args = {v};
        const int x = c.add_like(a, user);
        a.args = {x};
        return c.add_like(a, user);
      },
      use_not ? "double-not" : "double-neg", Label::EqBits);
}

bool m_identity(Ctx& c) {
  const int kind = static_cast<int>(c.r.below(6));
  // 0 x+0, 1 x|0, 2 x^0, 3 x&-1, 4 x*1 (ints and floats), 5 x+0.0 (floats: -0 becomes +0)
  return wrap_use(
      c,
      [&](const Node& n) {
        if (kind == 4)
          return is_int(n.ty) || n.ty == Ty::F32 || n.ty == Ty::F64;
        if (kind == 5)
          return n.ty == Ty::F32 || n.ty == Ty::F64;
        return is_int(n.ty);
      },
      [&](int v, int user) {
        const Ty t = c.k.nodes[v].ty;
        Node a;
        a.ty = t;
        const int w = bit_width(t);
        uint64_t bits = 0;
        if (is_float(t)) {
          a.op = kind == 4 ? Op::Mul : Op::Add;
          a.t1 = natural_pt(t);
          bits = kind == 4 ? (t == Ty::F32 ? 0x3f800000u : 0x3ff0000000000000ull) : 0;
        } else {
          const Op ops[] = {Op::Add, Op::Or, Op::Xor, Op::And, Op::Mul};
          a.op = ops[kind == 5 ? 0 : kind];
          a.t1 = a.op == Op::Add || a.op == Op::Mul ? int_pt(w, c.r.chance(0.5)) : bits_pt(w);
          bits = kind == 3 ? ~uint64_t{0} : kind == 4 ? 1 : 0;
          if (w < 64)
            bits &= (uint64_t{1} << w) - 1;
        }
        const int k = c.constant(t, bits, user, c.r.chance(0.7));
        a.args = c.r.chance(0.5) ? std::vector<int>{v, k} : std::vector<int>{k, v};
        return c.add_like(a, user);
      },
      "identity", kind == 5 ? Label::EqReals : Label::EqBits);
}

void flip_arms(Kernel& k, int s) {
  for (auto& x : k.nodes) {
    if (x.region == s)
      x.arm = 1 - x.arm;
  }
}

bool m_select_swap(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.op == Op::Select; });
  if (i < 0)
    return false;
  Node pn;
  pn.op = Op::PNot;
  pn.ty = Ty::Pred;
  pn.t1 = PT::Pred;
  pn.args = {c.k.nodes[i].args[0]};
  const int p = c.add_like(pn, i);
  Node& s = c.k.nodes[i];
  s.args[0] = p;
  std::swap(s.args[1], s.args[2]);
  if (s.style == SelStyle::Predicated)
    s.style = SelStyle::Branch;
  flip_arms(c.k, i);
  return c.note("select-negate-swap", Label::EqBits, fmt::format("node {}", i));
}

bool m_select_style(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.op == Op::Select; });
  if (i < 0)
    return false;
  Node& s = c.k.nodes[i];
  const SelStyle before = s.style;
  if (s.region >= 0) {
    s.style = SelStyle::Selp; // no nested branches
  } else if (s.style == SelStyle::Selp) {
    s.style = SelStyle::Branch;
    // Move the then value into the arm when only this select uses it (a predicated form).
    const auto users = users_of(c.k);
    const int t = s.args[1];
    if (users[t].size() == 1 && c.k.nodes[t].region < 0 && guardable(c.k.nodes[t]) &&
        c.k.nodes[t].ty == s.ty && c.r.chance(0.5)) {
      bool args_outside = true;
      for (int a : c.k.nodes[t].args)
        args_outside = args_outside && c.k.nodes[a].region < 0;
      if (args_outside) {
        c.k.nodes[t].region = i;
        c.k.nodes[t].arm = 0;
        s.style = c.r.chance(0.5) ? SelStyle::Predicated : SelStyle::Branch;
      }
    }
  } else {
    s.style = c.r.chance(0.5)
                  ? SelStyle::Selp
                  : (s.style == SelStyle::Branch ? SelStyle::Predicated : SelStyle::Branch);
  }
  normalize_selects(c.k);
  if (c.k.nodes[i].style == before)
    return false;
  return c.note("select-style", Label::EqBits, fmt::format("node {}", i));
}

bool m_via(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.op == Op::Load; });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  const int w = elem_bytes(c.k.inputs[n.array].type);
  std::vector<Via> options;
  for (Via v : {Via::Global, Via::SharedSt, Via::CpAsync}) {
    if (v != n.via && (v != Via::CpAsync || w == 4 || w == 8))
      options.push_back(v);
  }
  n.via = options[c.r.below(options.size())];
  return c.note("load-via", Label::EqBits, fmt::format("node {}", i));
}

// The nodes below `v` (inclusive), or empty when the cone holds something a shuffle cannot be
// inlined through (another shuffle, an atomic, a branch arm).
std::vector<int> inlinable_cone(const Kernel& k, int v) {
  std::vector<int> cone;
  std::vector<bool> seen(k.nodes.size(), false);
  std::vector<int> work = {v};
  while (!work.empty()) {
    const int x = work.back();
    work.pop_back();
    if (seen[x])
      continue;
    seen[x] = true;
    const Node& n = k.nodes[x];
    if (is_collective(n.op) || n.op == Op::Atom || n.region >= 0 ||
        (n.op == Op::Select && n.style != SelStyle::Selp))
      return {};
    cone.push_back(x);
    for (int a : n.args)
      work.push_back(a);
  }
  return cone;
}

bool m_shfl_inline(Ctx& c) {
  const int i = c.pick([&](int, const Node& n) {
    return n.op == Op::Shfl && (n.smode == ShflMode::Idx || n.smode == ShflMode::Bfly) &&
           !inlinable_cone(c.k, n.args[0]).empty();
  });
  if (i < 0)
    return false;
  const Node s = c.k.nodes[i];
  const IdxStep g = s.smode == ShflMode::Idx ? IdxStep{IdxStep::Kind::Lane, uint32_t(s.bits & 31)}
                                             : IdxStep{IdxStep::Kind::Xor, uint32_t(s.bits & 31)};
  const auto cone = inlinable_cone(c.k, s.args[0]);
  // Clone the cone with every thread index read at the source lane.
  std::map<int, int> clone;
  const auto order = topological_order(c.k);
  for (int x : order) {
    if (std::find(cone.begin(), cone.end(), x) == cone.end())
      continue;
    Node n = c.k.nodes[x];
    const bool per_thread = n.op == Op::Load || n.op == Op::Tid;
    if (!per_thread && n.op == Op::Const) {
      clone[x] = x; // constants are the same in every lane
      continue;
    }
    for (int& a : n.args)
      a = clone.at(a);
    if (per_thread)
      n.index.insert(n.index.begin(), g);
    clone[x] = c.k.add(n);
  }
  // The shuffle becomes a copy of the cloned value (a reinterpretation when it moved a float
  // as .b32 into an integer, which cannot happen: its type is the value's).
  const int v = clone.at(s.args[0]);
  const auto users = users_of(c.k);
  for (int u : users[i]) {
    for (int& a : c.k.nodes[u].args) {
      if (a == i)
        a = v;
    }
  }
  for (auto& st : c.k.stores) {
    if (st.value == i)
      st.value = v;
  }
  return c.note("shfl-inline", Label::EqBits, fmt::format("node {}", i));
}

bool m_materialize(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.op == Op::Const; });
  if (i < 0)
    return false;
  c.k.nodes[i].imm = !c.k.nodes[i].imm;
  return c.note("const-immediate", Label::EqBits, fmt::format("node {}", i));
}

bool m_roundtrip(Ctx& c) {
  return wrap_use(
      c,
      [](const Node& n) {
        return n.ty == Ty::F32 || n.ty == Ty::F16 || n.ty == Ty::I16 || n.ty == Ty::I32 ||
               n.ty == Ty::BF16;
      },
      [&](int v, int user) {
        const Ty t = c.k.nodes[v].ty;
        Node a, b;
        a.args = {v};
        switch (t) {
        case Ty::F32: // f32 -> f64 -> f32
          a.op = b.op = Op::Cvt;
          a.ty = Ty::F64;
          a.t1 = PT::F64;
          a.t2 = PT::F32;
          b.ty = Ty::F32;
          b.t1 = PT::F32;
          b.t2 = PT::F64;
          b.rnd = kRoundModes[c.r.below(4)];
          break;
        case Ty::F16:
        case Ty::BF16:
          a.op = b.op = Op::Cvt;
          a.ty = Ty::F32;
          a.t1 = PT::F32;
          a.t2 = natural_pt(t);
          b.ty = t;
          b.t1 = natural_pt(t);
          b.t2 = PT::F32;
          b.rnd = t == Ty::BF16 ? Rnd::Rn : kRoundModes[c.r.below(4)];
          break;
        case Ty::I16:
          a.op = b.op = Op::Cvt;
          a.ty = Ty::I32;
          a.t1 = int_pt(32, c.r.chance(0.5));
          a.t2 = int_pt(16, c.r.chance(0.5));
          b.ty = Ty::I16;
          b.t1 = int_pt(16, c.r.chance(0.5));
          b.t2 = int_pt(32, c.r.chance(0.5));
          break;
        default: // i32 -> f32 bits -> i32
          a.op = b.op = Op::Bits;
          a.ty = Ty::F32;
          b.ty = Ty::I32;
          break;
        }
        const int x = c.add_like(a, user);
        b.args = {x};
        return c.add_like(b, user);
      },
      "roundtrip", Label::EqBits);
}

bool m_dead_code(Ctx& c) {
  const int v = c.pick(
      [](int, const Node& n) { return n.region < 0 && (n.ty == Ty::F32 || n.ty == Ty::F64); });
  if (v < 0)
    return false;
  Node d;
  d.ty = c.k.nodes[v].ty;
  d.t1 = natural_pt(d.ty);
  switch (c.r.below(3)) {
  case 0:
    d.op = Op::Div;
    d.rnd = Rnd::Rn;
    d.args = {v, c.constant(d.ty, 0, -1, false)}; // x / 0
    break;
  case 1:
    d.op = Op::Sqrt;
    d.rnd = Rnd::Rn;
    d.args = {v};
    break;
  default:
    d.op = Op::Rcp;
    d.rnd = Rnd::Rn;
    d.args = {v};
    break;
  }
  c.add_like(d, -1);
  return c.note("dead-partial-op", Label::EqBits, fmt::format("on node {}", v));
}

bool is_pow2_const(const Node& n, int& exponent) {
  if (n.op != Op::Const)
    return false;
  double v;
  if (n.ty == Ty::F32)
    v = std::bit_cast<float>(static_cast<uint32_t>(n.bits));
  else if (n.ty == Ty::F64)
    v = std::bit_cast<double>(n.bits);
  else
    return false;
  if (!std::isfinite(v) || v == 0)
    return false;
  int e = 0;
  const double m = std::frexp(std::fabs(v), &e);
  exponent = e - 1;
  return m == 0.5 && exponent > -60 && exponent < 60;
}

bool m_div_pow2(Ctx& c) {
  int e = 0;
  const int i = c.pick([&](int, const Node& n) {
    return n.op == Op::Div && !n.approx && !n.full && n.rnd != Rnd::None &&
           is_pow2_const(c.k.nodes[n.args[1]], e);
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  const Node& d = c.k.nodes[n.args[1]];
  is_pow2_const(d, e);
  const double sign = (d.ty == Ty::F32 ? (d.bits >> 31) : (d.bits >> 63)) ? -1.0 : 1.0;
  const double inv = sign * std::ldexp(1.0, -e);
  const uint64_t bits = d.ty == Ty::F32 ? std::bit_cast<uint32_t>(static_cast<float>(inv))
                                        : std::bit_cast<uint64_t>(inv);
  const Ty t = d.ty;
  const int ci = c.constant(t, bits, i, c.r.chance(0.6));
  Node& m = c.k.nodes[i];
  m.op = Op::Mul;
  m.args[1] = ci;
  return c.note("div-pow2-to-mul", Label::EqBits, fmt::format("node {}", i));
}

bool m_mul2_to_add(Ctx& c) {
  const int i = c.pick([&](int, const Node& n) {
    if (n.op != Op::Mul || n.args.size() != 2)
      return false;
    const Node& k = c.k.nodes[n.args[1]];
    if (k.op != Op::Const)
      return false;
    if (is_int(n.ty))
      return n.imode == IMode::Lo && k.bits == 2;
    return (n.ty == Ty::F32 && k.bits == 0x40000000u) ||
           (n.ty == Ty::F64 && k.bits == 0x4000000000000000ull);
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  n.op = Op::Add;
  n.args[1] = n.args[0];
  return c.note("mul2-to-add", Label::EqBits, fmt::format("node {}", i));
}

bool m_distribute(Ctx& c) {
  const int i = c.pick([&](int, const Node& n) {
    if (n.op != Op::Mul || n.sat || is_packed(n.ty) || n.ty == Ty::BF16 || n.ty == Ty::F16)
      return false;
    if (is_int(n.ty) && n.imode != IMode::Lo)
      return false;
    const Node& s = c.k.nodes[n.args[1]];
    return s.op == Op::Add && s.ty == n.ty && !s.sat && s.region == n.region && s.arm == n.arm;
  });
  if (i < 0)
    return false;
  const Node m = c.k.nodes[i];
  const Node s = c.k.nodes[m.args[1]];
  Node p = m, q = m;
  p.args = {m.args[0], s.args[0]};
  q.args = {m.args[0], s.args[1]};
  const int pi = c.add_like(p, i), qi = c.add_like(q, i);
  Node a = s;
  a.args = {pi, qi};
  c.k.nodes[i] = a;
  c.k.nodes[i].region = m.region;
  c.k.nodes[i].arm = m.arm;
  return c.note("distribute", is_int(m.ty) ? Label::EqBits : Label::EqReals,
                fmt::format("node {}", i));
}

bool m_abs_of_neg(Ctx& c) {
  const int i = c.pick([](int, const Node& n) {
    return n.op == Op::Abs && (is_int(n.ty) || n.ty == Ty::F32 || n.ty == Ty::F64);
  });
  if (i < 0)
    return false;
  const Node a = c.k.nodes[i];
  Node ng;
  ng.op = Op::Neg;
  ng.ty = a.ty;
  ng.t1 = is_int(a.ty) ? int_pt(bit_width(a.ty), true) : a.t1;
  ng.args = a.args;
  const int ni = c.add_like(ng, i);
  c.k.nodes[i].args = {ni};
  return c.note("abs-of-neg", Label::EqBits, fmt::format("node {}", i));
}

bool m_min_max_dual(Ctx& c) {
  const int i = c.pick([](int, const Node& n) {
    return (n.op == Op::Min || n.op == Op::Max) && !n.nan &&
           (n.ty == Ty::F32 || n.ty == Ty::F64 || (is_int(n.ty) && pt_signed(n.t1)));
  });
  if (i < 0)
    return false;
  const Node m = c.k.nodes[i];
  Node ng;
  ng.op = Op::Neg;
  ng.ty = m.ty;
  ng.t1 = m.t1;
  ng.ftz = m.ftz;
  ng.args = {m.args[0]};
  const int a = c.add_like(ng, i);
  ng.args = {m.args[1]};
  const int b = c.add_like(ng, i);
  Node d = m;
  d.op = m.op == Op::Min ? Op::Max : Op::Min;
  d.args = {a, b};
  const int di = c.add_like(d, i);
  Node& r = c.k.nodes[i];
  r.op = Op::Neg;
  r.nan = false;
  r.args = {di};
  // Integers: -INT_MIN wraps, so min(a, b) = -max(-a, -b) fails at INT_MIN.
  return c.note("min-max-dual", is_int(m.ty) ? Label::Neq : Label::EqBits,
                fmt::format("node {}", i));
}

bool m_rounding(Ctx& c) {
  const int i = c.pick([](int, const Node& n) {
    if (!(n.ty == Ty::F32 || n.ty == Ty::F64))
      return false;
    return ((n.op == Op::Add || n.op == Op::Sub || n.op == Op::Mul || n.op == Op::Fma ||
             n.op == Op::Div || n.op == Op::Sqrt || n.op == Op::Rcp) &&
            !n.approx && !n.full) ||
           (n.op == Op::Cvt && pt_float(n.t2) && pt_bits(n.t1) < pt_bits(n.t2));
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  const bool toggle_ftz = n.ty == Ty::F32 && c.r.chance(0.3) && n.op != Op::Cvt;
  std::string what;
  if (toggle_ftz) {
    n.ftz = !n.ftz;
    what = "ftz";
  } else {
    std::vector<Rnd> options;
    for (Rnd r : {Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp}) {
      if (r != n.rnd && !(n.rnd == Rnd::None && r == Rnd::Rn))
        options.push_back(r);
    }
    if ((n.op == Op::Add || n.op == Op::Sub || n.op == Op::Mul) && n.rnd != Rnd::None)
      options.push_back(Rnd::None);
    n.rnd = options[c.r.below(options.size())];
    what = fmt::format("rounding .{}", to_string(n.rnd));
  }
  const bool bits = observed_as_bits(c.k, i);
  return c.note(toggle_ftz ? "toggle-ftz" : "rounding-mode", bits ? Label::NeqBits : Label::EqReals,
                fmt::format("node {}: {}", i, what));
}

bool m_self_cancel(Ctx& c) {
  // x -> (x + y) - y
  return wrap_use(
      c, [](const Node& n) { return is_int(n.ty) || n.ty == Ty::F32 || n.ty == Ty::F64; },
      [&](int v, int user) {
        const Ty t = c.k.nodes[v].ty;
        const int y = c.pick([&](int j, const Node& n) {
          return n.ty == t && c.visible_from(j, user) && j != v &&
                 !c.forward_cone(j)[v]; // any value of the type
        });
        if (y < 0)
          return -1;
        Node a;
        a.op = Op::Add;
        a.ty = t;
        a.t1 = is_int(t) ? int_pt(bit_width(t), c.r.chance(0.5)) : natural_pt(t);
        a.args = {v, y};
        const int s = c.add_like(a, user);
        a.op = Op::Sub;
        a.args = {s, y};
        return c.add_like(a, user);
      },
      "add-sub-cancel", Label::EqBits /* relabelled below for floats */);
}

bool m_domain_insert(Ctx& c) {
  // x -> (x * y) / y: equal over the reals where y != 0; undefined at y = 0.
  bool const_divisor = false;
  const bool ok = wrap_use(
      c, [](const Node& n) { return n.ty == Ty::F32 || n.ty == Ty::F64; },
      [&](int v, int user) {
        const Ty t = c.k.nodes[v].ty;
        int y;
        if (c.r.chance(0.3)) {
          const uint64_t bits = t == Ty::F32 ? 0x40400000u : 0x4008000000000000ull; // 3
          y = c.constant(t, bits, user, c.r.chance(0.5));
          const_divisor = true;
        } else {
          y = c.pick([&](int j, const Node& n) {
            return n.ty == t && c.visible_from(j, user) && j != v && !c.forward_cone(j)[v];
          });
          if (y < 0)
            return -1;
        }
        Node m;
        m.op = Op::Mul;
        m.ty = t;
        m.t1 = natural_pt(t);
        m.args = {v, y};
        const int mi = c.add_like(m, user);
        m.op = Op::Div;
        m.rnd = Rnd::Rn;
        m.args = {mi, y};
        return c.add_like(m, user);
      },
      "mul-div-insert", Label::EqReals);
  if (ok && !const_divisor)
    c.applied.back().label = Label::NeqDomain;
  return ok;
}

// --- equivalence-breaking ---------------------------------------------------------------------

bool m_operand_replace(Ctx& c) {
  auto us = c.uses([](int) { return true; });
  if (us.empty())
    return false;
  for (int attempt = 0; attempt < 8; ++attempt) {
    const auto u = us[c.r.below(us.size())];
    const int v = c.used(u);
    const Ty t = c.k.nodes[v].ty;
    std::vector<bool> cone;
    if (u.user >= 0)
      cone = c.forward_cone(u.user);
    const int w = c.pick([&](int j, const Node& n) {
      return j != v && n.ty == t && c.visible_from(j, u.user) && (u.user < 0 || !cone[j]) &&
             !(u.user >= 0 && c.k.nodes[u.user].op == Op::Select && k_is_region_of(c.k, j, u.user));
    });
    if (w < 0)
      continue;
    c.set_use(u, w);
    return c.note("operand-replace", Label::Neq,
                  fmt::format("user {} slot {}: {} -> {}", u.user, u.slot, v, w));
  }
  return false;
}

bool m_const_tweak(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.op == Op::Const && n.ty != Ty::Pred; });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  const int w = bit_width(n.ty);
  const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  const uint64_t before = n.bits;
  switch (c.r.below(4)) {
  case 0:
    n.bits = (n.bits + 1) & mask;
    break;
  case 1:
    n.bits = (n.bits - 1) & mask;
    break;
  case 2:
    n.bits = (n.bits ^ (uint64_t{1} << c.r.below(w))) & mask;
    break;
  default:
    n.bits = random_const_bits(c.r, n.ty);
    break;
  }
  if (n.bits == before)
    return false;
  return c.note("const-tweak", Label::Neq,
                fmt::format("node {}: 0x{:X} -> 0x{:X}", i, before, n.bits));
}

bool m_signedness(Ctx& c) {
  const int i = c.pick([](int, const Node& n) {
    switch (n.op) {
    case Op::Shr:
    case Op::Min:
    case Op::Max:
    case Op::Div:
    case Op::Rem:
    case Op::Bfe:
    case Op::Sad:
      return is_int(n.ty) || n.op == Op::Bfe;
    case Op::Mul:
    case Op::Mad:
      return pt_int(n.t1) && n.imode != IMode::Lo;
    case Op::Setp:
      return pt_int(n.t1);
    case Op::Cvt:
      return pt_int(n.t1) || pt_int(n.t2);
    case Op::Load:
      return pt_int(n.t1) && pt_bits(n.t1) < bit_width(n.ty);
    case Op::Atom:
      return n.aop == AtomOp::Min || n.aop == AtomOp::Max;
    default:
      return false;
    }
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  auto flip = [](PT t) { return pt_int(t) ? int_pt(pt_bits(t), !pt_signed(t)) : t; };
  if (n.op == Op::Cvt) {
    if (pt_int(n.t1) && (!pt_int(n.t2) || c.r.chance(0.5)))
      n.t1 = flip(n.t1);
    else
      n.t2 = flip(n.t2);
  } else {
    n.t1 = flip(n.t1);
  }
  if (n.op == Op::Setp && pt_signed(n.t1) &&
      (n.cmp == Cmp::Lo || n.cmp == Cmp::Ls || n.cmp == Cmp::Hi || n.cmp == Cmp::Hs))
    n.cmp = n.cmp == Cmp::Lo   ? Cmp::Lt
            : n.cmp == Cmp::Ls ? Cmp::Le
            : n.cmp == Cmp::Hi ? Cmp::Gt
                               : Cmp::Ge;
  if (n.op == Op::Atom && n.t1 == PT::S64)
    n.t1 = PT::U64; // no atom.min.s64 on sm_80 in our grammar
  return c.note("signedness", Label::Neq, fmt::format("node {} ({})", i, to_string(n.op)));
}

bool m_width(Ctx& c) {
  const int i =
      c.pick([](int, const Node& n) { return n.op == Op::Cvt && pt_int(n.t1) && pt_int(n.t2); });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  const bool dst = c.r.chance(0.5);
  PT& t = dst ? n.t1 : n.t2;
  const int reg = dst ? bit_width(n.ty) : bit_width(c.k.nodes[n.args[0]].ty);
  std::vector<int> widths;
  for (int w : {8, 16, 32, 64}) {
    if (w <= reg && w != pt_bits(t))
      widths.push_back(w);
  }
  if (widths.empty())
    return false;
  t = int_pt(widths[c.r.below(widths.size())], pt_signed(t));
  return c.note("width", Label::Neq, fmt::format("node {}", i));
}

bool m_compare(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.op == Op::Setp; });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  std::vector<Cmp> options;
  if (pt_float(n.t1)) {
    for (int k = 0; k < 18; ++k) {
      const Cmp x = static_cast<Cmp>(k);
      if (x != Cmp::Lo && x != Cmp::Ls && x != Cmp::Hi && x != Cmp::Hs)
        options.push_back(x);
    }
  } else {
    for (int k = 0; k < (pt_signed(n.t1) ? 6 : 10); ++k)
      options.push_back(static_cast<Cmp>(k));
  }
  const Cmp before = n.cmp;
  n.cmp = options[c.r.below(options.size())];
  if (n.cmp == before)
    return false;
  return c.note("compare", Label::Neq,
                fmt::format("node {}: {} -> {}", i, to_string(before), to_string(n.cmp)));
}

bool m_drop_sat(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.sat; });
  if (i < 0)
    return false;
  c.k.nodes[i].sat = false;
  return c.note("drop-sat", Label::Neq, fmt::format("node {}", i));
}

bool m_bits_to_cvt(Ctx& c) {
  const int i = c.pick([&](int, const Node& n) {
    if (n.op != Op::Bits)
      return false;
    const Ty s = c.k.nodes[n.args[0]].ty;
    return (s == Ty::I32 && n.ty == Ty::F32) || (s == Ty::F32 && n.ty == Ty::I32) ||
           (s == Ty::I64 && n.ty == Ty::F64) || (s == Ty::F64 && n.ty == Ty::I64);
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  const Ty s = c.k.nodes[n.args[0]].ty;
  n.op = Op::Cvt;
  if (is_float(n.ty)) {
    n.t1 = natural_pt(n.ty);
    n.t2 = int_pt(bit_width(s), c.r.chance(0.5));
    n.rnd = Rnd::Rn;
  } else {
    n.t1 = int_pt(bit_width(n.ty), c.r.chance(0.5));
    n.t2 = natural_pt(s);
    n.rnd = Rnd::Rzi;
  }
  return c.note("bits-to-cvt", Label::Neq, fmt::format("node {}", i));
}

bool m_arms_swap(Ctx& c) {
  const int i = c.pick([](int, const Node& n) { return n.op == Op::Select; });
  if (i < 0)
    return false;
  Node& s = c.k.nodes[i];
  std::swap(s.args[1], s.args[2]);
  if (s.style == SelStyle::Predicated)
    s.style = SelStyle::Branch;
  flip_arms(c.k, i);
  return c.note("arms-swap", Label::Neq, fmt::format("node {}", i));
}

bool m_sibling(Ctx& c) {
  const int i = c.pick([](int, const Node& n) {
    switch (n.op) {
    case Op::Add:
      return !n.sat || is_float(n.ty);
    case Op::Sub:
    case Op::Min:
    case Op::Max:
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Popc:
    case Op::Clz:
    case Op::Sin:
    case Op::Cos:
    case Op::Ex2:
    case Op::Lg2:
      return n.ty != Ty::BF16 && n.ty != Ty::BF16x2 && !(n.op == Op::Sub && n.sat);
    case Op::Cvt:
      return is_integral_rounding(n.rnd);
    default:
      return false;
    }
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  switch (n.op) {
  case Op::Add:
    n.op = Op::Sub;
    break;
  case Op::Sub:
    n.op = Op::Add;
    break;
  case Op::Min:
    n.op = Op::Max;
    break;
  case Op::Max:
    n.op = Op::Min;
    break;
  case Op::And:
    n.op = c.r.chance(0.5) ? Op::Or : Op::Xor;
    break;
  case Op::Or:
    n.op = c.r.chance(0.5) ? Op::And : Op::Xor;
    break;
  case Op::Xor:
    n.op = c.r.chance(0.5) ? Op::And : Op::Or;
    break;
  case Op::Popc:
    n.op = Op::Clz;
    break;
  case Op::Clz:
    n.op = Op::Popc;
    break;
  case Op::Sin:
    n.op = Op::Cos;
    break;
  case Op::Cos:
    n.op = Op::Sin;
    break;
  case Op::Ex2:
    if (n.ty != Ty::F32)
      return false;
    n.op = Op::Lg2;
    break;
  case Op::Lg2:
    n.op = Op::Ex2;
    break;
  default: {
    std::vector<Rnd> o;
    for (Rnd r : {Rnd::Rni, Rnd::Rzi, Rnd::Rmi, Rnd::Rpi}) {
      if (r != n.rnd)
        o.push_back(r);
    }
    n.rnd = o[c.r.below(o.size())];
  }
  }
  return c.note("sibling-op", Label::Neq, fmt::format("node {}", i));
}

bool m_swap_noncommutative(Ctx& c) {
  const int i = c.pick([&](int, const Node& n) {
    return (n.op == Op::Sub || n.op == Op::Div || n.op == Op::Rem) && n.args.size() == 2 &&
           c.k.nodes[n.args[0]].ty == c.k.nodes[n.args[1]].ty;
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  std::swap(n.args[0], n.args[1]);
  return c.note("swap-operands", Label::Neq, fmt::format("node {}", i));
}

bool m_drop_sync(Ctx& c) {
  bool staged = false, cp = false;
  for (const auto& n : c.k.nodes) {
    staged = staged || (n.op == Op::Load && n.via != Via::Global);
    cp = cp || (n.op == Op::Load && n.via == Via::CpAsync);
  }
  if (!staged)
    return false;
  const bool wait = cp && !c.k.drop_wait && (c.k.drop_barrier || c.r.chance(0.5));
  if (wait)
    c.k.drop_wait = true;
  else if (!c.k.drop_barrier)
    c.k.drop_barrier = true;
  else
    return false;
  return c.note(wait ? "drop-cp-async-wait" : "drop-barrier",
                racy_by_construction(c.k) ? Label::Race : Label::EqBits, "");
}

// f16 <-> bf16 on a narrowing conversion whose value is only stored (its users take any 16-bit
// value): the same real number in another format, so other bytes.
bool m_half_format(Ctx& c) {
  const auto users = users_of(c.k);
  const int i = c.pick([&](int j, const Node& n) {
    if (n.op != Op::Cvt || n.t2 != PT::F32 || (n.t1 != PT::F16 && n.t1 != PT::BF16))
      return false;
    if (!users[j].empty())
      return false; // only stores use it
    for (const auto& s : c.k.stores) {
      if (s.value == j)
        return true;
    }
    return false;
  });
  if (i < 0)
    return false;
  Node& n = c.k.nodes[i];
  const bool to_bf16 = n.t1 == PT::F16;
  n.t1 = to_bf16 ? PT::BF16 : PT::F16;
  n.ty = to_bf16 ? Ty::BF16 : Ty::F16;
  if (to_bf16) { // cvt to bf16 takes .rn/.rz only, no .ftz/.sat on sm_80
    n.rnd = n.rnd == Rnd::Rz ? Rnd::Rz : Rnd::Rn;
    n.ftz = false;
    n.sat = false;
  }
  return c.note("half-format", Label::Neq,
                fmt::format("node {}: to {}", i, to_bf16 ? "bf16" : "f16"));
}

struct Entry {
  const char* name;
  bool (*fn)(Ctx&);
  double weight;
};

const std::vector<Entry>& table() {
  static const std::vector<Entry> t = {
      {"commute", m_commute, 3},
      {"reassociate", m_reassociate, 3},
      {"fma-split", m_fma_split, 1.5},
      {"fma-fuse", m_fma_fuse, 1.5},
      {"mad-split", m_mad_split, 1},
      {"sub-to-add-neg", m_sub_to_add_neg, 1},
      {"shl-to-mul", m_shl_to_mul, 1},
      {"neg-via-not", m_neg_via_not, 0.7},
      {"double-negation", m_double_negation, 1},
      {"identity", m_identity, 1.5},
      {"select-negate-swap", m_select_swap, 1.5},
      {"select-style", m_select_style, 1.5},
      {"load-via", m_via, 1.5},
      {"shfl-inline", m_shfl_inline, 1.5},
      {"const-immediate", m_materialize, 0.7},
      {"roundtrip", m_roundtrip, 1},
      {"dead-partial-op", m_dead_code, 0.7},
      {"div-pow2-to-mul", m_div_pow2, 0.5},
      {"mul2-to-add", m_mul2_to_add, 0.5},
      {"distribute", m_distribute, 1},
      {"abs-of-neg", m_abs_of_neg, 0.5},
      {"min-max-dual", m_min_max_dual, 1},
      {"rounding", m_rounding, 2},
      {"add-sub-cancel", m_self_cancel, 1},
      {"mul-div-insert", m_domain_insert, 1},
      {"operand-replace", m_operand_replace, 3},
      {"const-tweak", m_const_tweak, 2.5},
      {"signedness", m_signedness, 2},
      {"width", m_width, 1},
      {"compare", m_compare, 1.5},
      {"drop-sat", m_drop_sat, 1},
      {"bits-to-cvt", m_bits_to_cvt, 1},
      {"arms-swap", m_arms_swap, 1},
      {"sibling-op", m_sibling, 2},
      {"swap-operands", m_swap_noncommutative, 1},
      {"drop-sync", m_drop_sync, 0.8},
      {"half-format", m_half_format, 1},
  };
  return t;
}

Label combine(const std::vector<AppliedMutation>& a) {
  Label l = Label::EqBits;
  auto rank = [](Label x) {
    switch (x) {
    case Label::EqBits:
      return 0;
    case Label::EqReals:
      return 1;
    case Label::NeqDomain:
      return 2;
    case Label::NeqBits:
      return 3;
    case Label::Neq:
      return 4;
    case Label::Race:
      return 5;
    }
    return 0;
  };
  for (const auto& m : a) {
    if (rank(m.label) > rank(l))
      l = m.label;
  }
  return l;
}

} // namespace

const std::vector<std::string>& mutation_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& e : table())
      n.push_back(e.name);
    return n;
  }();
  return names;
}

std::optional<Mutant> mutate(const Kernel& k, Rng& rng, int count) {
  Ctx c(k, rng);
  std::vector<double> w;
  for (const auto& e : table())
    w.push_back(e.weight);
  int done = 0;
  for (int attempt = 0; done < count && attempt < 60; ++attempt) {
    const Kernel before = c.k;
    const size_t notes = c.applied.size();
    const auto& e = table()[rng.weighted(w)];
    if (!e.fn(c))
      continue;
    normalize_selects(c.k);
    if (!validate(c.k).empty()) {
      // A mutation that broke an invariant (a region, a cycle): undo it.
      c.k = before;
      c.applied.resize(notes);
      continue;
    }
    // Float self-cancellation is equal over the reals only.
    auto& last = c.applied.back();
    if (last.name != e.name) { // a variant of the family: say which
      last.detail = last.name + ": " + last.detail;
      last.name = e.name;
    }
    if (last.name == "add-sub-cancel" && c.k.nodes.size() > before.nodes.size() &&
        is_float(c.k.nodes.back().ty))
      last.label = Label::EqReals;
    ++done;
  }
  if (done == 0)
    return std::nullopt;
  Mutant m;
  m.kernel = std::move(c.k);
  m.applied = std::move(c.applied);
  m.label = combine(m.applied);
  return m;
}

} // namespace volta::pair_fuzz
