// Warp collectives of the emulator: shfl.sync, vote.sync, redux.sync, match.sync, ldmatrix and
// mma.sync. They run once every member lane has arrived (Cta::step); `mask` holds the members.
#include <bit>
#include <fmt/format.h>

#include "engine/emulate/machine.hpp"
#include "engine/exec/warp_reduction.hpp"

namespace volta::emulate {

using exec::Inst;
using exec::ValType;

void Cta::exec_shfl(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  uint64_t values[32] = {};
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    values[l] = read(in.srcs[0], base + l, ValType::B32);
  }
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t lane = std::countr_zero(m);
    const uint32_t t = base + lane;
    thread_now_ = t;
    const auto b = static_cast<int32_t>(read(in.srcs[1], t, ValType::U32) & 0x1f);
    const auto c = static_cast<uint32_t>(read(in.srcs[2], t, ValType::U32));
    const auto segmask = static_cast<int32_t>((c >> 8) & 0x1f);
    const int32_t max_lane =
        (static_cast<int32_t>(lane) & segmask) | (static_cast<int32_t>(c & 0x1f) & ~segmask);
    const int32_t min_lane = static_cast<int32_t>(lane) & segmask;
    int32_t j = 0;
    bool p = false;
    switch (static_cast<exec::ShflMode>(in.sub)) {
    case exec::ShflMode::Up:
      j = static_cast<int32_t>(lane) - b;
      p = j >= max_lane;
      break;
    case exec::ShflMode::Down:
      j = static_cast<int32_t>(lane) + b;
      p = j <= max_lane;
      break;
    case exec::ShflMode::Bfly:
      j = static_cast<int32_t>(lane) ^ b;
      p = j <= max_lane;
      break;
    case exec::ShflMode::Idx:
      j = min_lane | (b & ~segmask);
      p = j <= max_lane;
      break;
    }
    if (!p)
      j = static_cast<int32_t>(lane);
    if (j < 0 || j > 31 || ((mask >> j) & 1u) == 0)
      throw Trouble("undefined", fmt::format("lane {} reads lane {}, which is not a member of the "
                                             "shuffle (undefined value)",
                                             lane, j));
    write(in.dsts[0], t, values[j]);
    if (in.dsts.size() > 1)
      write(in.dsts[1], t, p ? 1 : 0);
  }
}

void Cta::exec_vote(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  uint32_t ballot = 0;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    if (read(in.srcs[0], base + l, ValType::Pred) & 1u)
      ballot |= 1u << l;
  }
  uint64_t r = 0;
  switch (static_cast<exec::VoteMode>(in.sub)) {
  case exec::VoteMode::All:
    r = ballot == mask;
    break;
  case exec::VoteMode::Any:
    r = ballot != 0;
    break;
  case exec::VoteMode::Uni:
    r = ballot == 0 || ballot == mask;
    break;
  case exec::VoteMode::Ballot:
    r = ballot;
    break;
  }
  for (uint32_t m = mask; m != 0; m &= m - 1)
    write(in.dsts[0], base + std::countr_zero(m), r);
}

void Cta::exec_redux(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  std::array<uint32_t, 32> values{};
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    values[l] = static_cast<uint32_t>(read(in.srcs[0], base + l, in.type));
  }
  const uint32_t r =
      exec::redux_value(static_cast<exec::AtomOp>(in.sub), in.type == ValType::S32, mask, values);
  for (uint32_t m = mask; m != 0; m &= m - 1)
    write(in.dsts[0], base + std::countr_zero(m), r);
}

void Cta::exec_match(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t width = exec::width_of(in.type);
  const uint64_t type_bits = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  std::array<uint64_t, 32> values{};
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    values[l] = read(in.srcs[0], base + l, in.type) & type_bits;
  }
  const bool all = in.sub == 1 && exec::match_all(mask, values);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = std::countr_zero(m);
    if (in.sub == 0) {
      write(in.dsts[0], base + l, exec::match_any_mask(mask, values, l));
      continue;
    }
    write(in.dsts[0], base + l, all ? mask : 0);
    if (in.dsts.size() > 1)
      write(in.dsts[1], base + l, all ? 1 : 0);
  }
}

void Cta::exec_elect(const Inst& in, uint32_t w, uint32_t mask) {
  // The lowest member lane leads (as in the symbolic CTA, exec_warp.cpp).
  const uint32_t base = w * 32;
  const uint32_t leader = static_cast<uint32_t>(std::countr_zero(mask));
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
    write(in.dsts[0], base + l, leader);
    write(in.dsts[1], base + l, l == leader ? 1 : 0);
  }
}

void Cta::exec_setmaxnreg(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  // No value changes; every lane of the warp, and the same sequence in each warp of the
  // warpgroup (exec/warpgroup_alignment.hpp), as in the symbolic CTA.
  if (mask != exec::existing_lanes_of(threads_, w))
    throw Trouble("barrier divergence",
                  fmt::format("'{}' is .sync.aligned, but lanes 0x{:08x} of warp {} do not execute "
                              "it",
                              in.text, exec::existing_lanes_of(threads_, w) & ~mask, w));
  if (auto problem = warpgroups_.executed(w, pc, in.line))
    throw Trouble("barrier divergence", *problem);
}

void Cta::exec_ldmatrix(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t count = in.sub; // matrices: 1, 2 or 4
  if (mask != 0xffffffffu)
    throw Trouble("undefined", "ldmatrix needs all 32 lanes of the warp");
  if (exec::width_of(in.type) != 16)
    throw Trouble("unsupported", "ldmatrix of other than .b16 elements");
  // Matrix i, row r comes from the 16 bytes at the address of lane 8i + r.
  uint16_t m[4][8][8] = {};
  for (uint32_t i = 0; i < count; ++i) {
    for (uint32_t r = 0; r < 8; ++r) {
      const uint32_t t = base + 8 * i + r;
      thread_now_ = t;
      const uint64_t a = address(in.mem[0], t);
      (void)locate(in.space, a, 16, t, false);
      for (uint32_t c = 0; c < 8; ++c)
        m[i][r][c] = static_cast<uint16_t>(load(in.space, a + 2 * c, 2, t));
    }
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t row = lane / 4, col = 2 * (lane % 4);
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t lo = in.trans ? m[i][col][row] : m[i][row][col];
      const uint32_t hi = in.trans ? m[i][col + 1][row] : m[i][row][col + 1];
      write(in.dsts[i], base + lane, uint64_t{hi} << 16 | lo);
    }
  }
}

// mma.sync.aligned.{m16n8k16,m16n8k8}.row.col.{f32,f16}.{f16,bf16}.{f16,bf16}.{f32,f16}: the
// fragment layouts of the PTX ISA ("Matrix fragments for mma.m16n8k16 / m16n8k8"). The products
// are exact; the sum of a row-column dot product and the accumulator is computed in double and
// rounded once to the accumulator type (the ISA leaves the order and intermediate precision of
// the accumulation unspecified).
void Cta::exec_mma(const Inst& in, uint32_t w, uint32_t mask) {
  const auto shape = static_cast<exec::MmaShape>(in.shape);
  const uint32_t k_dim = shape == exec::MmaShape::M16N8K16  ? 16
                         : shape == exec::MmaShape::M16N8K8 ? 8
                                                            : 0;
  const ValType ab = in.type2;
  const bool f32_acc = in.type == ValType::F32;
  if (k_dim == 0 || (ab != ValType::F16 && ab != ValType::BF16) ||
      (!f32_acc && in.type != ValType::F16) || in.layout != 2)
    throw Trouble("unsupported", "this mma shape or type is not supported by the emulator "
                                 "(m16n8k16/m16n8k8 row.col with f16/bf16 inputs only)");
  if (mask != 0xffffffffu)
    throw Trouble("undefined", "mma.sync needs all 32 lanes of the warp");
  const FloatFormat in_f = ab == ValType::F16 ? FloatFormat::F16 : FloatFormat::BF16;
  const FloatFormat acc_f = f32_acc ? FloatFormat::F32 : FloatFormat::F16;
  const uint32_t a_regs = k_dim / 4, b_regs = k_dim / 8, c_regs = f32_acc ? 4 : 2;
  if (in.groups[0] != a_regs || in.groups[1] != b_regs || in.groups[2] != c_regs ||
      in.dsts.size() != c_regs)
    throw Trouble("unsupported", "mma operand groups do not match the shape");
  const uint32_t base = w * 32;
  double A[16][16] = {}, B[16][8] = {}, C[16][8] = {};
  auto half = [&](const exec::Operand& o, uint32_t t, uint32_t which) {
    return (read(o, t, ValType::B32) >> (16 * which)) & 0xffff;
  };
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t t = base + lane, g = lane / 4, tig = lane % 4;
    for (uint32_t i = 0; i < 2 * a_regs; ++i) { // a0..a7 (k16) or a0..a3 (k8)
      const uint32_t row = g + 8 * ((i >> 1) & 1), col = tig * 2 + (i & 1) + 8 * (i >= 4);
      A[row][col] = decode(in_f, half(in.srcs[i / 2], t, i & 1));
    }
    for (uint32_t i = 0; i < 2 * b_regs; ++i) { // b0..b3 (k16) or b0..b1 (k8)
      const uint32_t row = tig * 2 + (i & 1) + 8 * (i >= 2);
      B[row][g] = decode(in_f, half(in.srcs[a_regs + i / 2], t, i & 1));
    }
    for (uint32_t i = 0; i < 4; ++i) { // c0..c3
      const uint32_t row = g + 8 * (i >= 2), col = tig * 2 + (i & 1);
      const exec::Operand& o = in.srcs[a_regs + b_regs + (f32_acc ? i : i / 2)];
      C[row][col] = f32_acc ? decode(FloatFormat::F32, read(o, t, ValType::F32))
                            : decode(FloatFormat::F16, half(o, t, i & 1));
    }
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t t = base + lane, g = lane / 4, tig = lane % 4;
    uint64_t d[4] = {};
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t row = g + 8 * (i >= 2), col = tig * 2 + (i & 1);
      double sum = C[row][col];
      for (uint32_t k = 0; k < k_dim; ++k)
        sum += A[row][k] * B[k][col];
      d[i] = convert(acc_f, sum, RoundMode::NearestEven);
    }
    if (f32_acc) {
      for (uint32_t i = 0; i < 4; ++i)
        write(in.dsts[i], t, d[i]);
    } else {
      write(in.dsts[0], t, d[1] << 16 | d[0]);
      write(in.dsts[1], t, d[3] << 16 | d[2]);
    }
  }
}

} // namespace volta::emulate

namespace volta::emulate {

namespace {

struct Coord {
  uint32_t row;
  uint32_t col;
};

// The wmma.m16n16k16 fragment layout is left unspecified by the PTX ISA. The emulator uses the
// one sm_80 implements (the symbolic engine's choice too): A is the m16n8k16 A layout in
// registers 0-3, repeated in 4-7; B is the m16n8k16 B layout for columns 0-7 (registers 0-1) and
// 8-15 (registers 2-3), repeated in 4-7; the accumulator is the m16n8 accumulator layout for
// columns 0-7 (elements 0-3) and 8-15 (elements 4-7). Loading, multiplying and storing fragments
// does not depend on this choice.
Coord frag_a(uint32_t lane, uint32_t reg, uint32_t half) {
  const uint32_t g = lane / 4, tig = lane % 4, e = (reg & 3) * 2 + half;
  return {g + 8 * ((e >> 1) & 1), tig * 2 + (e & 1) + 8 * (e >= 4)};
}
Coord frag_b(uint32_t lane, uint32_t reg, uint32_t half) {
  const uint32_t g = lane / 4, tig = lane % 4, r = reg & 3, e = (r & 1) * 2 + half;
  return {tig * 2 + (e & 1) + 8 * (e >= 2), g + 8 * (r >= 2)};
}
Coord frag_c(uint32_t lane, uint32_t e) { // e: 0..7
  const uint32_t g = lane / 4, tig = lane % 4;
  return {g + 8 * ((e & 3) >= 2), tig * 2 + (e & 1) + 8 * (e >= 4)};
}

} // namespace

void Cta::exec_wmma(const Inst& in, uint32_t w, uint32_t mask) {
  using exec::WmmaPart;
  using exec::XOp;
  if (static_cast<exec::MmaShape>(in.shape) != exec::MmaShape::M16N16K16)
    throw Trouble("unsupported", "wmma shapes other than m16n16k16 are not supported by the "
                                 "emulator");
  if (mask != 0xffffffffu)
    throw Trouble("undefined", "wmma needs all 32 lanes of the warp");
  const uint32_t base = w * 32;
  auto stride_of = [&](const exec::Operand* o, uint32_t t) {
    return o == nullptr ? uint64_t{16} : low_bits(read(*o, t, ValType::U32), 32);
  };
  if (in.op == XOp::WmmaLoad || in.op == XOp::WmmaStore) {
    const bool load_op = in.op == XOp::WmmaLoad;
    const auto part = static_cast<WmmaPart>(in.sub);
    const bool acc = part == WmmaPart::C || part == WmmaPart::D;
    const uint32_t elem = exec::width_of(in.type) / 8;
    if ((acc && in.type != ValType::F32 && in.type != ValType::F16) ||
        (!acc && in.type != ValType::F16 && in.type != ValType::BF16))
      throw Trouble("unsupported", "this wmma fragment type is not supported by the emulator");
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t t = base + lane;
      thread_now_ = t;
      const uint64_t a = address(in.mem[0], t);
      const exec::Operand* stride_operand = nullptr;
      if (load_op && !in.srcs.empty())
        stride_operand = &in.srcs[0];
      if (!load_op && in.groups[1] == 1)
        stride_operand = &in.srcs[in.groups[0]];
      const uint64_t stride = stride_of(stride_operand, t);
      auto at = [&](Coord c) {
        const uint64_t index =
            in.layout == 1 ? uint64_t{c.col} * stride + c.row : uint64_t{c.row} * stride + c.col;
        return a + index * elem;
      };
      if (acc) {
        for (uint32_t e = 0; e < 8; ++e) {
          const uint32_t reg = elem == 4 ? e : e / 2, shift = elem == 4 ? 0 : 16 * (e & 1);
          if (load_op) {
            const uint64_t v = load(in.space, at(frag_c(lane, e)), elem, t);
            const uint64_t old = shift == 0 ? 0 : reg_value_of(in.dsts[reg], t);
            write(in.dsts[reg], t, old | v << shift);
          } else {
            const uint64_t v = low_bits(read(in.srcs[reg], t, ValType::B32) >> shift, 8 * elem);
            store(in.space, at(frag_c(lane, e)), elem, v, t);
          }
        }
        continue;
      }
      for (uint32_t reg = 0; reg < 8 && reg < in.dsts.size(); ++reg) {
        uint64_t v = 0;
        for (uint32_t h = 0; h < 2; ++h) {
          const Coord c = part == WmmaPart::A ? frag_a(lane, reg, h) : frag_b(lane, reg, h);
          v |= load(in.space, at(c), 2, t) << (16 * h);
        }
        write(in.dsts[reg], t, v);
      }
    }
    return;
  }
  // wmma.mma: D = A * B + C, exact products summed in double and rounded once (as mma.sync).
  const bool f32_acc = in.type == ValType::F32;
  const FloatFormat in_f = in.type2 == ValType::BF16 ? FloatFormat::BF16 : FloatFormat::F16;
  const uint32_t c_regs = in.groups[2];
  if (in.groups[0] != 8 || in.groups[1] != 8 || (c_regs != 8 && c_regs != 4))
    throw Trouble("unsupported", "this wmma.mma form is not supported by the emulator");
  const bool c_f32 = c_regs == 8;
  double A[16][16], B[16][16], C[16][16];
  bool seen_a[16][16] = {}, seen_b[16][16] = {};
  auto put = [&](double(&m)[16][16], bool(&seen)[16][16], Coord c, double v) {
    if (seen[c.row][c.col] && m[c.row][c.col] != v)
      throw Trouble("undefined", "wmma fragments whose repeated elements differ");
    seen[c.row][c.col] = true;
    m[c.row][c.col] = v;
  };
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t t = base + lane;
    for (uint32_t reg = 0; reg < 8; ++reg) {
      const uint64_t va = read(in.srcs[reg], t, ValType::B32);
      const uint64_t vb = read(in.srcs[8 + reg], t, ValType::B32);
      for (uint32_t h = 0; h < 2; ++h) {
        put(A, seen_a, frag_a(lane, reg, h), decode(in_f, (va >> (16 * h)) & 0xffff));
        put(B, seen_b, frag_b(lane, reg, h), decode(in_f, (vb >> (16 * h)) & 0xffff));
      }
    }
    for (uint32_t e = 0; e < 8; ++e) {
      const Coord c = frag_c(lane, e);
      if (c_f32) {
        C[c.row][c.col] = decode(FloatFormat::F32, read(in.srcs[16 + e], t, ValType::F32));
      } else {
        const uint64_t v = read(in.srcs[16 + e / 2], t, ValType::B32);
        C[c.row][c.col] = decode(FloatFormat::F16, (v >> (16 * (e & 1))) & 0xffff);
      }
    }
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t t = base + lane;
    uint64_t packed[4] = {};
    for (uint32_t e = 0; e < 8; ++e) {
      const Coord c = frag_c(lane, e);
      double sum = C[c.row][c.col];
      for (uint32_t k = 0; k < 16; ++k)
        sum += A[c.row][k] * B[k][c.col];
      if (f32_acc) {
        write(in.dsts[e], t, convert(FloatFormat::F32, sum, RoundMode::NearestEven));
      } else {
        packed[e / 2] |= convert(FloatFormat::F16, sum, RoundMode::NearestEven) << (16 * (e & 1));
      }
    }
    if (!f32_acc) {
      for (uint32_t r = 0; r < 4 && r < in.dsts.size(); ++r)
        write(in.dsts[r], t, packed[r]);
    }
  }
}

} // namespace volta::emulate
