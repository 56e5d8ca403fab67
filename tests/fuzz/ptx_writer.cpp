#include "ptx_writer.hpp"

#include <cassert>
#include <fmt/format.h>
#include <map>
#include <set>

#include "value_taint.hpp"

namespace volta::pair_fuzz {

namespace {

std::string_view prefix(RegClass c) {
  switch (c) {
  case RegClass::P:
    return "p";
  case RegClass::H:
    return "h";
  case RegClass::R:
    return "r";
  case RegClass::RD:
    return "rd";
  case RegClass::F:
    return "f";
  case RegClass::FD:
    return "fd";
  }
  return "r";
}

std::string_view decl_type(RegClass c) {
  switch (c) {
  case RegClass::P:
    return "pred";
  case RegClass::H:
    return "b16";
  case RegClass::R:
    return "b32";
  case RegClass::RD:
    return "b64";
  case RegClass::F:
    return "f32";
  case RegClass::FD:
    return "f64";
  }
  return "b32";
}

// The `mov` type of a register class (predicates are never moved).
std::string_view mov_type(RegClass c) {
  switch (c) {
  case RegClass::H:
    return "b16";
  case RegClass::R:
    return "b32";
  case RegClass::RD:
    return "b64";
  case RegClass::F:
    return "f32";
  case RegClass::FD:
    return "f64";
  default:
    return "pred";
  }
}

bool imm_ok_for(const Node& user) {
  switch (user.op) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Mad:
  case Op::Fma:
  case Op::Div:
  case Op::Min:
  case Op::Max:
  case Op::Setp:
    // f16/bf16 instructions take no immediates.
    return user.t1 != PT::F16 && user.t1 != PT::BF16 && user.t1 != PT::F16x2 &&
           user.t1 != PT::BF16x2;
  case Op::Mul24:
  case Op::Mad24:
  case Op::Sad:
  case Op::Rem:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Shl:
  case Op::Shr:
  case Op::Bfe:
  case Op::Bfi:
  case Op::Prmt:
  case Op::Shf:
    return true;
  case Op::Select:
    return user.style == SelStyle::Selp && !is_packed(user.ty) && user.ty != Ty::F16 &&
           user.ty != Ty::BF16;
  default:
    return false;
  }
}

std::string int_literal(uint64_t bits, int width, bool is_signed) {
  if (width < 64)
    bits &= (uint64_t{1} << width) - 1;
  if (is_signed && width < 64 && (bits >> (width - 1)) & 1)
    return fmt::format("{}", static_cast<int64_t>(bits | ~((uint64_t{1} << width) - 1)));
  if (is_signed && width == 64)
    return fmt::format("{}", static_cast<int64_t>(bits));
  return fmt::format("{}", bits);
}

class Writer {
public:
  Writer(const Kernel& k, const std::string& entry, const WriteOptions& o)
      : k_(k), entry_(entry), o_(o), users_(users_of(k)) {
    if (o_.instrument) {
      check_kind_ = instrument_kinds(k);
      printed_ = observable_nodes(k);
    } else {
      printed_.assign(k.nodes.size(), true);
    }
  }

  std::string run();

private:
  const Kernel& k_;
  const std::string& entry_;
  const WriteOptions& o_;
  std::vector<std::vector<int>> users_;
  std::vector<HalfKinds> check_kind_; // per node and half: 0 no check, kUndefined, kCondUndefined
  std::vector<bool> printed_;         // per node: printed (the instrumented kernel skips dead ones)
  std::string body_;
  std::string shared_decls_;
  std::map<std::string, int> scratch_; // class name -> count
  int labels_ = 0;

  void line(const std::string& s) {
    body_ += '\t';
    body_ += s;
    body_ += '\n';
  }
  std::string scratch(std::string_view cls) {
    int& n = scratch_[std::string(cls)];
    return fmt::format("%z{}{}", cls, n++);
  }
  std::string reg(int i) const {
    return fmt::format("%{}{}", prefix(reg_class(k_.nodes[i].ty)), i);
  }
  std::string base_reg(bool output, int array) const {
    return fmt::format("%rdb{}", output ? k_.inputs.size() + array : array);
  }

  std::string literal(const Node& c, PT as) const {
    switch (c.ty) {
    case Ty::F32:
      return fmt::format("0f{:08X}", static_cast<uint32_t>(c.bits));
    case Ty::F64:
      return fmt::format("0d{:016X}", c.bits);
    default:
      return int_literal(c.bits, bit_width(c.ty), pt_signed(as));
    }
  }

  // Argument `slot` of `user` (a register, or the constant itself where PTX takes an
  // immediate; bit positions, lengths and shift amounts only up to 255).
  std::string opnd(const Node& user, int slot) const {
    const int i = user.args[slot];
    const Node& a = k_.nodes[i];
    const bool position = (user.op == Op::Bfe && slot >= 1) || (user.op == Op::Bfi && slot >= 2) ||
                          ((user.op == Op::Shl || user.op == Op::Shr) && slot == 1) ||
                          (user.op == Op::Shf && slot == 2);
    if (position && a.bits > 255)
      return reg(i);
    if (a.op == Op::Const && a.imm && imm_ok_for(user) &&
        (is_int(a.ty) || a.ty == Ty::F32 || a.ty == Ty::F64) &&
        (!is_float(a.ty) || a.ty == user.ty || user.op == Op::Setp))
      return literal(a, user.op == Op::Setp || user.op == Op::Select ? user.t1 : user.t1);
    return reg(i);
  }

  std::string index_reg(const std::vector<IdxStep>& steps);
  std::string global_address(int array, bool output, const std::string& index, int width);
  void staging();
  void emit(int i, const std::string& guard = "", const std::string& dst_override = "");
  void emit_select(int i);
  void emit_atom(int i);
  void stores();
  std::string mods(const Node& n) const;
  // Instrumentation.
  void check(int i, const std::string& value);
  void check_scalar(const Node& n, int half, const std::string& value, uint32_t undefined_kind,
                    int id);
  std::string widen(const std::string& reg16, Ty t);
  std::string half_of(int node_or_reg_node, int half, const std::string& reg_override = "");
  std::string operand_value(const Node& n, int arg, int half);
};

std::string Writer::mods(const Node& n) const {
  std::string s;
  if (n.approx)
    s += ".approx";
  else if (n.full)
    s += ".full";
  else if (n.rnd != Rnd::None)
    s += fmt::format(".{}", to_string(n.rnd));
  if (n.ftz)
    s += ".ftz";
  if (n.sat)
    s += ".sat";
  if (n.nan)
    s += ".NaN";
  return s;
}

std::string Writer::index_reg(const std::vector<IdxStep>& steps) {
  std::string cur = "%rt";
  for (const auto& s : steps) {
    const std::string next = scratch("r");
    switch (s.kind) {
    case IdxStep::Kind::Xor:
      line(fmt::format("xor.b32 {}, {}, {};", next, cur, s.k));
      break;
    case IdxStep::Kind::Rot: {
      const std::string t = scratch("r"), u = scratch("r");
      line(fmt::format("add.s32 {}, {}, {};", t, cur, s.k));
      line(fmt::format("and.b32 {}, {}, 31;", t, t));
      line(fmt::format("and.b32 {}, {}, -32;", u, cur));
      line(fmt::format("or.b32 {}, {}, {};", next, t, u));
      break;
    }
    case IdxStep::Kind::Lane: {
      const std::string u = scratch("r");
      line(fmt::format("and.b32 {}, {}, -32;", u, cur));
      line(fmt::format("or.b32 {}, {}, {};", next, u, s.k));
      break;
    }
    case IdxStep::Kind::Fixed:
      line(fmt::format("mov.u32 {}, {};", next, s.k));
      break;
    }
    cur = next;
  }
  return cur;
}

std::string Writer::global_address(int array, bool output, const std::string& index, int width) {
  const std::string off = scratch("rd"), addr = scratch("rd");
  line(fmt::format("mul.wide.u32 {}, {}, {};", off, index, width));
  line(fmt::format("add.s64 {}, {}, {};", addr, base_reg(output, array), off));
  return addr;
}

std::string shared_name(int array, Via via) {
  return fmt::format("fz_s{}_{}", array, via == Via::CpAsync ? "cp" : "st");
}

int log2_of(int w) {
  int l = 0;
  while ((1 << l) < w)
    ++l;
  return l;
}

void Writer::staging() {
  std::set<std::pair<int, Via>> staged;
  for (const auto& n : k_.nodes) {
    if (n.op == Op::Load && n.via != Via::Global)
      staged.insert({n.array, n.via});
  }
  if (staged.empty())
    return;
  bool any_cp = false;
  for (const auto& [array, via] : staged) {
    const ArrayDecl& a = k_.inputs[array];
    const int w = elem_bytes(a.type);
    shared_decls_ +=
        fmt::format("\t.shared .align 16 .b8 {}[{}];\n", shared_name(array, via), a.len * w);
    const std::string g = global_address(array, false, "%rt", w);
    const std::string s = scratch("r"), off = scratch("r");
    line(fmt::format("mov.u32 {}, {};", s, shared_name(array, via)));
    line(fmt::format("shl.b32 {}, %rt, {};", off, log2_of(w)));
    line(fmt::format("add.s32 {}, {}, {};", s, s, off));
    if (via == Via::CpAsync) {
      any_cp = true;
      line(fmt::format("cp.async.ca.shared.global [{}], [{}], {};", s, g, w));
    } else {
      const std::string t = w == 8 ? scratch("rd") : w == 4 ? scratch("r") : scratch("h");
      const std::string ty = w == 8 ? "b64" : w == 4 ? "b32" : w == 2 ? "b16" : "u8";
      line(fmt::format("ld.global.{} {}, [{}];", ty, t, g));
      line(fmt::format("st.shared.{} [{}], {};", ty, s, t));
    }
  }
  if (any_cp && !k_.drop_wait)
    line("cp.async.wait_all;");
  if (!k_.drop_barrier)
    line("bar.sync 0;");
}

void Writer::emit(int i, const std::string& guard, const std::string& dst_override) {
  const Node& n = k_.nodes[i];
  const std::string d = dst_override.empty() ? reg(i) : dst_override;
  const std::string g = guard;
  auto a = [&](int j) { return opnd(n, j); };
  const std::string t1(to_string(n.t1));
  switch (n.op) {
  case Op::Const:
    if (n.ty == Ty::Pred) {
      line(fmt::format("{}setp.{}.u32 {}, %rt, %rt;", g, n.bits ? "eq" : "ne", d));
      break;
    }
    if (n.ty == Ty::F32 || n.ty == Ty::F64) {
      line(fmt::format("{}mov.{} {}, {};", g, mov_type(reg_class(n.ty)), d, literal(n, PT::None)));
      break;
    }
    line(fmt::format("{}mov.{} {}, {};", g, mov_type(reg_class(n.ty)), d,
                     fmt::format("0x{:X}", n.bits & (bit_width(n.ty) == 64
                                                         ? ~uint64_t{0}
                                                         : (uint64_t{1} << bit_width(n.ty)) - 1))));
    break;
  case Op::Load: {
    const ArrayDecl& arr = k_.inputs[n.array];
    const int w = elem_bytes(arr.type);
    const std::string idx = index_reg(n.index);
    if (n.via == Via::Global) {
      const std::string addr = global_address(n.array, false, idx, w);
      line(fmt::format("{}ld.global.{} {}, [{}];", g, t1, d, addr));
    } else {
      const std::string s = scratch("r"), off = scratch("r");
      line(fmt::format("mov.u32 {}, {};", s, shared_name(n.array, n.via)));
      line(fmt::format("shl.b32 {}, {}, {};", off, idx, log2_of(w)));
      line(fmt::format("add.s32 {}, {}, {};", s, s, off));
      line(fmt::format("{}ld.shared.{} {}, [{}];", g, t1, d, s));
    }
    break;
  }
  case Op::Tid: {
    const std::string idx = index_reg(n.index);
    line(fmt::format("{}mov.b32 {}, {};", g, d, idx));
    break;
  }
  case Op::Div:
  case Op::Rem:
    if (o_.instrument && is_int(n.ty) && any_half(check_kind_[i]) != 0) {
      // A zero divisor is undefined: flag it, and divide by 1 instead so that the emulator
      // goes on (the outputs of this input are then not compared).
      const std::string z = scratch("p"), b = scratch(prefix(reg_class(n.ty)));
      const std::string bt(to_string(bits_pt(bit_width(n.ty))));
      line(fmt::format("setp.eq.{} {}, {}, 0;", bt, z, reg(n.args[1])));
      line(fmt::format("@{} or.b32 %rek, %rek, {};", z, any_half(check_kind_[i])));
      line(fmt::format("@{} min.u32 %reu, %reu, {};", z, i));
      line(fmt::format("selp.{} {}, 1, {}, {};", bt, b, reg(n.args[1]), z));
      line(fmt::format("{}{}.{} {}, {}, {};", g, to_string(n.op), t1, d, a(0), b));
      break;
    }
    line(fmt::format("{}{}{}.{} {}, {}, {};", g, to_string(n.op), mods(n), t1, d, a(0), a(1)));
    break;
  case Op::Add:
  case Op::Sub:
  case Op::Min:
  case Op::Max:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Shl:
  case Op::Shr:
    line(fmt::format("{}{}{}.{} {}, {}, {};", g, to_string(n.op), mods(n), t1, d, a(0), a(1)));
    break;
  case Op::Mul:
    if (pt_float(n.t1))
      line(fmt::format("{}mul{}.{} {}, {}, {};", g, mods(n), t1, d, a(0), a(1)));
    else
      line(fmt::format("{}mul.{}.{} {}, {}, {};", g,
                       n.imode == IMode::Lo   ? "lo"
                       : n.imode == IMode::Hi ? "hi"
                                              : "wide",
                       t1, d, a(0), a(1)));
    break;
  case Op::Mad:
    line(fmt::format("{}mad.{}{}.{} {}, {}, {}, {};", g,
                     n.imode == IMode::Lo   ? "lo"
                     : n.imode == IMode::Hi ? "hi"
                                            : "wide",
                     n.sat ? ".sat" : "", t1, d, a(0), a(1), a(2)));
    break;
  case Op::Fma:
    line(fmt::format("{}fma{}.{} {}, {}, {}, {};", g, mods(n), t1, d, a(0), a(1), a(2)));
    break;
  case Op::Mul24:
    line(fmt::format("{}mul24.lo.{} {}, {}, {};", g, t1, d, a(0), a(1)));
    break;
  case Op::Mad24:
    line(fmt::format("{}mad24.lo.{} {}, {}, {}, {};", g, t1, d, a(0), a(1), a(2)));
    break;
  case Op::Sad:
    line(fmt::format("{}sad.{} {}, {}, {}, {};", g, t1, d, a(0), a(1), a(2)));
    break;
  case Op::Abs:
  case Op::Neg:
  case Op::Not:
  case Op::CNot:
  case Op::Popc:
  case Op::Clz:
  case Op::Brev:
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
    line(fmt::format("{}{}{}.{} {}, {};", g, to_string(n.op), mods(n), t1, d, a(0)));
    break;
  case Op::Bfe:
    line(fmt::format("{}bfe.{} {}, {}, {}, {};", g, t1, d, a(0), a(1), a(2)));
    break;
  case Op::Bfi:
    line(fmt::format("{}bfi.{} {}, {}, {}, {}, {};", g, t1, d, a(0), a(1), a(2), a(3)));
    break;
  case Op::Prmt:
    if (n.args.size() == 3)
      line(fmt::format("{}prmt.b32 {}, {}, {}, {};", g, d, a(0), a(1), a(2)));
    else
      line(fmt::format("{}prmt.b32 {}, {}, {}, 0x{:X};", g, d, a(0), a(1), n.bits & 0xffff));
    break;
  case Op::Lop3:
    line(
        fmt::format("{}lop3.b32 {}, {}, {}, {}, 0x{:02X};", g, d, a(0), a(1), a(2), n.bits & 0xff));
    break;
  case Op::Shf:
    line(fmt::format("{}shf.{}.{}.b32 {}, {}, {}, {};", g, n.left ? "l" : "r",
                     n.clamp ? "clamp" : "wrap", d, a(0), a(1), a(2)));
    break;
  case Op::Cvt:
    if (n.args.size() == 2) // cvt.rn.f16x2.f32 d, hi, lo
      line(
          fmt::format("{}cvt{}.{}.{} {}, {}, {};", g, mods(n), t1, to_string(n.t2), d, a(0), a(1)));
    else
      line(fmt::format("{}cvt{}.{}.{} {}, {};", g, mods(n), t1, to_string(n.t2), d, a(0)));
    break;
  case Op::Bits:
    line(fmt::format("{}mov.b{} {}, {};", g, bit_width(n.ty), d, a(0)));
    break;
  case Op::Pack:
    line(fmt::format("{}mov.b{} {}, {{{}, {}}};", g, bit_width(n.ty), d, reg(n.args[0]),
                     reg(n.args[1])));
    break;
  case Op::Unpack: {
    const Node& src = k_.nodes[n.args[0]];
    const std::string other = bit_width(n.ty) == 16 ? scratch("h") : scratch("r");
    const std::string lo = n.bits ? other : d, hi = n.bits ? d : other;
    line(fmt::format("{}mov.b{} {{{}, {}}}, {};", g, bit_width(src.ty), lo, hi, reg(n.args[0])));
    break;
  }
  case Op::Setp:
    line(fmt::format("{}setp.{}{}.{} {}, {}, {};", g, to_string(n.cmp), n.ftz ? ".ftz" : "", t1, d,
                     a(0), a(1)));
    if (o_.instrument && n.ftz && n.t1 == PT::F32) {
      // .ftz compares a subnormal operand as zero, which the model idealizes (over the reals it
      // is not 0): the comparison is inexact there, like a flushing operation (11:71819).
      for (int j = 0; j < 2; ++j) {
        const std::string v = scratch("f"), tiny = scratch("p"), nonzero = scratch("p");
        line(fmt::format("mov.f32 {}, {};", v, a(j)));
        line(fmt::format("abs.f32 {}, {};", v, v));
        line(fmt::format("setp.lt.f32 {}, {}, 0f00800000;", tiny, v));
        line(fmt::format("setp.ne.f32 {}, {}, 0f00000000;", nonzero, v));
        line(fmt::format("and.pred {}, {}, {};", tiny, tiny, nonzero));
        line(fmt::format("@{} or.b32 %rek, %rek, {};", tiny, static_cast<uint32_t>(kInexact)));
      }
    }
    break;
  case Op::PNot:
    line(fmt::format("{}not.pred {}, {};", g, d, reg(n.args[0])));
    break;
  case Op::PAnd:
  case Op::POr:
  case Op::PXor:
    line(fmt::format("{}{}.pred {}, {}, {};", g,
                     n.op == Op::PAnd  ? "and"
                     : n.op == Op::POr ? "or"
                                       : "xor",
                     d, reg(n.args[0]), reg(n.args[1])));
    break;
  case Op::Select:
    emit_select(i);
    return; // checks are not needed: a select moves a value checked where it was computed
  case Op::Shfl: {
    static constexpr std::string_view modes[] = {"idx", "bfly", "up", "down"};
    line(fmt::format("{}shfl.sync.{}.b32 {}, {}, {}, {}, -1;", g, modes[static_cast<int>(n.smode)],
                     d, reg(n.args[0]), n.bits, n.bits2));
    break;
  }
  case Op::Vote:
    line(fmt::format("{}vote.sync.ballot.b32 {}, {}, -1;", g, d, reg(n.args[0])));
    break;
  case Op::Redux:
    line(fmt::format("{}redux.sync.{}.{} {}, {}, -1;", g, to_string(n.aop), to_string(n.t1), d,
                     reg(n.args[0])));
    break;
  case Op::Atom:
    emit_atom(i);
    break;
  }
  if (o_.instrument && any_half(check_kind_[i]) != 0 && dst_override.empty())
    check(i, d);
}

void Writer::emit_select(int i) {
  const Node& n = k_.nodes[i];
  const std::string d = reg(i);
  const std::string cond = reg(n.args[0]);
  const RegClass cls = reg_class(n.ty);
  auto move = [&](int from) { line(fmt::format("mov.{} {}, {};", mov_type(cls), d, reg(from))); };
  std::vector<int> arms[2];
  for (int j : topological_order(k_)) {
    if (k_.nodes[j].region == i &&
        (printed_[j] || (n.style == SelStyle::Predicated && j == n.args[1])))
      arms[k_.nodes[j].arm].push_back(j);
  }
  switch (n.style) {
  case SelStyle::Selp: {
    std::string t = std::string(mov_type(cls));
    if (cls == RegClass::F || cls == RegClass::FD)
      t = cls == RegClass::F ? "f32" : "f64";
    line(fmt::format("selp.{} {}, {}, {}, {};", t, d, opnd(n, 1), opnd(n, 2), cond));
    break;
  }
  case SelStyle::Branch: {
    const int l = labels_++;
    line(fmt::format("@{} bra $L_fz_then{};", cond, l));
    for (int j : arms[1])
      emit(j);
    move(n.args[2]);
    line(fmt::format("bra $L_fz_end{};", l));
    body_ += fmt::format("$L_fz_then{}:\n", l);
    for (int j : arms[0])
      emit(j);
    move(n.args[1]);
    body_ += fmt::format("$L_fz_end{}:\n", l);
    break;
  }
  case SelStyle::Predicated: {
    // The else value first, then the then arm's single instruction under the guard, writing the
    // select's register.
    for (int j : arms[1])
      emit(j);
    move(n.args[2]);
    assert(arms[0].size() == 1 && arms[0][0] == n.args[1]);
    emit(n.args[1], fmt::format("@{} ", cond), d);
    if (o_.instrument && any_half(check_kind_[n.args[1]]) != 0) {
      const int l = labels_++;
      line(fmt::format("@!{} bra $L_fz_skip{};", cond, l));
      check(n.args[1], d);
      body_ += fmt::format("$L_fz_skip{}:\n", l);
    }
    break;
  }
  }
}

void Writer::emit_atom(int i) {
  const Node& n = k_.nodes[i];
  const ArrayDecl& arr = k_.outputs[n.array];
  const int w = elem_bytes(arr.type);
  const std::string idx = index_reg(n.index);
  const std::string addr = global_address(n.array, true, idx, w);
  const std::string t1(to_string(n.t1));
  // The result is used by a node or stored (a mutation may store an atom's result directly).
  bool stored = false;
  for (const auto& st : k_.stores)
    stored = stored || st.value == i;
  // `red` has no exch (PTX ISA, red): an unused exchange is still an atom, its result dropped.
  if (users_[i].empty() && !stored && n.aop != AtomOp::Exch) {
    line(fmt::format("red.global.{}.{} [{}], {};", to_string(n.aop), t1, addr, reg(n.args[0])));
  } else {
    line(fmt::format("atom.global.{}.{} {}, [{}], {};", to_string(n.aop), t1, reg(i), addr,
                     reg(n.args[0])));
  }
}

void Writer::stores() {
  for (const auto& s : k_.stores) {
    const ArrayDecl& arr = k_.outputs[s.array];
    const std::string addr = global_address(s.array, true, "%rt", elem_bytes(arr.type));
    line(fmt::format("st.global.{} [{}], {};", to_string(s.st), addr, reg(s.value)));
  }
}

// --- instrumentation -------------------------------------------------------------------------

// A 16-bit float register as f32 (exact).
std::string Writer::widen(const std::string& reg16, Ty t) {
  const std::string w = scratch("f");
  line(fmt::format("cvt.f32.{} {}, {};", t == Ty::BF16 ? "bf16" : "f16", w, reg16));
  return w;
}

// Half `half` (0 low, 1 high) of a packed register, as a 16-bit register.
std::string Writer::half_of(int node, int half, const std::string& reg_override) {
  const std::string src = reg_override.empty() ? reg(node) : reg_override;
  const std::string lo = scratch("h"), hi = scratch("h");
  line(fmt::format("mov.b32 {{{}, {}}}, {};", lo, hi, src));
  return half ? hi : lo;
}

// Operand `arg` of `n` as a value of the computation's format: f32/f64 registers as they are,
// 16-bit floats widened to f32 (halves of packed operands picked first).
std::string Writer::operand_value(const Node& n, int arg, int half) {
  const int a = n.args[arg];
  const Node& x = k_.nodes[a];
  if (x.op == Op::Const && x.imm && imm_ok_for(n) && (x.ty == Ty::F32 || x.ty == Ty::F64))
    return literal(x, PT::None);
  if (x.ty == Ty::F32 || x.ty == Ty::F64)
    return reg(a);
  if (is_packed(x.ty))
    return widen(half_of(a, half), x.ty == Ty::F16x2 ? Ty::F16 : Ty::BF16);
  if (x.ty == Ty::F16 || x.ty == Ty::BF16)
    return widen(reg(a), x.ty);
  return reg(a); // integer source of a conversion
}

void Writer::check(int i, const std::string& value) {
  const Node& n = k_.nodes[i];
  if (n.op == Op::Cvt && n.ftz && is_int(n.ty) && n.t2 == PT::F32) {
    // A float-to-integer conversion with .ftz flushes a subnormal source to zero first, which
    // the model idealizes (ceil of 2^-130 is 1 over the reals, 0 on the device): inexact.
    const std::string a = scratch("f"), tiny = scratch("p"), nonzero = scratch("p");
    line(fmt::format("abs.f32 {}, {};", a, reg(n.args[0])));
    line(fmt::format("setp.lt.f32 {}, {}, 0f00800000;", tiny, a));
    line(fmt::format("setp.ne.f32 {}, {}, 0f00000000;", nonzero, a));
    line(fmt::format("and.pred {}, {}, {};", tiny, tiny, nonzero));
    line(fmt::format("@{} or.b32 %rek, %rek, {};", tiny, static_cast<uint32_t>(kInexact)));
    return;
  }
  if (!is_float(n.ty))
    return;
  const int halves = is_packed(n.ty) ? 2 : 1;
  for (int h = 0; h < halves; ++h) {
    if (check_kind_[i][h] == 0)
      continue; // a half no output sees
    std::string v = value;
    if (is_packed(n.ty))
      v = widen(half_of(i, h, value), n.ty == Ty::F16x2 ? Ty::F16 : Ty::BF16);
    else if (n.ty == Ty::F16 || n.ty == Ty::BF16)
      v = widen(value, n.ty);
    check_scalar(n, h, v, check_kind_[i][h], i);
  }
}

// `v`: the result (f32, or f64 for f64 operations). Sets the flags as the header says.
void Writer::check_scalar(const Node& n, int half, const std::string& v, uint32_t undef_kind,
                          int id) {
  const bool wide = n.ty == Ty::F64;
  const std::string T = wide ? "f64" : "f32";
  const std::string inf = wide ? "0d7FF0000000000000" : "0f7F800000";
  const std::string zero = wide ? "0d0000000000000000" : "0f00000000";
  const std::string fcls = wide ? "fd" : "f";
  const std::string absv = scratch(fcls), pfin = scratch("p");
  line(fmt::format("abs.{} {}, {};", T, absv, v));
  line(fmt::format("setp.lt.{} {}, {}, {};", T, pfin, absv, inf));
  // (A concrete value is checked like any other: the model folds an operation on constants only
  // where no rounding happened, docs/semantics.md; a rounded one keeps its exact real value.)
  const bool source = n.op == Op::Load || n.op == Op::Bits || n.op == Op::Unpack ||
                      n.op == Op::Pack || n.op == Op::Const || n.op == Op::Atom || n.op == Op::Shfl;
  if (source) {
    // An element of a float input array read in its own type is a real number by the contract.
    const bool real_input =
        n.op == Op::Load && n.array >= 0 && static_cast<size_t>(n.array) < k_.inputs.size() &&
        pt_float(k_.inputs[n.array].type) && natural_pt(n.ty) == k_.inputs[n.array].type;
    line(fmt::format("@!{} or.b32 %rek, %rek, {};", pfin,
                     static_cast<uint32_t>(real_input ? kSpecialRealInput : kSpecial)));
    return;
  }
  // Not finite: undefined (NaN, or a division-like operation of zero), else an overflow.
  const std::string pnan = scratch("p"), pzd = scratch("p"), pu = scratch("p"), pnf = scratch("p"),
                    po = scratch("p");
  line(fmt::format("setp.nan.{} {}, {}, {};", T, pnan, v, v));
  std::string zd_operand;
  if (n.op == Op::Div)
    zd_operand = operand_value(n, 1, half);
  else if (n.op == Op::Rcp || n.op == Op::Rsqrt || n.op == Op::Lg2)
    zd_operand = operand_value(n, 0, half);
  if (!zd_operand.empty())
    line(fmt::format("setp.eq.{} {}, {}, {};", T, pzd, zd_operand, zero));
  else
    line(fmt::format("setp.ne.u32 {}, %rt, %rt;", pzd));
  line(fmt::format("or.pred {}, {}, {};", pu, pnan, pzd));
  line(fmt::format("not.pred {}, {};", pnf, pfin));
  line(fmt::format("and.pred {}, {}, {};", pu, pu, pnf));
  line(fmt::format("@{} or.b32 %rek, %rek, {};", pu, undef_kind));
  line(fmt::format("@{} min.u32 %reu, %reu, {};", pu, id));
  line(fmt::format("not.pred {}, {};", po, pu));
  line(fmt::format("and.pred {}, {}, {};", po, po, pnf));
  line(fmt::format("@{} or.b32 %rek, %rek, {};", po, static_cast<uint32_t>(kInexact)));

  // Exact? `pex` (only looked at when the result is finite).
  const std::string pex = scratch("p");
  auto eq = [&](const std::string& p, const std::string& x, const std::string& y) {
    line(fmt::format("setp.eq.{} {}, {}, {};", T, p, x, y));
  };
  auto both = [&](const std::string& lo, const std::string& hi) {
    const std::string p1 = scratch("p"), p2 = scratch("p");
    eq(p1, lo, hi);
    eq(p2, lo, v);
    line(fmt::format("and.pred {}, {}, {};", pex, p1, p2));
  };
  // The operation again in f32/f64 (16-bit formats compute in f32, where their products and
  // sums of two operands are exact or detected as not).
  auto redo = [&](std::string_view rnd, bool keep_ftz) {
    const std::string r = scratch(fcls);
    std::string m = fmt::format(".{}", rnd);
    if (keep_ftz && n.ftz)
      m += ".ftz";
    if (n.sat)
      m += ".sat";
    std::vector<std::string> ops;
    for (size_t j = 0; j < n.args.size(); ++j)
      ops.push_back(operand_value(n, static_cast<int>(j), half));
    std::string opname(to_string(n.op));
    if (n.op == Op::Fma || n.op == Op::Mad)
      opname = "fma";
    std::string list;
    for (size_t j = 0; j < ops.size(); ++j)
      list += (j ? ", " : "") + ops[j];
    line(fmt::format("{}{}.{} {}, {};", opname, m, T, r, list));
    return r;
  };
  auto plain = [&]() { // min/max/abs/neg without .ftz
    const std::string r = scratch(fcls);
    std::vector<std::string> ops;
    for (size_t j = 0; j < n.args.size(); ++j)
      ops.push_back(operand_value(n, static_cast<int>(j), half));
    std::string list;
    for (size_t j = 0; j < ops.size(); ++j)
      list += (j ? ", " : "") + ops[j];
    line(fmt::format("{}{}.{} {}, {};", to_string(n.op), n.nan ? ".NaN" : "", T, r, list));
    return r;
  };
  switch (n.op) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Fma:
  case Op::Div:
  case Op::Sqrt:
  case Op::Rcp:
    both(redo("rm", false), redo("rp", false));
    break;
  case Op::Min:
  case Op::Max:
  case Op::Abs:
  case Op::Neg:
    if (n.ftz)
      eq(pex, plain(), v);
    else
      line(fmt::format("setp.eq.u32 {}, %rt, %rt;", pex));
    break;
  case Op::Rsqrt: {
    const std::string a = operand_value(n, 0, half);
    const std::string lo = scratch(fcls), hi = scratch(fcls), e = scratch(fcls);
    const std::string p1 = scratch("p"), p2 = scratch("p");
    line(fmt::format("mul.rm.{} {}, {}, {};", T, lo, v, v));
    line(fmt::format("mul.rp.{} {}, {}, {};", T, hi, v, v));
    line(fmt::format("fma.rn.{} {}, {}, {}, {};", T, e, lo, a,
                     wide ? "0dBFF0000000000000" : "0fBF800000"));
    eq(p1, lo, hi);
    eq(p2, e, zero);
    line(fmt::format("and.pred {}, {}, {};", pex, p1, p2));
    break;
  }
  case Op::Ex2: {
    const std::string a = operand_value(n, 0, half);
    const std::string r = scratch("f"), p1 = scratch("p"), p2 = scratch("p"), p3 = scratch("p");
    const bool is16 = n.ty != Ty::F32;
    line(fmt::format("cvt.rni.f32.f32 {}, {};", r, a));
    line(fmt::format("setp.eq.f32 {}, {}, {};", p1, r, a));
    line(fmt::format("setp.ge.f32 {}, {}, {};", p2, a, is16 ? "0fC1600000" : "0fC2FC0000"));
    line(fmt::format("setp.le.f32 {}, {}, {};", p3, a, is16 ? "0f41700000" : "0f42FE0000"));
    line(fmt::format("and.pred {}, {}, {};", pex, p1, p2));
    line(fmt::format("and.pred {}, {}, {};", pex, pex, p3));
    break;
  }
  case Op::Lg2: {
    const std::string a = operand_value(n, 0, half);
    const std::string r = scratch("f"), e = scratch("f"), p1 = scratch("p"), p2 = scratch("p");
    line(fmt::format("cvt.rni.f32.f32 {}, {};", r, v));
    line(fmt::format("setp.eq.f32 {}, {}, {};", p1, r, v));
    line(fmt::format("ex2.approx.f32 {}, {};", e, v));
    line(fmt::format("setp.eq.f32 {}, {}, {};", p2, e, a));
    line(fmt::format("and.pred {}, {}, {};", pex, p1, p2));
    break;
  }
  case Op::Sin:
  case Op::Tanh:
  case Op::Cos:
    line(fmt::format("setp.eq.f32 {}, {}, 0f00000000;", pex, operand_value(n, 0, half)));
    break;
  case Op::Cvt: {
    const PT src = n.t2;
    if (pt_int(src)) {
      // Integer to float: exact iff rounding down and up agree (and equal the result).
      const std::string lo = scratch(n.ty == Ty::F64 ? "fd" : n.ty == Ty::F32 ? "f" : "h");
      const std::string hi = scratch(n.ty == Ty::F64 ? "fd" : n.ty == Ty::F32 ? "f" : "h");
      const std::string a = reg(n.args[0]);
      line(fmt::format("cvt.rm.{}.{} {}, {};", to_string(n.t1), to_string(src), lo, a));
      line(fmt::format("cvt.rp.{}.{} {}, {};", to_string(n.t1), to_string(src), hi, a));
      if (n.ty == Ty::F16) {
        both(widen(lo, Ty::F16), widen(hi, Ty::F16));
      } else {
        both(lo, hi);
      }
      break;
    }
    // (A packed destination is narrowed per half: cvt.rn.f16x2.f32 makes two 16-bit values.)
    const int sb = pt_bits(src), db = is_packed(n.ty) ? 16 : pt_bits(n.t1);
    const bool narrowing = db < sb || (db == 16 && sb == 16 && src != n.t1);
    if (narrowing) {
      // Exact iff converting back gives the source value (`v` is the result, widened to f32
      // for a 16-bit destination).
      if (src == PT::F64) {
        const std::string back = scratch("fd");
        line(fmt::format("cvt.f64.f32 {}, {};", back, v));
        line(fmt::format("setp.eq.f64 {}, {}, {};", pex, back, reg(n.args[0])));
      } else {
        // cvt.rn.f16x2.f32 d, a, b: d.hi = a, d.lo = b.
        const int src_arg = n.args.size() == 2 ? (half == 0 ? 1 : 0) : 0;
        eq(pex, v, operand_value(n, src_arg, half));
      }
      break;
    }
    // Widening, or an integral rounding within one format: exact, unless .ftz flushed.
    if (n.ftz && (n.ty == Ty::F64 || n.ty == Ty::F32)) {
      const std::string r = scratch(n.ty == Ty::F64 ? "fd" : "f");
      std::string m = is_integral_rounding(n.rnd) ? fmt::format(".{}", to_string(n.rnd)) : "";
      if (n.sat)
        m += ".sat";
      line(fmt::format("cvt{}.{}.{} {}, {};", m, to_string(n.t1), to_string(src), r,
                       reg(n.args[0])));
      eq(pex, r, v);
    } else {
      line(fmt::format("setp.eq.u32 {}, %rt, %rt;", pex));
    }
    break;
  }
  default:
    // No other float-valued operation is generated; be conservative.
    line(fmt::format("setp.ne.u32 {}, %rt, %rt;", pex));
    break;
  }
  const std::string q = scratch("p");
  line(fmt::format("not.pred {}, {};", q, pex));
  line(fmt::format("and.pred {}, {}, {};", q, q, pfin));
  line(fmt::format("@{} or.b32 %rek, %rek, {};", q, static_cast<uint32_t>(kInexact)));
}

std::string Writer::run() {
  // Parameters: inputs, outputs, then the flags array of the instrumented kernel.
  std::vector<std::string> params;
  const size_t arrays = k_.inputs.size() + k_.outputs.size() + (o_.instrument ? 1 : 0);
  for (size_t j = 0; j < arrays; ++j)
    params.push_back(fmt::format("\t.param .u64 {}_param_{}", entry_, j));
  line("mov.u32 %rt, %tid.x;");
  for (size_t j = 0; j < arrays; ++j) {
    line(fmt::format("ld.param.u64 %rdb{}, [{}_param_{}];", j, entry_, j));
    line(fmt::format("cvta.to.global.u64 %rdb{}, %rdb{};", j, j));
  }
  if (o_.instrument) {
    line("mov.u32 %rek, 0;");
    line("mov.u32 %reu, -1;");
  }
  staging();
  const auto order = topological_order(k_);
  for (int i : order) {
    const Node& n = k_.nodes[i];
    if (n.region >= 0 || !printed_[i])
      continue; // printed inside its select, or dead
    emit(i);
  }
  stores();
  if (o_.instrument) {
    const std::string idx = scratch("r");
    line(fmt::format("shl.b32 {}, %rt, 1;", idx));
    const std::string addr = global_address(static_cast<int>(k_.outputs.size()), true, idx, 4);
    line(fmt::format("st.global.u32 [{}], %rek;", addr));
    line(fmt::format("st.global.u32 [{}+4], %reu;", addr));
  }
  line("ret;");

  std::string out = ".version 8.0\n.target sm_80\n.address_size 64\n\n";
  out += fmt::format(".visible .entry {}(\n", entry_);
  for (size_t j = 0; j < params.size(); ++j)
    out += params[j] + (j + 1 < params.size() ? ",\n" : "\n");
  out += ")\n{\n";
  const size_t nn = k_.nodes.size() + 1;
  for (RegClass c :
       {RegClass::P, RegClass::H, RegClass::R, RegClass::RD, RegClass::F, RegClass::FD})
    out += fmt::format("\t.reg .{} %{}<{}>;\n", decl_type(c), prefix(c), nn);
  out += fmt::format("\t.reg .b32 %rt;\n\t.reg .b64 %rdb<{}>;\n", arrays);
  if (o_.instrument)
    out += "\t.reg .b32 %rek, %reu;\n";
  for (const auto& [cls, count] : scratch_) {
    RegClass c = cls == "p"    ? RegClass::P
                 : cls == "h"  ? RegClass::H
                 : cls == "r"  ? RegClass::R
                 : cls == "rd" ? RegClass::RD
                 : cls == "f"  ? RegClass::F
                               : RegClass::FD;
    out += fmt::format("\t.reg .{} %z{}<{}>;\n", decl_type(c), cls, count);
  }
  out += shared_decls_;
  out += "\n" + body_ + "}\n";
  return out;
}

} // namespace

std::string write_ptx(const Kernel& k, const std::string& entry, const WriteOptions& o) {
  Writer w(k, entry, o);
  return w.run();
}

} // namespace volta::pair_fuzz
