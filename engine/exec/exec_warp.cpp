// Warp collectives of the CTA runner: shfl.sync, vote.sync, redux.sync, match.sync, ldmatrix,
// wmma and mma.sync.
//
// Fragment layouts. mma.sync uses the layouts the PTX ISA documents for sm_80 (groupID =
// lane >> 2, threadID_in_group = lane % 4). The PTX ISA leaves the wmma fragment layout
// unspecified; the engine uses the one sm_80 implements wmma.m16n16k16 with: the m16n8k16
// layout for A (registers 0-3, repeated in 4-7), the m16n8k16 B layout for columns 0-7
// (registers 0-1) and 8-15 (registers 2-3, repeated in 4-7), and the m16n8k16 accumulator layout
// for columns 0-7 (registers 0-3) and 8-15 (registers 4-7). Loading, multiplying and storing
// fragments is independent of that choice; a kernel that changed one copy of a repeated element
// is refused rather than verified.
#include <bit>
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"
#include "engine/exec/warp_reduction.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

namespace {

struct Coord {
  uint32_t row;
  uint32_t col;
};

// m16n8k16 (f16/bf16) A fragment: element e (0..7) of lane l.
Coord mma_a_16816(uint32_t l, uint32_t e) {
  const uint32_t g = l >> 2, t = l & 3;
  const uint32_t row = (e < 2 || (e >= 4 && e < 6)) ? g : g + 8;
  const uint32_t col = t * 2 + (e & 1) + (e >= 4 ? 8 : 0);
  return {row, col};
}

// m16n8k16 B fragment (k x n): element e (0..3).
Coord mma_b_16816(uint32_t l, uint32_t e) {
  const uint32_t g = l >> 2, t = l & 3;
  return {t * 2 + (e & 1) + (e >= 2 ? 8 : 0), g};
}

// m16n8 accumulator: element e (0..3).
Coord mma_c_16n8(uint32_t l, uint32_t e) {
  const uint32_t g = l >> 2, t = l & 3;
  return {e < 2 ? g : g + 8, t * 2 + (e & 1)};
}

// m16n8k8 f16 A: element e (0..3); B: element e (0..1).
Coord mma_a_1688(uint32_t l, uint32_t e) {
  const uint32_t g = l >> 2, t = l & 3;
  return {e < 2 ? g : g + 8, t * 2 + (e & 1)};
}
Coord mma_b_1688(uint32_t l, uint32_t e) {
  const uint32_t g = l >> 2, t = l & 3;
  return {t * 2 + e, g};
}

// m16n8k8 tf32 A: element e (0..3); B: element e (0..1).
Coord mma_a_1688_tf32(uint32_t l, uint32_t e) {
  const uint32_t g = l >> 2, t = l & 3;
  return {(e & 1) ? g + 8 : g, e < 2 ? t : t + 4};
}
Coord mma_b_1688_tf32(uint32_t l, uint32_t e) {
  const uint32_t g = l >> 2, t = l & 3;
  return {e == 0 ? t : t + 4, g};
}

// wmma m16n16k16 fragments: (register, half) -> element of the 16x16 matrix.
Coord wmma_a(uint32_t l, uint32_t reg, uint32_t half) {
  const uint32_t r = reg & 3;
  return mma_a_16816(l, r * 2 + half);
}
Coord wmma_b(uint32_t l, uint32_t reg, uint32_t half) {
  const uint32_t r = reg & 3; // 0-1: columns 0-7, 2-3: columns 8-15
  Coord c = mma_b_16816(l, (r & 1) * 2 + half);
  if (r >= 2)
    c.col += 8;
  return c;
}
Coord wmma_c(uint32_t l, uint32_t reg) {
  Coord c = mma_c_16n8(l, reg & 3);
  if (reg >= 4)
    c.col += 8;
  return c;
}

} // namespace

void CtaRunner::exec_shfl(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  Value src[32];
  uint32_t b[32], c[32];
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    src[l] = read(in.srcs[0], base + l);
    auto bv = concrete_operand(in.srcs[1], base + l, "a shuffle lane");
    auto cv = concrete_operand(in.srcs[2], base + l, "a shuffle clamp");
    if (!bv || !cv)
      return;
    b[l] = static_cast<uint32_t>(*bv);
    c[l] = static_cast<uint32_t>(*cv);
  }
  const auto mode = static_cast<ShflMode>(in.sub);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    const uint32_t t = base + l;
    const uint32_t bval = b[l] & 31, cval = c[l] & 31, seg = (c[l] >> 8) & 31;
    const uint32_t max_lane = (l & seg) | (cval & ~seg);
    const uint32_t min_lane = l & seg;
    int32_t j = 0;
    bool pval = false;
    switch (mode) {
    case ShflMode::Up:
      j = static_cast<int32_t>(l) - static_cast<int32_t>(bval);
      pval = j >= static_cast<int32_t>(max_lane);
      break;
    case ShflMode::Down:
      j = static_cast<int32_t>(l + bval);
      pval = j <= static_cast<int32_t>(max_lane);
      break;
    case ShflMode::Bfly:
      j = static_cast<int32_t>(l ^ bval);
      pval = j <= static_cast<int32_t>(max_lane);
      break;
    case ShflMode::Idx:
      j = static_cast<int32_t>(min_lane | (bval & ~seg));
      pval = j <= static_cast<int32_t>(max_lane);
      break;
    }
    if (!pval)
      j = static_cast<int32_t>(l);
    Value v;
    if (j < 0 || j > 31 || !((mask >> j) & 1u)) {
      v = Value{0, ctx_.undef}; // reading an inactive lane gives an undefined value
    } else {
      v = src[j];
    }
    set_dst(in.dsts[0], t, v);
    if (in.dsts.size() > 1)
      set_dst(in.dsts[1], t, Value{pval ? 1u : 0u, 0});
  }
}

void CtaRunner::exec_vote(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const auto mode = static_cast<VoteMode>(in.sub);
  // The member lanes' predicates: concrete ones gathered as a ballot, data-dependent ones kept
  // as predicate nodes by lane (a vote on data: the ballot a sum of selects of disjoint bits,
  // exact as an integer; any, all and uni a disjunction or conjunction of the predicates).
  uint32_t ballot = 0;
  std::vector<std::pair<uint32_t, ExprId>> data; // (lane, predicate node, negation applied)
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    const Value p = read(in.srcs[0], base + l);
    if (failed_)
      return;
    if (p.symbolic()) {
      if (p.node == ctx_.undef) { // a predicate no thread defined: so is the vote
        for (uint32_t n = mask; n != 0; n &= n - 1)
          set_dst(in.dsts[0], base + std::countr_zero(n), Value{0, ctx_.undef});
        return;
      }
      data.emplace_back(l, in.srcs[0].negated ? b_.bool_not(p.node) : p.node);
      continue;
    }
    if (((p.bits & 1u) != 0) != in.srcs[0].negated)
      ballot |= 1u << l;
  }
  Value result;
  if (data.empty()) {
    uint64_t r = 0;
    switch (mode) {
    case VoteMode::All:
      r = (ballot & mask) == mask;
      break;
    case VoteMode::Any:
      r = (ballot & mask) != 0;
      break;
    case VoteMode::Uni:
      r = (ballot & mask) == mask || (ballot & mask) == 0;
      break;
    case VoteMode::Ballot:
      r = ballot & mask;
      break;
    }
    result = Value{r, 0};
  } else if (mode == VoteMode::Ballot) {
    ExprId sum = b_.int_const(ballot, 2);
    for (const auto& [lane, p] : data)
      sum = b_.iadd(sum, b_.select(p, b_.int_const(uint64_t{1} << lane, 2), b_.int_const(0, 2)), 2);
    result = integer_result(sum);
  } else {
    // any: a concrete true decides it; all: a concrete false (a member lane outside `ballot`).
    const uint32_t concrete_lanes = [&] {
      uint32_t c = mask;
      for (const auto& [lane, p] : data)
        c &= ~(1u << lane);
      return c;
    }();
    const bool some_true = (ballot & concrete_lanes) != 0;
    const bool some_false = (ballot & concrete_lanes) != concrete_lanes;
    ExprId any = data.front().second, all = data.front().second;
    for (size_t i = 1; i < data.size(); ++i) {
      any = b_.boolean(symbolic::Op::Or, any, data[i].second);
      all = b_.boolean(symbolic::Op::And, all, data[i].second);
    }
    const ExprId one = ctx_.store.constant(1L), zero = ctx_.store.constant(0L);
    if (some_true)
      any = one;
    if (some_false)
      all = zero;
    switch (mode) {
    case VoteMode::Any:
      result = Value{0, any};
      break;
    case VoteMode::All:
      result = Value{0, all};
      break;
    case VoteMode::Uni:
      result = Value{0, b_.boolean(symbolic::Op::Or, all, b_.bool_not(any))};
      break;
    case VoteMode::Ballot:
      break; // above
    }
    // A predicate folded to a constant is concrete again (a branch on it stays concrete).
    if (ctx_.store.op(result.node) == symbolic::Op::Const)
      result = Value{ctx_.store.rational(result.node) != 0 ? 1u : 0u, 0};
  }
  for (uint32_t m = mask; m != 0; m &= m - 1)
    set_dst(in.dsts[0], base + std::countr_zero(m), result);
}

// The member lanes' first source operands, for redux and match: false (and every destination
// undefined) where one is a value no thread defined, or when reading failed.
bool CtaRunner::member_operands(const Inst& in, uint32_t w, uint32_t mask,
                                std::array<Value, 32>& values) {
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    values[l] = read(in.srcs[0], base + l);
    if (failed_)
      return false;
    if (values[l].node == ctx_.undef) {
      for (uint32_t n = mask; n != 0; n &= n - 1) {
        for (const Operand& d : in.dsts)
          set_dst(d, base + std::countr_zero(n), Value{0, ctx_.undef});
      }
      return false;
    }
  }
  return true;
}

// redux.sync: concrete operands reduce as warp_reduction.hpp says; data-dependent ones become the
// same operation as nodes (add: a sum modulo 2^32; min, max, and, or, xor: integer operations of
// the instruction's type).
void CtaRunner::exec_redux(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const auto op = static_cast<AtomOp>(in.sub);
  const bool is_signed = in.type == ValType::S32;
  std::array<Value, 32> values{};
  if (!member_operands(in, w, mask, values))
    return;
  std::array<uint32_t, 32> bits{};
  bool symbolic = false;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    symbolic |= values[l].symbolic();
    bits[l] = static_cast<uint32_t>(values[l].bits);
  }
  Value result;
  if (!symbolic) {
    result = Value{redux_value(op, is_signed, mask, bits), 0};
  } else {
    const symbolic::IntType type{2, is_signed};
    const symbolic::BitOpKind bit_op = op == AtomOp::Min   ? symbolic::BitOpKind::Min
                                       : op == AtomOp::Max ? symbolic::BitOpKind::Max
                                       : op == AtomOp::And ? symbolic::BitOpKind::And
                                       : op == AtomOp::Or  ? symbolic::BitOpKind::Or
                                                           : symbolic::BitOpKind::Xor;
    VOLTA_ASSERT(op == AtomOp::Add || op == AtomOp::Min || op == AtomOp::Max || op == AtomOp::And ||
                     op == AtomOp::Or || op == AtomOp::Xor,
                 "lower.cpp gives redux only add, min, max, and, or, xor");
    ExprId acc = symbolic::kNoExpr;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const ExprId v = int_view(values[std::countr_zero(m)], in.type);
      if (acc == symbolic::kNoExpr) {
        acc = v;
        continue;
      }
      acc = op == AtomOp::Add ? b_.iadd(acc, v, 2) : b_.intop(bit_op, type, acc, v);
    }
    result = integer_result(acc);
  }
  for (uint32_t m = mask; m != 0; m &= m - 1)
    set_dst(in.dsts[0], base + std::countr_zero(m), result);
}

// match.sync: concrete operands as warp_reduction.hpp says; data-dependent ones as nodes:
// match.any gives lane l its own bit plus select(a_j == a_l, 2^j, 0) for every other member j,
// match.all the member mask where every member's operand equals the first's, else 0 (and that
// condition as its predicate).
void CtaRunner::exec_match(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  std::array<Value, 32> values{};
  if (!member_operands(in, w, mask, values))
    return;
  std::array<uint64_t, 32> bits{};
  bool symbolic = false;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    symbolic |= values[l].symbolic();
    bits[l] = values[l].bits & symbolic::width_mask(width_of(in.type));
  }
  const bool all_kind = in.sub == 1;
  if (!symbolic) {
    const bool all = all_kind && match_all(mask, bits);
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t l = std::countr_zero(m);
      set_dst(in.dsts[0], base + l,
              Value{all_kind ? (all ? mask : 0u) : match_any_mask(mask, bits, l), 0});
      if (all_kind && in.dsts.size() > 1)
        set_dst(in.dsts[1], base + l, Value{all ? 1u : 0u, 0});
    }
    return;
  }
  const symbolic::IntType type = symbolic::IntType::of_width(width_of(in.type));
  const uint8_t wc = 2; // the destination is a .b32 mask
  std::array<ExprId, 32> ints{};
  for (uint32_t m = mask; m != 0; m &= m - 1)
    ints[std::countr_zero(m)] = int_view(values[std::countr_zero(m)], in.type);
  const auto equal = [&](uint32_t i, uint32_t j) {
    return b_.icmp(symbolic::CmpKind::Eq, type, ints[i], ints[j]);
  };
  if (!all_kind) {
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t l = std::countr_zero(m);
      ExprId sum = b_.int_const(uint64_t{1} << l, wc);
      for (uint32_t n = mask; n != 0; n &= n - 1) {
        const uint32_t j = std::countr_zero(n);
        if (j != l)
          sum = b_.iadd(
              sum, b_.select(equal(j, l), b_.int_const(uint64_t{1} << j, wc), b_.int_const(0, wc)),
              wc);
      }
      set_dst(in.dsts[0], base + l, integer_result(sum));
    }
    return;
  }
  const uint32_t first = std::countr_zero(mask);
  ExprId cond = ctx_.store.constant(1L);
  bool any_term = false;
  for (uint32_t n = mask & (mask - 1); n != 0; n &= n - 1) {
    const ExprId e = equal(std::countr_zero(n), first);
    if (ctx_.store.op(e) == symbolic::Op::Const) {
      if (ctx_.store.rational(e) == 0) {
        cond = ctx_.store.constant(0L);
        any_term = false;
        break;
      }
      continue;
    }
    cond = any_term ? b_.boolean(symbolic::Op::And, cond, e) : e;
    any_term = true;
  }
  const Value d = integer_result(b_.select(cond, b_.int_const(mask, wc), b_.int_const(0, wc)));
  const Value p = ctx_.store.op(cond) == symbolic::Op::Const
                      ? Value{ctx_.store.rational(cond) != 0 ? 1u : 0u, 0}
                      : Value{0, cond};
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    set_dst(in.dsts[0], base + std::countr_zero(m), d);
    if (in.dsts.size() > 1)
      set_dst(in.dsts[1], base + std::countr_zero(m), p);
  }
}

void CtaRunner::exec_elect(const Inst& in, uint32_t w, uint32_t mask) {
  // elect.sync d|p, membermask: every member lane arrived (the gathered lanes `mask`); the
  // leader is the lowest of them (docs/semantics.md: the PTX ISA promises a deterministic
  // choice for a mask, the hardware elects the lowest active member lane). d is its lane id in
  // every member, p is true in the leader only.
  const uint32_t base = w * 32;
  const uint32_t leader = static_cast<uint32_t>(std::countr_zero(mask));
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
    set_dst(in.dsts[0], base + l, Value{leader, 0});
    set_dst(in.dsts[1], base + l, Value{l == leader ? 1u : 0u, 0});
  }
}

bool CtaRunner::exec_setmaxnreg(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  // No value changes; the form is checked: every lane of the warp (none exited) executes this
  // one instruction, and the warps of its warpgroup the same sequence of them
  // (warpgroup_alignment.hpp). Whether the count fits the compiler's allocation is ptxas's.
  const uint32_t base = w * 32;
  if (mask != existing_lanes(w)) {
    const uint32_t t = base + std::countr_zero(existing_lanes(w) & ~mask);
    fail(Verdict::BarrierDivergence, "invalid warpgroup synchronization",
         fmt::format("'{}' (PTX line {}) is .sync.aligned: every thread of the warpgroup executes "
                     "it, but thread {} of warp {} does not (it exited or is elsewhere)",
                     in.text, in.line, t, w),
         base + std::countr_zero(mask));
    return false;
  }
  if (auto problem = warpgroups_.executed(w, pc, in.line)) {
    fail(Verdict::BarrierDivergence, "invalid warpgroup synchronization", *problem, base);
    return false;
  }
  return true;
}

bool CtaRunner::matrix_rows(const Inst& in, uint32_t w, uint32_t mask, std::string_view name,
                            uint64_t (&rows)[32]) {
  const uint32_t base = w * 32;
  if (mask != kAll) {
    fail_unsupported(in, base + std::countr_zero(mask),
                     fmt::format("{} needs all 32 lanes of the warp", name));
    return false;
  }
  // Row addresses: lane 8*i + r gives row r of matrix i.
  for (uint32_t l = 0; l < 8u * in.sub; ++l) {
    auto a = address_of(in.mem[0], base + l);
    if (!a)
      return false;
    rows[l] = *a;
  }
  return true;
}

void CtaRunner::exec_ldmatrix(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t count = in.sub;
  uint64_t rows[32];
  if (!matrix_rows(in, w, mask, "ldmatrix", rows))
    return;
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = base + l;
    for (uint32_t i = 0; i < count; ++i) {
      Value halves[2];
      for (uint32_t h = 0; h < 2; ++h) {
        uint32_t row, col;
        if (!in.trans) {
          row = l >> 2;
          col = (l & 3) * 2 + h;
        } else {
          row = (l & 3) * 2 + h;
          col = l >> 2;
        }
        ByteCell* cells = access(in.space, rows[8 * i + row] + 2 * col, 2, 2, t, AccessKind::Read);
        if (!cells)
          return;
        halves[h] = load(cells, 2);
        tag_loaded(halves[h], cells, 2); // the format its store left (exec_formats.cpp)
      }
      // A pair of halves, each keeping its format (exec_formats.cpp).
      const Value v = halves[0].node == ctx_.undef || halves[1].node == ctx_.undef
                          ? Value{0, ctx_.undef}
                          : pack_parts(halves, 16);
      set_dst(in.dsts[i], t, v);
    }
  }
}

void CtaRunner::exec_wmma_load(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  if (static_cast<MmaShape>(in.shape) != MmaShape::M16N16K16) {
    fail_unsupported(in, base + std::countr_zero(mask), "uses a wmma shape other than m16n16k16");
    return;
  }
  const auto part = static_cast<WmmaPart>(in.sub);
  const bool is_acc = part == WmmaPart::C;
  const uint32_t elem = is_acc ? (in.type == ValType::F16 ? 2 : 4) : 2;
  if (!is_acc && in.type != ValType::F16 && in.type != ValType::BF16) {
    fail_unsupported(in, base + std::countr_zero(mask),
                     "loads a wmma fragment of a type other than f16/bf16");
    return;
  }
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    const uint32_t t = base + l;
    auto a = address_of(in.mem[0], t);
    if (!a)
      return;
    uint64_t stride = 16;
    if (!in.srcs.empty()) {
      auto s = concrete_operand(in.srcs[0], t, "a wmma stride");
      if (!s)
        return;
      stride = *s;
    }
    auto element = [&](Coord c) -> std::optional<Value> {
      const uint64_t index =
          in.layout == 1 ? uint64_t{c.col} * stride + c.row : uint64_t{c.row} * stride + c.col;
      ByteCell* cells = access(in.space, *a + index * elem, elem, elem, t, AccessKind::Read);
      if (!cells)
        return std::nullopt;
      Value v = load(cells, elem);
      tag_loaded(v, cells, elem); // the format its store left (exec_formats.cpp)
      return v;
    };
    if (is_acc) {
      if (elem != 4) {
        fail_unsupported(in, t,
                         "loads an f16 wmma accumulator (only f32 accumulators are modeled)");
        return;
      }
      for (uint32_t reg = 0; reg < 8 && reg < in.dsts.size(); ++reg) {
        auto v = element(wmma_c(l, reg));
        if (!v)
          return;
        v->fl = true;
        set_dst(in.dsts[reg], t, *v);
      }
      continue;
    }
    for (uint32_t reg = 0; reg < 8 && reg < in.dsts.size(); ++reg) {
      Value halves[2];
      for (uint32_t h = 0; h < 2; ++h) {
        const Coord c = part == WmmaPart::A ? wmma_a(l, reg, h) : wmma_b(l, reg, h);
        auto v = element(c);
        if (!v)
          return;
        halves[h] = *v;
      }
      // A pair of halves, each keeping its format (exec_formats.cpp).
      const Value v = halves[0].node == ctx_.undef || halves[1].node == ctx_.undef
                          ? Value{0, ctx_.undef}
                          : pack_parts(halves, 16);
      set_dst(in.dsts[reg], t, v);
    }
  }
}

void CtaRunner::exec_wmma_store(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  if (static_cast<MmaShape>(in.shape) != MmaShape::M16N16K16 || in.type != ValType::F32) {
    fail_unsupported(in, base + std::countr_zero(mask),
                     "stores a wmma fragment other than an m16n16k16 f32 accumulator");
    return;
  }
  const uint32_t nregs = in.groups[0];
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    const uint32_t t = base + l;
    auto a = address_of(in.mem[0], t);
    if (!a)
      return;
    uint64_t stride = 16;
    if (in.srcs.size() > nregs) {
      auto s = concrete_operand(in.srcs[nregs], t, "a wmma stride");
      if (!s)
        return;
      stride = *s;
    }
    for (uint32_t reg = 0; reg < 8 && reg < nregs; ++reg) {
      const Coord c = wmma_c(l, reg);
      const uint64_t index =
          in.layout == 1 ? uint64_t{c.col} * stride + c.row : uint64_t{c.row} * stride + c.col;
      const Value v = read(in.srcs[reg], t);
      const bool global = in.space == Space::Global;
      ByteCell* cells = access(in.space, *a + index * 4, 4, 4, t, AccessKind::Write, global);
      if (!cells)
        return;
      store_value(cells, v, 4);
      for (uint32_t k = 0; k < 4; ++k)
        cells[k].stored_as = kStoredFloat;
    }
  }
}

void CtaRunner::exec_wmma_mma(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  if (static_cast<MmaShape>(in.shape) != MmaShape::M16N16K16 || mask != kAll) {
    fail_unsupported(in, base + std::countr_zero(mask),
                     "uses a wmma.mma form other than m16n16k16 on a full warp");
    return;
  }
  const uint32_t na = in.groups[0], nb = in.groups[1], nc = in.groups[2];
  if (na != 8 || nb != 8 || nc != 8 || in.dsts.size() != 8) {
    fail_unsupported(in, base, "has fragment sizes other than 8 registers");
    return;
  }
  // Rebuild A (16x16), B (16x16) and C (16x16) from the fragments of the 32 lanes.
  ExprId A[16][16] = {}, B[16][16] = {}, C[16][16] = {};
  // wmma.mma...dtype.ctype reads f16 A and B; wmma.mma...f32.bf16.bf16.f32 reads bf16.
  const ValType ab = in.type2 == ValType::BF16 ? ValType::BF16 : ValType::F16;
  auto put = [&](ExprId(&M)[16][16], Coord c, ExprId v, uint32_t t) {
    ExprId& slot = M[c.row][c.col];
    if (slot == 0) {
      slot = v;
      return true;
    }
    if (slot != v) {
      fail_unsupported(
          in, t,
          "receives wmma fragments whose repeated elements differ (element-wise fragment "
          "updates are not supported)");
      return false;
    }
    return true;
  };
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = base + l;
    for (uint32_t reg = 0; reg < 8; ++reg) {
      const Value va = read(in.srcs[reg], t);
      const Value vb = read(in.srcs[8 + reg], t);
      for (uint32_t h = 0; h < 2; ++h) {
        if (!put(A, wmma_a(l, reg, h), packed_half(va, h, ab), t))
          return;
        if (!put(B, wmma_b(l, reg, h), packed_half(vb, h, ab), t))
          return;
      }
      if (!put(C, wmma_c(l, reg), real_of(read(in.srcs[16 + reg], t), ValType::F32), t))
        return;
    }
  }
  const bool a_col = in.layout & 1, b_col = in.layout & 2;
  (void)a_col;
  (void)b_col; // the layouts only matter for loads and stores
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = base + l;
    for (uint32_t reg = 0; reg < 8; ++reg) {
      const Coord c = wmma_c(l, reg);
      ExprId acc = C[c.row][c.col];
      bool undef = acc == ctx_.undef;
      for (uint32_t k = 0; k < 16 && !undef; ++k) {
        undef = A[c.row][k] == ctx_.undef || B[k][c.col] == ctx_.undef;
        acc = b_.fma(A[c.row][k], B[k][c.col], acc);
      }
      set_dst(in.dsts[reg], t, Value{0, undef ? ctx_.undef : acc, true});
    }
  }
}

void CtaRunner::exec_mma(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const auto shape = static_cast<MmaShape>(in.shape);
  if (mask != kAll) {
    fail_unsupported(in, base + std::countr_zero(mask), "mma.sync needs all 32 lanes of the warp");
    return;
  }
  const ValType ab = in.type2;
  const bool tf32 = ab == ValType::TF32;
  const bool half_ab = ab == ValType::F16 || ab == ValType::BF16;
  uint32_t K = 0;
  if (shape == MmaShape::M16N8K16 && half_ab) {
    K = 16;
  } else if (shape == MmaShape::M16N8K8 && (half_ab || tf32)) {
    K = 8;
  } else {
    fail_unsupported(in, base,
                     "uses an mma.sync shape/type the engine does not model (m16n8k16 and m16n8k8 "
                     "with f16/bf16/tf32 are)");
    return;
  }
  const bool d_half = in.type == ValType::F16;
  ExprId A[16][16] = {}, B[16][8] = {}, C[16][8] = {};
  const uint32_t na = in.groups[0], nb = in.groups[1];
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = base + l;
    if (tf32) {
      for (uint32_t e = 0; e < 4 && e < na; ++e) {
        const Coord c = mma_a_1688_tf32(l, e);
        A[c.row][c.col] = real_of(read(in.srcs[e], t), ValType::F32);
      }
      for (uint32_t e = 0; e < 2 && e < nb; ++e) {
        const Coord c = mma_b_1688_tf32(l, e);
        B[c.row][c.col] = real_of(read(in.srcs[na + e], t), ValType::F32);
      }
    } else {
      const uint32_t a_elems = K == 16 ? 8 : 4, b_elems = K == 16 ? 4 : 2;
      for (uint32_t e = 0; e < a_elems; ++e) {
        const Coord c = K == 16 ? mma_a_16816(l, e) : mma_a_1688(l, e);
        A[c.row][c.col] = packed_half(read(in.srcs[e / 2], t), e & 1, ab);
      }
      for (uint32_t e = 0; e < b_elems; ++e) {
        const Coord c = K == 16 ? mma_b_16816(l, e) : mma_b_1688(l, e);
        B[c.row][c.col] = packed_half(read(in.srcs[na + e / 2], t), e & 1, ab);
      }
    }
    const uint32_t c_base = na + nb;
    for (uint32_t e = 0; e < 4; ++e) {
      const Coord c = mma_c_16n8(l, e);
      C[c.row][c.col] = d_half ? packed_half(read(in.srcs[c_base + e / 2], t), e & 1, ValType::F16)
                               : real_of(read(in.srcs[c_base + e], t), ValType::F32);
    }
  }
  if (failed_)
    return;
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = base + l;
    ExprId d[4];
    for (uint32_t e = 0; e < 4; ++e) {
      const Coord c = mma_c_16n8(l, e);
      ExprId acc = C[c.row][c.col];
      bool undef = acc == ctx_.undef;
      for (uint32_t k = 0; k < K && !undef; ++k) {
        undef = A[c.row][k] == ctx_.undef || B[k][c.col] == ctx_.undef;
        acc = b_.fma(A[c.row][k], B[k][c.col], acc);
      }
      d[e] = undef ? ctx_.undef : acc;
    }
    if (d_half) {
      for (uint32_t r = 0; r < 2 && r < in.dsts.size(); ++r) {
        const bool undef = d[2 * r] == ctx_.undef || d[2 * r + 1] == ctx_.undef;
        set_dst(
            in.dsts[r], t,
            Value{0, undef ? ctx_.undef : b_.pack(d[2 * r], d[2 * r + 1], 16), true, false, true});
      }
    } else {
      for (uint32_t e = 0; e < 4 && e < in.dsts.size(); ++e)
        set_dst(in.dsts[e], t, Value{0, d[e], true});
    }
  }
}

} // namespace volta::exec
