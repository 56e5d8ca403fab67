#include "kernel_generator.hpp"

#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "engine/emulate/elem_type.hpp"

namespace volta::pair_fuzz {

uint16_t half_bits(double v, bool bf16) {
  uint8_t b[2];
  emulate::write_element(bf16 ? emulate::ElemType::BF16 : emulate::ElemType::F16, v, b);
  return static_cast<uint16_t>(b[0] | (b[1] << 8));
}

namespace {

uint32_t f32_bits(float f) {
  return std::bit_cast<uint32_t>(f);
}
uint64_t f64_bits(double d) {
  return std::bit_cast<uint64_t>(d);
}

// A float constant: mostly small dyadic values (exact arithmetic stays exact), some moderate
// random values, and special values: signed zeros, infinities, NaN, subnormals, extremes.
double float_value(Rng& r) {
  switch (r.weighted({6, 2, 1})) {
  case 0:
    return static_cast<double>(r.range(-16, 16)) / 4.0;
  case 1:
    return r.real(-8, 8);
  default:
    break;
  }
  static const double specials[] = {0.0,   -0.0,   INFINITY, -INFINITY, NAN, 1e-40,
                                    1e-30, 1.5e38, -3e38,    1e30,      0.5, 65504.0};
  return specials[r.below(std::size(specials))];
}

} // namespace

uint64_t random_const_bits(Rng& r, Ty t) {
  switch (t) {
  case Ty::Pred:
    return r.below(2);
  case Ty::I16:
  case Ty::I32:
  case Ty::I64: {
    const int w = bit_width(t);
    const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    switch (r.weighted({5, 2, 3, 1})) {
    case 0:
      return static_cast<uint64_t>(r.range(-8, 8)) & mask;
    case 1:
      return r.next() & mask;
    case 2: {
      const uint64_t top = uint64_t{1} << (w - 1);
      const uint64_t b[] = {top - 1, top, mask, top + 1, uint64_t{1} << r.below(w),  0xff,
                            0x80,    31,  32,   33,      w == 16 ? 0x7fffu : 0x8000u};
      return b[r.below(std::size(b))] & mask;
    }
    default: // the bits of a float of the same width
      if (w == 32)
        return f32_bits(static_cast<float>(float_value(r)));
      if (w == 64)
        return f64_bits(float_value(r));
      return half_bits(float_value(r), r.chance(0.3));
    }
  }
  case Ty::F16:
    return half_bits(float_value(r), false);
  case Ty::BF16:
    return half_bits(float_value(r), true);
  case Ty::F32:
    return f32_bits(static_cast<float>(float_value(r)));
  case Ty::F64:
    return f64_bits(float_value(r));
  case Ty::F16x2:
    return half_bits(float_value(r), false) | (uint64_t{half_bits(float_value(r), false)} << 16);
  case Ty::BF16x2:
    return half_bits(float_value(r), true) | (uint64_t{half_bits(float_value(r), true)} << 16);
  }
  return 0;
}

namespace {

const Rnd kRound[] = {Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp};
const Rnd kIntegral[] = {Rnd::Rni, Rnd::Rzi, Rnd::Rmi, Rnd::Rpi};

class Gen {
public:
  explicit Gen(Rng& r, const GenOptions& o) : r_(r), o_(o) {}
  Kernel run();

private:
  Rng& r_;
  const GenOptions& o_;
  Kernel k_;
  int region_ = -1, arm_ = 0; // the branch arm being generated, if any
  std::vector<bool> incomplete_;
  int atoms_ = 0;
  int depth_ = 0;

  int add(Node n) {
    n.region = region_;
    n.arm = arm_;
    const int id = k_.add(std::move(n));
    incomplete_.push_back(false);
    return id;
  }
  bool usable(int i) const {
    const Node& n = k_.nodes[i];
    if (incomplete_[i])
      return false;
    if (n.region >= 0 && (n.region != region_ || n.arm != arm_))
      return false;
    return true;
  }
  int value(Ty t);
  int leaf(Ty t);
  int constant(Ty t, bool imm_ok = true);
  int load(Ty t);
  int convert(int v, Ty t);
  std::vector<IdxStep> random_index(uint32_t len);
  int int_op();
  int float_op();
  int half_op();
  int compare();
  int select();
  int shuffle();
  int collective();
  int atom();
  int conversion_op();
  int step();
  void outputs();
  PT store_type(Ty v, PT array) const;
};

std::vector<IdxStep> Gen::random_index(uint32_t len) {
  switch (r_.weighted({12, 3, 2, 1, 2})) {
  case 0:
    return {};
  case 1:
    return {{IdxStep::Kind::Xor, 1u + r_.below(31)}};
  case 2:
    return {{IdxStep::Kind::Rot, 1u + r_.below(31)}};
  case 3:
    return {{IdxStep::Kind::Lane, r_.below(32)}};
  default:
    return {{IdxStep::Kind::Fixed, r_.below(len)}};
  }
}

// The load type that reads an element of `array` into a value of `t`, if one does.
PT load_type(Rng& r, PT array, Ty t) {
  const int aw = pt_bits(array);
  const bool s = r.chance(0.5);
  switch (t) {
  case Ty::F32:
    return aw == 32 ? PT::F32 : PT::None;
  case Ty::F64:
    return aw == 64 ? PT::F64 : PT::None;
  case Ty::F16:
    return array == PT::F16 || (aw == 16 && array != PT::BF16 && r.chance(0.3)) ? PT::B16
                                                                                : PT::None;
  case Ty::BF16:
    return array == PT::BF16 || (aw == 16 && array != PT::F16 && r.chance(0.3)) ? PT::B16
                                                                                : PT::None;
  case Ty::F16x2:
  case Ty::BF16x2:
    return aw == 32 ? PT::B32 : PT::None;
  case Ty::I16:
    return aw <= 16 ? int_pt(aw, pt_signed(array) || s) : PT::None;
  case Ty::I32:
    return aw <= 32 ? int_pt(aw, aw < 32 ? (pt_signed(array) || s) : s) : PT::None;
  case Ty::I64:
    return int_pt(aw, pt_signed(array) || s);
  case Ty::Pred:
    return PT::None;
  }
  return PT::None;
}

int Gen::load(Ty t) {
  if (region_ >= 0 || k_.inputs.empty())
    return -1;
  std::vector<std::pair<int, PT>> options;
  for (int a = 0; a < static_cast<int>(k_.inputs.size()); ++a) {
    const PT lt = load_type(r_, k_.inputs[a].type, t);
    if (lt != PT::None)
      options.push_back({a, lt});
  }
  if (options.empty())
    return -1;
  // Prefer the array's own format (a float array read as floats).
  std::vector<double> w;
  for (const auto& [a, lt] : options) {
    const PT at = k_.inputs[a].type;
    w.push_back(pt_float(at) == is_float(t) ? 8.0 : 1.0);
  }
  const auto [a, lt] = options[r_.weighted(w)];
  Node n;
  n.op = Op::Load;
  n.ty = t;
  n.t1 = lt;
  n.array = a;
  n.index = random_index(k_.inputs[a].len);
  const int width = elem_bytes(k_.inputs[a].type);
  const double p = r_.real(0, 1);
  if (p < 0.08)
    n.via = Via::SharedSt;
  else if (p < 0.16 && (width == 4 || width == 8))
    n.via = Via::CpAsync;
  return add(n);
}

int Gen::constant(Ty t, bool imm_ok) {
  Node n;
  n.op = Op::Const;
  n.ty = t;
  n.bits = random_const_bits(r_, t);
  n.imm = imm_ok && r_.chance(0.6);
  return add(n);
}

int Gen::leaf(Ty t) {
  if (depth_ > 6)
    return constant(t);
  struct Depth {
    int& d;
    explicit Depth(int& x) : d(x) { ++d; }
    ~Depth() { --d; }
  } depth(depth_);
  for (int attempt = 0; attempt < 4; ++attempt) {
    switch (r_.weighted({region_ >= 0 ? 0.0 : 6.0, 2, 3, t == Ty::I32 ? 1.0 : 0.0})) {
    case 0:
      if (int v = load(t); v >= 0)
        return v;
      break;
    case 1:
      return constant(t);
    case 2: {
      // From a value of another type.
      std::vector<int> others;
      for (int i = 0; i < static_cast<int>(k_.nodes.size()); ++i) {
        if (usable(i) && k_.nodes[i].ty != t && k_.nodes[i].ty != Ty::Pred)
          others.push_back(i);
      }
      if (!others.empty()) {
        if (int v = convert(
                others[others.size() - 1 - r_.below(std::min<size_t>(others.size(), 6))], t);
            v >= 0)
          return v;
      }
      break;
    }
    default: {
      Node n;
      n.op = Op::Tid;
      n.ty = Ty::I32;
      if (r_.chance(0.3))
        n.index = {{IdxStep::Kind::Xor, 1u + r_.below(31)}};
      return add(n);
    }
    }
  }
  return constant(t);
}

int Gen::value(Ty t) {
  if (t == Ty::Pred) {
    std::vector<int> preds;
    for (int i = 0; i < static_cast<int>(k_.nodes.size()); ++i) {
      if (usable(i) && k_.nodes[i].ty == Ty::Pred)
        preds.push_back(i);
    }
    if (!preds.empty() && r_.chance(0.5))
      return preds[preds.size() - 1 - r_.below(std::min<size_t>(preds.size(), 3))];
    return compare();
  }
  std::vector<int> c;
  for (int i = 0; i < static_cast<int>(k_.nodes.size()); ++i) {
    if (usable(i) && k_.nodes[i].ty == t)
      c.push_back(i);
  }
  if (!c.empty() && r_.chance(0.7)) {
    // Chains (the latest value again) give the mutations nested shapes to work on.
    if (r_.chance(0.35))
      return c.back();
    if (r_.chance(0.7))
      return c[c.size() - 1 - r_.below(std::min<size_t>(c.size(), 6))];
    return r_.pick(c);
  }
  return leaf(t);
}

// A value of type `t` computed from `v` (a conversion, a reinterpretation, a (un)packing).
int Gen::convert(int v, Ty t) {
  const Ty s = k_.nodes[v].ty;
  if (s == t)
    return v;
  if (depth_ > 12)
    return -1;
  struct Depth {
    int& d;
    explicit Depth(int& x) : d(x) { ++d; }
    ~Depth() { --d; }
  } depth(depth_);
  Node n;
  n.ty = t;
  n.args = {v};
  auto cvt = [&](PT dst, PT src, Rnd rnd = Rnd::None) {
    n.op = Op::Cvt;
    n.t1 = dst;
    n.t2 = src;
    n.rnd = rnd;
    return add(n);
  };
  const bool sg = r_.chance(0.5);
  // Reinterpretations between registers of one width.
  // (Not too often: an integer operation on float bits of data is refused by the contract's
  // model unless both kernels compute the same term, so such pairs decide little.)
  if (bit_width(s) == bit_width(t) && s != Ty::Pred && r_.chance(0.25)) {
    n.op = Op::Bits;
    return add(n);
  }
  if (s == Ty::Pred) {
    if (is_int(t) || t == Ty::F32 || t == Ty::F64) {
      n.op = Op::Select;
      n.t1 = natural_pt(t);
      n.style = SelStyle::Selp;
      const int a = constant(t), b = constant(t);
      n.args = {v, a, b};
      return add(n);
    }
    return -1;
  }
  if (is_int(s) && is_int(t)) {
    const int sw = bit_width(s), tw = bit_width(t);
    // Through an 8-bit type now and then (cvt.s8.s32 keeps the low byte, sign-extended).
    const PT dst = int_pt(tw, sg);
    const PT src = int_pt(tw >= 16 && sw >= 16 && r_.chance(0.2) ? 8 : sw, r_.chance(0.5));
    n.sat = int_cvt_sat_ok(dst, src) && r_.chance(0.25);
    return cvt(dst, src);
  }
  if (is_int(s) && (t == Ty::F32 || t == Ty::F64 || t == Ty::F16)) {
    return cvt(natural_pt(t), int_pt(bit_width(s), sg), kRound[r_.below(4)]);
  }
  if ((s == Ty::F32 || s == Ty::F64 || s == Ty::F16) && is_int(t)) {
    n.ftz = s == Ty::F32 && r_.chance(0.2);
    n.sat = r_.chance(0.15);
    return cvt(int_pt(bit_width(t), sg), natural_pt(s), kIntegral[r_.below(4)]);
  }
  if (is_float(s) && is_float(t) && !is_packed(s) && !is_packed(t)) {
    const PT sp = natural_pt(s), tp = natural_pt(t);
    if (s == Ty::BF16 && t != Ty::F32)
      return convert(convert(v, Ty::F32), t);
    if (t == Ty::BF16 && s != Ty::F32)
      return convert(convert(v, Ty::F32), t);
    if (s == Ty::F16 && t == Ty::BF16)
      return -1;
    const bool narrowing = bit_width(t) < bit_width(s);
    if (narrowing) {
      Rnd rnd = t == Ty::BF16                  ? (r_.chance(0.8) ? Rnd::Rn : Rnd::Rz)
                : s == Ty::F64 && t == Ty::F16 ? Rnd::Rn
                                               : kRound[r_.below(4)];
      n.ftz = (s == Ty::F32 || t == Ty::F32) && t != Ty::BF16 && r_.chance(0.15);
      n.sat = t != Ty::BF16 && !(s == Ty::F64 && t == Ty::F16) && r_.chance(0.1);
      return cvt(tp, sp, rnd);
    }
    n.ftz = (s == Ty::F32 || t == Ty::F32) && s != Ty::BF16 && r_.chance(0.15);
    n.sat = s != Ty::BF16 && t != Ty::F64 && r_.chance(0.1);
    return cvt(tp, sp);
  }
  if (is_packed(t)) {
    const Ty half = t == Ty::F16x2 ? Ty::F16 : Ty::BF16;
    if (s == Ty::F32 && r_.chance(0.5)) {
      n.op = Op::Cvt;
      n.t1 = t == Ty::F16x2 ? PT::F16x2 : PT::BF16x2;
      n.t2 = PT::F32;
      n.rnd = Rnd::Rn;
      n.args = {v, value(Ty::F32)};
      return add(n);
    }
    const int h = convert(v, half);
    if (h < 0)
      return -1;
    n.op = Op::Pack;
    n.args = r_.chance(0.5) ? std::vector<int>{h, value(half)} : std::vector<int>{value(half), h};
    return add(n);
  }
  if (is_packed(s)) {
    const Ty half = s == Ty::F16x2 ? Ty::F16 : Ty::BF16;
    Node u;
    u.op = Op::Unpack;
    u.ty = half;
    u.args = {v};
    u.bits = r_.below(2);
    const int h = add(u);
    return convert(h, t);
  }
  if (t == Ty::I64 && s != Ty::I64) {
    const int lo = convert(v, Ty::I32);
    if (lo < 0)
      return -1;
    n.op = Op::Pack;
    n.args = {lo, value(Ty::I32)};
    return add(n);
  }
  // Anything else goes through a 32-bit value of the source's kind, then of the target's.
  if (s != Ty::I32 && s != Ty::F32) {
    const int mid = convert(v, is_float(s) ? Ty::F32 : Ty::I32);
    return mid < 0 ? -1 : convert(mid, t);
  }
  if (t != Ty::I32 && t != Ty::F32) {
    const int mid = convert(v, is_float(t) ? Ty::F32 : Ty::I32);
    return mid < 0 ? -1 : convert(mid, t);
  }
  return -1;
}

int Gen::int_op() {
  const Ty t = r_.pick(std::vector<Ty>{Ty::I32, Ty::I32, Ty::I32, Ty::I16, Ty::I64, Ty::I64});
  const int w = bit_width(t);
  const bool sg = r_.chance(0.5);
  Node n;
  n.ty = t;
  n.t1 = int_pt(w, sg);
  auto bin = [&](Op op) {
    n.op = op;
    n.args = {value(t), value(t)};
    return add(n);
  };
  auto amount = [&]() {
    if (r_.chance(0.7)) {
      Node c;
      c.op = Op::Const;
      c.ty = Ty::I32;
      c.bits = r_.chance(0.85) ? r_.below(w) : w + r_.below(8);
      c.imm = r_.chance(0.7);
      return add(c);
    }
    return value(Ty::I32);
  };
  switch (r_.weighted({4, 3, 3, 1.5, 1, 1.5, 1, 1, 1, 2.5, 1, 1.5, 1, 1, 1, 1, 1, 1})) {
  case 0:
    n.sat = t == Ty::I32 && sg && r_.chance(0.2);
    return bin(Op::Add);
  case 1:
    n.sat = t == Ty::I32 && sg && r_.chance(0.2);
    return bin(Op::Sub);
  case 2:
    n.imode = r_.chance(0.7) ? IMode::Lo : IMode::Hi;
    if (t != Ty::I64 && r_.chance(0.25)) {
      n.imode = IMode::Wide;
      n.ty = t == Ty::I16 ? Ty::I32 : Ty::I64;
      n.op = Op::Mul;
      n.args = {value(t), value(t)};
      return add(n);
    }
    return bin(Op::Mul);
  case 3:
    n.op = Op::Mad;
    n.imode = r_.chance(0.7) ? IMode::Lo : IMode::Hi;
    if (t != Ty::I64 && r_.chance(0.25)) {
      n.imode = IMode::Wide;
      n.ty = t == Ty::I16 ? Ty::I32 : Ty::I64;
      n.args = {value(t), value(t), value(n.ty)};
      return add(n);
    }
    n.args = {value(t), value(t), value(t)};
    return add(n);
  case 4:
    n.ty = Ty::I32;
    n.t1 = int_pt(32, sg);
    n.op = r_.chance(0.6) ? Op::Mul24 : Op::Mad24;
    n.args = {value(Ty::I32), value(Ty::I32)};
    if (n.op == Op::Mad24)
      n.args.push_back(value(Ty::I32));
    return add(n);
  case 5: {
    n.op = r_.chance(0.5) ? Op::Div : Op::Rem;
    const int a = value(t);
    int b = value(t);
    if (r_.chance(0.6)) { // keep the divisor nonzero: b | 1
      Node o;
      o.op = Op::Or;
      o.ty = t;
      o.t1 = bits_pt(w);
      Node one;
      one.op = Op::Const;
      one.ty = t;
      one.bits = 1;
      one.imm = r_.chance(0.7);
      o.args = {b, add(one)};
      b = add(o);
    }
    n.args = {a, b};
    return add(n);
  }
  case 6:
    n.op = r_.chance(0.5) ? Op::Abs : Op::Neg;
    n.t1 = int_pt(w, true);
    n.args = {value(t)};
    return add(n);
  case 7:
    n.op = Op::Sad;
    n.args = {value(t), value(t), value(t)};
    return add(n);
  case 8:
    return bin(r_.chance(0.5) ? Op::Min : Op::Max);
  case 9: {
    n.t1 = bits_pt(w);
    const Op ops[] = {Op::And, Op::Or, Op::Xor};
    return bin(ops[r_.below(3)]);
  }
  case 10:
    n.t1 = bits_pt(w);
    n.op = r_.chance(0.7) ? Op::Not : Op::CNot;
    n.args = {value(t)};
    return add(n);
  case 11:
    n.op = r_.chance(0.5) ? Op::Shl : Op::Shr;
    if (n.op == Op::Shl)
      n.t1 = bits_pt(w);
    n.args = {value(t)};
    n.args.push_back(amount());
    return add(n);
  case 12:
    if (t == Ty::I16)
      return -1;
    n.op = r_.chance(0.5) ? Op::Popc : Op::Clz;
    n.ty = Ty::I32;
    n.t1 = bits_pt(w);
    n.args = {value(t)};
    return add(n);
  case 13:
    if (t == Ty::I16)
      return -1;
    n.op = Op::Brev;
    n.t1 = bits_pt(w);
    n.args = {value(t)};
    return add(n);
  case 14: {
    if (t == Ty::I16)
      return -1;
    n.op = Op::Bfe;
    const int a = value(t);
    n.args = {a, amount(), amount()};
    return add(n);
  }
  case 15: {
    if (t == Ty::I16)
      return -1;
    n.op = Op::Bfi;
    n.t1 = bits_pt(w);
    const int a = value(t), b = value(t);
    n.args = {a, b, amount(), amount()};
    return add(n);
  }
  case 16:
    n.ty = Ty::I32;
    n.t1 = PT::B32;
    if (r_.chance(0.5)) {
      n.op = Op::Prmt;
      n.args = {value(Ty::I32), value(Ty::I32)};
      if (r_.chance(0.2))
        n.args.push_back(value(Ty::I32));
      else
        n.bits = r_.chance(0.5) ? r_.below(0x10000) : (r_.next() & 0x7777);
    } else {
      n.op = Op::Lop3;
      n.args = {value(Ty::I32), value(Ty::I32), value(Ty::I32)};
      n.bits = r_.below(256);
    }
    return add(n);
  default: {
    n.ty = Ty::I32;
    n.t1 = PT::B32;
    n.op = Op::Shf;
    n.left = r_.chance(0.5);
    n.clamp = r_.chance(0.5);
    const int a = value(Ty::I32), b = value(Ty::I32);
    Node c;
    c.op = Op::Const;
    c.ty = Ty::I32;
    c.bits = r_.below(40);
    c.imm = true;
    n.args = {a, b, r_.chance(0.6) ? add(c) : value(Ty::I32)};
    return add(n);
  }
  }
}

int Gen::float_op() {
  const Ty t = r_.chance(0.75) ? Ty::F32 : Ty::F64;
  const bool f32 = t == Ty::F32;
  Node n;
  n.ty = t;
  n.t1 = natural_pt(t);
  auto rnd_opt = [&]() { return r_.chance(0.4) ? Rnd::None : kRound[r_.below(4)]; };
  auto arith_mods = [&]() {
    n.rnd = rnd_opt();
    n.ftz = f32 && r_.chance(0.2);
    n.sat = f32 && r_.chance(0.1);
  };
  switch (r_.weighted({4, 2, 4, 3, 1.5, 1, 1, 1, 1, 1, 1, 2, 1.5})) {
  case 0:
  case 1:
    arith_mods();
    n.op = r_.chance(0.6) ? Op::Add : Op::Sub;
    n.args = {value(t), value(t)};
    return add(n);
  case 2:
    arith_mods();
    n.op = Op::Mul;
    n.args = {value(t), value(t)};
    return add(n);
  case 3:
    arith_mods();
    n.rnd = kRound[r_.below(4)];
    n.op = Op::Fma;
    n.args = {value(t), value(t), value(t)};
    return add(n);
  case 4:
    n.op = Op::Div;
    if (f32 && r_.chance(0.4)) {
      (r_.chance(0.5) ? n.approx : n.full) = true;
      n.ftz = r_.chance(0.5);
    } else {
      n.rnd = kRound[r_.below(4)];
      n.ftz = f32 && r_.chance(0.2);
    }
    n.args = {value(t), value(t)};
    return add(n);
  case 5:
  case 6:
    n.op = r_.chance(0.5) ? Op::Rcp : Op::Sqrt;
    if (r_.chance(0.4) && (f32 || n.op == Op::Rcp)) {
      n.approx = true;
      n.ftz = !f32 || r_.chance(0.5); // rcp.approx.f64 needs .ftz
    } else {
      n.rnd = kRound[r_.below(4)];
      n.ftz = f32 && r_.chance(0.2);
    }
    n.args = {value(t)};
    return add(n);
  case 7:
    n.op = Op::Rsqrt;
    n.approx = true;
    n.ftz = f32 && r_.chance(0.3);
    n.args = {value(t)};
    return add(n);
  case 8:
  case 9:
  case 10: {
    if (!f32)
      return -1;
    const Op ops[] = {Op::Ex2, Op::Lg2, Op::Sin, Op::Cos, Op::Tanh};
    n.op = ops[r_.below(5)];
    n.approx = true;
    n.ftz = n.op != Op::Tanh && r_.chance(0.3);
    n.args = {value(t)};
    return add(n);
  }
  case 11:
    n.op = r_.chance(0.5) ? Op::Min : Op::Max;
    n.ftz = f32 && r_.chance(0.2);
    n.nan = f32 && r_.chance(0.2);
    n.args = {value(t), value(t)};
    return add(n);
  default:
    n.op = r_.chance(0.5) ? Op::Abs : Op::Neg;
    n.ftz = f32 && r_.chance(0.2);
    n.args = {value(t)};
    return add(n);
  }
}

int Gen::half_op() {
  const Ty t = r_.pick(std::vector<Ty>{Ty::F16, Ty::F16, Ty::BF16, Ty::F16x2, Ty::BF16x2});
  const bool bf = t == Ty::BF16 || t == Ty::BF16x2;
  Node n;
  n.ty = t;
  n.t1 = natural_pt(t);
  switch (r_.weighted({bf ? 0.0 : 4, 3, 2, 1.5, bf ? 0.0 : 1})) {
  case 0: {
    const Op ops[] = {Op::Add, Op::Sub, Op::Mul};
    n.op = ops[r_.below(3)];
    n.rnd = r_.chance(0.5) ? Rnd::Rn : Rnd::None;
    n.ftz = r_.chance(0.2);
    n.sat = r_.chance(0.1);
    n.args = {value(t), value(t)};
    return add(n);
  }
  case 1:
    n.op = Op::Fma;
    n.rnd = Rnd::Rn;
    n.ftz = !bf && r_.chance(0.2);
    n.sat = !bf && r_.chance(0.1);
    n.args = {value(t), value(t), value(t)};
    return add(n);
  case 2:
    n.op = r_.chance(0.5) ? Op::Min : Op::Max;
    n.ftz = !bf && r_.chance(0.2);
    n.nan = r_.chance(0.2);
    n.args = {value(t), value(t)};
    return add(n);
  case 3:
    n.op = r_.chance(0.5) ? Op::Neg : Op::Abs;
    n.ftz = !bf && r_.chance(0.2);
    n.args = {value(t)};
    return add(n);
  default:
    if (t == Ty::F16 && r_.chance(0.5)) {
      n.op = Op::Tanh;
    } else {
      n.op = Op::Ex2;
    }
    n.approx = true;
    n.args = {value(t)};
    return add(n);
  }
}

int Gen::compare() {
  const Ty t = r_.pick(
      std::vector<Ty>{Ty::I32, Ty::I32, Ty::I16, Ty::I64, Ty::F32, Ty::F32, Ty::F64, Ty::F16});
  Node n;
  n.op = Op::Setp;
  n.ty = Ty::Pred;
  const int a = value(t), b = value(t);
  n.args = {a, b};
  if (is_int(t)) {
    const bool sg = r_.chance(0.5);
    n.t1 = int_pt(bit_width(t), sg);
    if (sg) {
      n.cmp = static_cast<Cmp>(r_.below(6));
    } else {
      const Cmp c[] = {Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt,
                       Cmp::Ge, Cmp::Lo, Cmp::Ls, Cmp::Hi, Cmp::Hs};
      n.cmp = c[r_.below(10)];
    }
  } else {
    n.t1 = natural_pt(t);
    const Cmp c[] = {Cmp::Eq,  Cmp::Ne,  Cmp::Lt,  Cmp::Le,  Cmp::Gt,  Cmp::Ge,  Cmp::Equ,
                     Cmp::Neu, Cmp::Ltu, Cmp::Leu, Cmp::Gtu, Cmp::Geu, Cmp::Num, Cmp::Nan};
    n.cmp = c[r_.weighted({2, 2, 3, 2, 3, 2, 0.5, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 1})];
    n.ftz = t != Ty::F64 && r_.chance(0.15);
  }
  const int p = add(n);
  if (r_.chance(0.15)) {
    Node q;
    q.ty = Ty::Pred;
    q.t1 = PT::Pred;
    if (r_.chance(0.4)) {
      q.op = Op::PNot;
      q.args = {p};
    } else {
      const Op ops[] = {Op::PAnd, Op::POr, Op::PXor};
      q.op = ops[r_.below(3)];
      q.args = {p, compare()};
    }
    return add(q);
  }
  return p;
}

int Gen::select() {
  std::vector<Ty> types = {Ty::I32, Ty::I32, Ty::F32, Ty::F32, Ty::I64, Ty::F64, Ty::I16, Ty::F16};
  const Ty t = r_.pick(types);
  const int cond = value(Ty::Pred);
  Node s;
  s.op = Op::Select;
  s.ty = t;
  s.t1 = natural_pt(t);
  const double p = r_.real(0, 1);
  if (region_ >= 0 || p < 0.5) {
    s.style = SelStyle::Selp;
    const int a = value(t), b = value(t);
    s.args = {cond, a, b};
    return add(s);
  }
  // A branch (or a predicated instruction) whose arms compute in registers only.
  s.style = p < 0.85 ? SelStyle::Branch : SelStyle::Predicated;
  s.args = {cond, -1, -1};
  const int id = add(s);
  incomplete_[id] = true;
  const int saved_region = region_, saved_arm = arm_;
  region_ = id;
  int roots[2] = {-1, -1};
  for (int a = 0; a < 2; ++a) {
    arm_ = a;
    const bool single = s.style == SelStyle::Predicated && a == 0;
    const int ops = single ? 1 : static_cast<int>(r_.below(3));
    for (int j = 0; j < ops; ++j) {
      int v = -1;
      for (int attempt = 0; attempt < 6 && v < 0; ++attempt) {
        if (is_int(t))
          v = int_op();
        else
          v = float_op();
        if (v >= 0 && k_.nodes[v].ty != t)
          v = convert(v, t);
      }
      if (v >= 0)
        roots[a] = v;
    }
    if (single) {
      // The guarded instruction must be one arithmetic instruction of the select's type, in
      // the arm: anything else (a constant materialized, a conversion chain) makes it a branch.
      const bool one = roots[0] >= 0 && k_.nodes[roots[0]].region == id &&
                       guardable(k_.nodes[roots[0]]) && k_.nodes[roots[0]].ty == t;
      int count = 0;
      for (size_t i = id + 1; i < k_.nodes.size(); ++i)
        count += k_.nodes[i].region == id && k_.nodes[i].arm == 0;
      if (!one || count != 1)
        k_.nodes[id].style = SelStyle::Branch;
    }
    if (roots[a] < 0)
      roots[a] = value(t);
  }
  region_ = saved_region;
  arm_ = saved_arm;
  k_.nodes[id].args = {cond, roots[0], roots[1]};
  incomplete_[id] = false;
  return id;
}

int Gen::shuffle() {
  if (region_ >= 0)
    return -1;
  Node n;
  n.op = Op::Shfl;
  n.ty = r_.chance(0.5) ? Ty::I32 : Ty::F32;
  n.t1 = PT::B32;
  n.args = {value(n.ty)};
  n.smode = static_cast<ShflMode>(r_.weighted({3, 3, 1, 1}));
  switch (n.smode) {
  case ShflMode::Idx:
    n.bits = r_.below(32);
    n.bits2 = 31;
    break;
  case ShflMode::Bfly:
    n.bits = 1u << r_.below(5);
    if (r_.chance(0.2))
      n.bits = 1 + r_.below(31);
    n.bits2 = 31;
    break;
  case ShflMode::Up:
    n.bits = 1 + r_.below(8);
    n.bits2 = 0;
    break;
  case ShflMode::Down:
    n.bits = 1 + r_.below(8);
    n.bits2 = 31;
    break;
  }
  return add(n);
}

// vote.sync.ballot of a predicate, or redux.sync of a 32-bit integer, over the full warp.
int Gen::collective() {
  if (region_ >= 0)
    return -1;
  Node n;
  n.ty = Ty::I32;
  if (r_.chance(0.4)) {
    n.op = Op::Vote;
    n.t1 = PT::B32;
    n.args = {value(Ty::Pred)};
    return add(n);
  }
  n.op = Op::Redux;
  n.args = {value(Ty::I32)};
  static constexpr AtomOp kinds[] = {AtomOp::Add, AtomOp::Min, AtomOp::Max,
                                     AtomOp::And, AtomOp::Or,  AtomOp::Xor};
  n.aop = kinds[r_.below(std::size(kinds))];
  const bool bitwise = n.aop == AtomOp::And || n.aop == AtomOp::Or || n.aop == AtomOp::Xor;
  n.t1 = bitwise ? PT::B32 : r_.chance(0.5) ? PT::S32 : PT::U32;
  return add(n);
}

int Gen::atom() {
  if (region_ >= 0 || atoms_ >= 2)
    return -1;
  int array = -1;
  for (int a = 0; a < static_cast<int>(k_.outputs.size()); ++a) {
    if (k_.outputs[a].kind == ArrayKind::Zero)
      array = a;
  }
  if (array < 0)
    return -1;
  ++atoms_;
  const PT at = k_.outputs[array].type;
  Node n;
  n.op = Op::Atom;
  n.array = array;
  n.ty = at == PT::F32 ? Ty::F32 : at == PT::U64 ? Ty::I64 : Ty::I32;
  n.index = {{IdxStep::Kind::Fixed, r_.below(k_.outputs[array].len)}};
  if (at == PT::F32) {
    n.aop = AtomOp::Add;
    n.t1 = PT::F32;
  } else {
    n.aop = static_cast<AtomOp>(r_.weighted({4, 1.5, 1.5, 1, 1, 1, 0.3}));
    const bool bitwise = n.aop == AtomOp::And || n.aop == AtomOp::Or || n.aop == AtomOp::Xor ||
                         n.aop == AtomOp::Exch;
    n.t1 = bitwise ? bits_pt(bit_width(n.ty)) : at;
    if (at == PT::U64 && (n.aop == AtomOp::Min || n.aop == AtomOp::Max))
      n.t1 = PT::U64;
  }
  n.args = {value(n.ty)};
  return add(n);
}

int Gen::conversion_op() {
  std::vector<int> c;
  for (int i = 0; i < static_cast<int>(k_.nodes.size()); ++i) {
    if (usable(i) && k_.nodes[i].ty != Ty::Pred)
      c.push_back(i);
  }
  if (c.empty())
    return -1;
  const int v = c[c.size() - 1 - r_.below(std::min<size_t>(c.size(), 5))];
  const Ty targets[] = {Ty::I16, Ty::I32, Ty::I64,   Ty::F16,   Ty::BF16,
                        Ty::F32, Ty::F64, Ty::F16x2, Ty::BF16x2};
  return convert(v, targets[r_.below(std::size(targets))]);
}

int Gen::step() {
  const bool in_arm = region_ >= 0;
  switch (r_.weighted(
      {6, 5, 2.5, 2.5, 2, in_arm ? 0.0 : 2.5, in_arm ? 0.0 : 1.2, in_arm ? 0.0 : 0.8})) {
  case 0:
    return int_op();
  case 1:
    return float_op();
  case 2:
    return half_op();
  case 3:
    return conversion_op();
  case 4:
    return compare();
  case 5:
    return select();
  case 6:
    return r_.chance(0.3) ? collective() : shuffle();
  default:
    return atom();
  }
}

// The store instruction type for a value of `v` in an array of `array`, or None.
PT Gen::store_type(Ty v, PT array) const {
  const int aw = pt_bits(array);
  switch (v) {
  case Ty::F32:
    return aw == 32 ? (array == PT::F32 ? PT::F32 : PT::B32) : PT::None;
  case Ty::F64:
    return aw == 64 ? (array == PT::F64 ? PT::F64 : PT::B64) : PT::None;
  case Ty::F16:
  case Ty::BF16:
    return aw == 16 ? PT::B16 : PT::None;
  case Ty::F16x2:
  case Ty::BF16x2:
    return aw == 32 ? PT::B32 : PT::None;
  case Ty::I16:
    return aw <= 16 ? (pt_float(array) ? PT::B16 : int_pt(aw, pt_signed(array))) : PT::None;
  case Ty::I32:
    if (aw > 32)
      return PT::None;
    if (pt_float(array)) // integer data in a float array: stored as bits
      return aw == 32 ? PT::B32 : PT::B16;
    return int_pt(aw, pt_signed(array));
  case Ty::I64:
    return aw == 64 ? (pt_float(array) ? PT::B64 : array) : PT::None;
  case Ty::Pred:
    return PT::None;
  }
  return PT::None;
}

void Gen::outputs() {
  const auto users = users_of(k_);
  // Sinks first (values nothing else uses), the latest first.
  std::vector<int> sinks, others;
  for (int i = static_cast<int>(k_.nodes.size()) - 1; i >= 0; --i) {
    const Node& n = k_.nodes[i];
    if (n.region >= 0 || n.ty == Ty::Pred || n.op == Op::Atom)
      continue;
    (users[i].empty() && n.op != Op::Const ? sinks : others).push_back(i);
  }
  size_t next_sink = 0;
  for (int a = 0; a < static_cast<int>(k_.outputs.size()); ++a) {
    if (k_.outputs[a].kind != ArrayKind::Out)
      continue;
    const PT at = k_.outputs[a].type;
    int v = -1;
    if (next_sink < sinks.size())
      v = sinks[next_sink++];
    else if (!others.empty())
      v = others[r_.below(std::min<size_t>(others.size(), 4))];
    else
      v = value(Ty::I32);
    PT st = store_type(k_.nodes[v].ty, at);
    if (st == PT::None || r_.chance(0.1)) {
      // Convert to a type the array takes: its own, or (for 32/64-bit arrays) the other
      // format's bits.
      Ty want;
      switch (at) {
      case PT::F32:
        want = r_.chance(0.85) ? Ty::F32 : Ty::I32;
        break;
      case PT::F64:
        want = r_.chance(0.85) ? Ty::F64 : Ty::I64;
        break;
      case PT::F16:
        want = Ty::F16;
        break;
      case PT::BF16:
        want = Ty::BF16;
        break;
      case PT::U64:
      case PT::S64:
        want = Ty::I64;
        break;
      case PT::U8:
      case PT::S8:
      case PT::U16:
      case PT::S16:
        want = r_.chance(0.5) ? Ty::I16 : Ty::I32;
        break;
      default:
        want = r_.chance(0.7) ? Ty::I32 : Ty::F32;
        break;
      }
      const int c = convert(v, want);
      v = c >= 0 ? c : constant(want, false);
      st = store_type(k_.nodes[v].ty, at);
    }
    assert(st != PT::None);
    k_.stores.push_back({a, v, st});
  }
}

Kernel Gen::run() {
  k_.block = r_.chance(0.75) ? 32 : 64;
  const PT in_types[] = {PT::F32, PT::F16, PT::BF16, PT::F64, PT::S32, PT::U32,
                         PT::S16, PT::U16, PT::U8,   PT::S8,  PT::U64, PT::S64};
  const double in_w[] = {5, 2, 1.5, 1.5, 3, 2, 1, 1, 1, 0.7, 1, 0.7};
  const int n_in = 1 + static_cast<int>(r_.below(3));
  for (int i = 0; i < n_in; ++i) {
    ArrayDecl a;
    a.name = fmt::format("a{}", i);
    a.type = in_types[r_.weighted(std::vector<double>(std::begin(in_w), std::end(in_w)))];
    a.len = k_.block;
    a.kind = ArrayKind::In;
    k_.inputs.push_back(a);
  }
  const PT out_types[] = {PT::F32, PT::S32, PT::U32, PT::F16, PT::BF16, PT::F64,
                          PT::U16, PT::S16, PT::U8,  PT::S8,  PT::U64,  PT::S64};
  const double out_w[] = {4, 3, 2, 1, 1, 1, 1, 0.5, 1, 0.5, 1, 0.5};
  const int n_out = r_.chance(0.35) ? 2 : 1;
  for (int i = 0; i < n_out; ++i) {
    ArrayDecl a;
    a.name = fmt::format("o{}", i);
    a.type = out_types[r_.weighted(std::vector<double>(std::begin(out_w), std::end(out_w)))];
    a.len = k_.block;
    a.kind = ArrayKind::Out;
    k_.outputs.push_back(a);
  }
  if (r_.chance(0.12)) {
    ArrayDecl a;
    a.name = "acc";
    const PT t[] = {PT::U32, PT::S32, PT::F32, PT::U64};
    a.type = t[r_.weighted({3, 2, 2, 1})];
    a.len = 4;
    a.kind = ArrayKind::Zero;
    k_.outputs.push_back(a);
  }
  const int ops = static_cast<int>(r_.range(o_.min_ops, o_.max_ops));
  int made = 0;
  for (int attempt = 0; made < ops && attempt < ops * 4; ++attempt) {
    if (step() >= 0)
      ++made;
  }
  if (k_.outputs.back().kind == ArrayKind::Zero && atoms_ == 0)
    atom();
  outputs();
  return k_;
}

} // namespace

Kernel generate_kernel(Rng& rng, const GenOptions& options) {
  Gen g(rng, options);
  Kernel k = g.run();
  assert(validate(k).empty());
  return k;
}

} // namespace volta::pair_fuzz
