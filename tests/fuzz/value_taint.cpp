#include "value_taint.hpp"

#include <array>

#include "ptx_writer.hpp"

namespace volta::pair_fuzz {

namespace {

bool rounds(const Node& n) {
  switch (n.op) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Fma:
  case Op::Div:
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
    return is_float(n.ty);
  case Op::Min:
  case Op::Max:
  case Op::Abs:
  case Op::Neg:
    return is_float(n.ty) && n.ftz;
  case Op::Cvt:
    // Integer to float, narrowing, or a flush.
    return pt_float(n.t1) && (pt_int(n.t2) || pt_bits(n.t1) < pt_bits(n.t2) || n.ftz ||
                              (pt_bits(n.t1) == 16 && n.t1 != n.t2));
  case Op::Atom:
    return is_float(n.ty);
  default:
    return false;
  }
}

// A real-number observer: its value jumps where its float operand crosses a threshold, and the
// contract idealizes the rounding of that operand (docs/semantics.md). A float comparison only:
// a rounding to an integer (cvt.rni.s32.f32, cvt.rmi.f32.f32) observes its operand bit by bit,
// so two kernels the engine calls EQUIVALENT store the same integers there.
bool observes_reals(const Kernel& k, const Node& n) {
  (void)k;
  return n.op == Op::Setp && pt_float(n.t1);
}

} // namespace

Taint analyze(const Kernel& k) {
  const size_t n = k.nodes.size();
  Taint t;
  t.inexact.assign(n, false);
  t.rounding_observed.assign(n, false);
  t.schedule.assign(n, false);
  const auto users = users_of(k);
  for (int i : topological_order(k)) {
    const Node& x = k.nodes[i];
    bool ix = rounds(x), ro = false, sc = x.op == Op::Atom && !users[i].empty();
    for (int a : x.args) {
      ix = ix || t.inexact[a];
      ro = ro || t.rounding_observed[a];
      sc = sc || t.schedule[a];
    }
    if (observes_reals(k, x)) {
      for (int a : x.args)
        ro = ro || t.inexact[a];
    }
    t.inexact[i] = ix;
    t.rounding_observed[i] = ro;
    t.schedule[i] = sc;
  }
  t.output_rounding_observed.assign(k.outputs.size(), false);
  t.output_schedule.assign(k.outputs.size(), false);
  t.output_float_atomic.assign(k.outputs.size(), false);
  for (const auto& s : k.stores) {
    t.output_rounding_observed[s.array] =
        t.output_rounding_observed[s.array] || t.rounding_observed[s.value];
    t.output_schedule[s.array] = t.output_schedule[s.array] || t.schedule[s.value];
  }
  for (size_t i = 0; i < n; ++i) {
    const Node& x = k.nodes[i];
    if (x.op != Op::Atom)
      continue;
    const int v = x.args[0];
    t.output_rounding_observed[x.array] =
        t.output_rounding_observed[x.array] || t.rounding_observed[v];
    t.output_schedule[x.array] = t.output_schedule[x.array] || t.schedule[v];
    t.output_float_atomic[x.array] = t.output_float_atomic[x.array] || pt_float(x.t1);
    // The value an exchange leaves is the last exchanger's: schedule-dependent.
    t.output_schedule[x.array] = t.output_schedule[x.array] || x.aop == AtomOp::Exch;
  }
  return t;
}

namespace {

// The halves of a packed operand that node `x` uses, given the halves of `x` that are live
// (bit 0 low, bit 1 high; kBoth for anything that is not a pair of halves). A packing
// instruction uses each operand for one half only, an unpacking one one half of its operand,
// and an elementwise operation on a pair each operand's half for its own half; anything else
// (a reinterpretation as bits, a store, a conversion) uses the whole register.
constexpr uint8_t kBoth = 3;

uint8_t operand_halves(const Kernel& k, const Node& x, size_t j, uint8_t live) {
  const Node& a = k.nodes[x.args[j]];
  if (x.op == Op::Unpack)
    return static_cast<uint8_t>(1u << x.bits);
  if (!is_packed(x.ty))
    return kBoth;
  if (x.op == Op::Pack) // mov.b32 d, {lo, hi}: args {lo, hi}
    return (live >> j) & 1 ? kBoth : 0;
  if (x.op == Op::Cvt && x.args.size() == 2) // cvt.rn.f16x2.f32 d, hi, lo: args {hi, lo}
    return (live >> (1 - j)) & 1 ? kBoth : 0;
  if (x.op == Op::Select && j == 0)
    return kBoth;
  return is_packed(a.ty) ? live : kBoth;
}

} // namespace

namespace {

// Whether a node's value is the same on every input and thread: no load, thread index or atomic
// below it. The engine folds such a value to a constant.
bool input_independent(const Kernel& k, int id, std::vector<int8_t>& memo) {
  if (memo[id] >= 0)
    return memo[id] != 0;
  const Node& x = k.nodes[id];
  bool independent = x.op != Op::Load && x.op != Op::Tid && x.op != Op::Atom;
  for (size_t j = 0; independent && j < x.args.size(); ++j)
    independent = input_independent(k, x.args[j], memo);
  memo[id] = independent ? 1 : 0;
  return independent;
}

// An integer product with a factor that is the same on every input may have a constant zero
// factor (`mov 0`, or `cvt.rmi.u32` of a negative constant: 17:7635), whose product the engine
// folds to 0 whatever the other factor is; the device drops that factor's value too, so its
// domain (an integer division by zero below it) is not the kernel's. The oracle does not
// evaluate constants, so it gives up the check below any such factor. Not for floats: 0 * inf
// is NaN.
bool multiplied_by_constant(const Kernel& k, const Node& x, size_t j, std::vector<int8_t>& memo) {
  if (!is_int(x.ty) || (x.op != Op::Mul && x.op != Op::Mad) || j > 1 || x.args.size() < 2)
    return false;
  return input_independent(k, x.args[1 - j], memo);
}

} // namespace

std::vector<HalfKinds> instrument_kinds(const Kernel& k, bool* unchecked) {
  const size_t n = k.nodes.size();
  // Per node and half: 0 unvisited, 1 conditional only, 2 unconditional. A node that is not a
  // pair of halves keeps its state in both.
  std::vector<std::array<uint8_t, 2>> live(n, {0, 0});
  std::vector<int8_t> independent(n, -1); // input_independent's memo
  struct Item {
    int node;
    bool cond;      // reached only through a select arm
    uint8_t halves; // the halves reached (kBoth for a scalar)
  };
  std::vector<Item> work;
  for (const auto& s : k.stores)
    work.push_back({s.value, false, kBoth});
  for (size_t i = 0; i < n; ++i) {
    const Node& x = k.nodes[i];
    if (x.op == Op::Atom)
      work.push_back({static_cast<int>(i), false, kBoth});
    // A branch is control flow: its condition is decided whether or not its value is used
    // (a partial operation below it may be a domain condition of the kernel, see above).
    if (x.op == Op::Select && x.style != SelStyle::Selp)
      work.push_back({x.args[0], true, kBoth});
  }
  while (!work.empty()) {
    const Item item = work.back();
    work.pop_back();
    const uint8_t want = item.cond ? 1 : 2;
    const int v = item.node;
    uint8_t grown = 0;
    for (int h = 0; h < 2; ++h) {
      if ((item.halves >> h) & 1 && live[v][h] < want) {
        live[v][h] = want;
        grown |= static_cast<uint8_t>(1u << h);
      }
    }
    if (grown == 0)
      continue;
    const Node& x = k.nodes[v];
    for (size_t j = 0; j < x.args.size(); ++j) {
      const int a = x.args[j];
      const uint8_t halves = operand_halves(k, x, j, grown);
      if (halves == 0)
        continue;
      if (multiplied_by_constant(k, x, j, independent)) {
        if (unchecked != nullptr)
          *unchecked = true;
        continue;
      }
      bool c = item.cond;
      // A select's condition matters only where its arms differ (select(c, x, x) is x, and a
      // branch whose sides compute the same is merged into one): what reaches a condition is
      // conditional too.
      if (x.op == Op::Select && j == 0)
        c = true;
      if (x.op == Op::Select && j > 0) {
        // A branch arm's own nodes run only when the arm is taken: their domain conditions
        // are real conditions there. Anything else below an arm is computed on every path.
        // (A predicated select computes its else arm unconditionally.)
        const bool own_arm =
            k.nodes[a].region == v &&
            (x.style == SelStyle::Branch || (x.style == SelStyle::Predicated && j == 1));
        c = !own_arm || item.cond;
      }
      if (x.region >= 0 && k.nodes[a].region != x.region)
        c = true; // an arm node's operand computed outside the arm
      // A shuffle hands on the values of the lanes it reads, not every lane's (shfl.idx of lane
      // 0 drops lane 9's 0/0, 18:44309); the per-thread check does not follow lanes, so what
      // reaches an output through a shuffle is checked as conditional.
      if (is_collective(x.op))
        c = true;
      work.push_back({a, c, halves});
    }
  }
  std::vector<HalfKinds> kinds(n, HalfKinds{0, 0});
  for (size_t i = 0; i < n; ++i) {
    const Node& x = k.nodes[i];
    const bool int_division = is_int(x.ty) && (x.op == Op::Div || x.op == Op::Rem);
    // cvt.rpi.ftz.u32.f32 flushes a subnormal source: checked like a float operation's flush.
    const bool flushing_to_int = x.op == Op::Cvt && x.ftz && is_int(x.ty) && x.t2 == PT::F32;
    if ((!is_float(x.ty) && !int_division && !flushing_to_int) || x.op == Op::Select)
      continue;
    for (int h = 0; h < 2; ++h) {
      if (live[i][h] != 0)
        kinds[i][h] = live[i][h] == 2 ? kUndefined : kCondUndefined;
    }
  }
  return kinds;
}

uint32_t any_half(const HalfKinds& kinds) {
  // kUndefined (unconditional) over kCondUndefined.
  if (kinds[0] == kUndefined || kinds[1] == kUndefined)
    return kUndefined;
  return kinds[0] | kinds[1];
}

std::vector<bool> observable_nodes(const Kernel& k) {
  std::vector<bool> seen(k.nodes.size(), false);
  std::vector<int> work;
  for (const auto& s : k.stores)
    work.push_back(s.value);
  for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
    const Node& x = k.nodes[i];
    if (x.op == Op::Atom)
      work.push_back(i);
    if (x.op == Op::Select && x.style != SelStyle::Selp)
      work.push_back(x.args[0]);
  }
  while (!work.empty()) {
    const int v = work.back();
    work.pop_back();
    if (seen[v])
      continue;
    seen[v] = true;
    for (int a : k.nodes[v].args)
      work.push_back(a);
  }
  return seen;
}

bool racy_by_construction(const Kernel& k) {
  // A full-warp shuffle executed before a load synchronizes the warp (a collective is a sync of
  // its member lanes): a read of another lane's staged element of the same warp is then ordered
  // after its write. Nothing orders two warps but the barrier, and nothing completes a cp.async
  // but its wait.
  const auto order = topological_order(k);
  bool warp_synced = false;
  for (int i : order) {
    const Node& x = k.nodes[i];
    if (is_collective(x.op))
      warp_synced = true;
    if (x.op != Op::Load || x.via == Via::Global)
      continue;
    if (x.via == Via::CpAsync && k.drop_wait)
      return true;
    if (!k.drop_barrier)
      continue;
    for (uint32_t t = 0; t < k.block; ++t) {
      const uint32_t j = apply_steps(x.index, t);
      if (j != t && (!warp_synced || j / 32 != t / 32))
        return true;
    }
  }
  return false;
}

} // namespace volta::pair_fuzz
