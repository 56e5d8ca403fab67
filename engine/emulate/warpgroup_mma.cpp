// wgmma (warpgroup MMA) and stmatrix in the emulator, with the layouts of
// exec/warpgroup_mma_layout.hpp (shared with the symbolic engine) and the asynchrony of
// exec/warpgroup_mma_flight.hpp: results are computed at issue and written to the registers when
// wgmma.wait_group retires their group. Each warp computes its own rows of D (rows 16w..16w+15
// of its warpgroup: exec_warpgroup_mma.cpp says why that is exact). The checks that make a kernel
// wrong (a missing fence.proxy.async, an accumulator touched in flight, warps of a warpgroup that
// disagree) are the symbolic engine's; the emulator runs the kernels that pass them.
//
// Arithmetic: as mma.sync here (warp_ops.cpp), the products are exact and the sum of a row-column
// dot product and the accumulator is computed in double and rounded once to the accumulator type
// (the ISA leaves the order and intermediate precision of the accumulation unspecified).
#include <bit>
#include <fmt/format.h>

#include "engine/emulate/machine.hpp"
#include "engine/exec/warpgroup_mma_layout.hpp"

namespace volta::emulate {

using exec::Inst;
using exec::ValType;

void Cta::exec_wgmma(const Inst& in, uint32_t w, uint32_t mask) {
  namespace wg = exec::wgmma;
  if (mask != 0xffffffffu)
    throw Trouble("undefined", "wgmma needs all 32 lanes of the warp");
  if (wgmma_warps_.empty())
    wgmma_warps_.resize(warps_);
  const uint32_t base = w * 32, rank = w % 4;
  const bool a_regs = in.trans;
  const uint32_t a = in.groups[0];
  const uint32_t b_at = a, scale_d_at = a + 1, scale_a_at = a + 2, scale_b_at = a + 3;
  const uint32_t trans_a_at = a + 4, trans_b_at = a_regs ? a + 4 : a + 5;
  const uint32_t n_dim = uint32_t{in.sub} * 8;
  const bool f16_acc = in.type == ValType::F16;
  const FloatFormat in_f = in.type2 == ValType::BF16 ? FloatFormat::BF16 : FloatFormat::F16;
  auto uniform = [&](const exec::Operand& o, ValType as) {
    const uint64_t v = read(o, base, as);
    for (uint32_t l = 1; l < 32; ++l) {
      if (read(o, base + l, as) != v)
        throw Trouble("unsupported", "a wgmma operand differs between the lanes of a warp");
    }
    return v;
  };
  const bool scale_d = (uniform(in.srcs[scale_d_at], ValType::Pred) & 1) != 0;
  const double sign = (static_cast<int64_t>(in.srcs[scale_a_at].imm) == -1 ? -1.0 : 1.0) *
                      (static_cast<int64_t>(in.srcs[scale_b_at].imm) == -1 ? -1.0 : 1.0);
  const bool trans_a = !a_regs && in.srcs[trans_a_at].imm == 1;
  const bool trans_b = in.srcs[trans_b_at].imm == 1;
  auto descriptor = [&](const exec::Operand& o) {
    const wg::MatrixDescriptor d = wg::decode_descriptor(uniform(o, ValType::B64));
    if (auto why = wg::unsupported_descriptor(d))
      throw Trouble("unsupported", *why);
    return d;
  };
  std::vector<double> A(16 * 16), B(16 * size_t{n_dim});
  if (a_regs) {
    for (uint32_t l = 0; l < 32; ++l) {
      for (uint32_t v = 0; v < 8; ++v) {
        const wg::Element e = wg::a_register_element(rank * 32 + l, v);
        const uint64_t bits =
            (read(in.srcs[v / 2], base + l, ValType::B32) >> (16 * (v & 1))) & 0xffff;
        A[(e.row - 16 * rank) * 16 + e.col] = decode(in_f, bits);
      }
    }
  } else {
    const wg::MatrixDescriptor da = descriptor(in.srcs[0]);
    for (uint32_t r = 0; r < 16; ++r) {
      for (uint32_t k = 0; k < 16; ++k) {
        const uint64_t address = wg::operand_address(da, trans_a, 16 * rank + r, k);
        A[r * 16 + k] = decode(in_f, load(exec::Space::Shared, address, 2, base));
      }
    }
  }
  const wg::MatrixDescriptor db = descriptor(in.srcs[b_at]);
  for (uint32_t n = 0; n < n_dim; ++n) {
    for (uint32_t k = 0; k < 16; ++k) {
      const uint64_t address = wg::operand_address(db, trans_b, n, k);
      B[k * n_dim + n] = decode(in_f, load(exec::Space::Shared, address, 2, base));
    }
  }
  auto& warp = wgmma_warps_[w];
  const uint32_t values = n_dim / 2, regs = f16_acc ? n_dim / 4 : n_dim / 2;
  exec::wgmma::InFlight<uint64_t> flight;
  flight.pc = pc_now_;
  flight.regs.resize(regs);
  flight.live.assign(regs, 1);
  flight.values.assign(size_t{regs} * 32, 0);
  for (uint32_t i = 0; i < regs; ++i)
    flight.regs[i] = in.dsts[i].reg;
  const FloatFormat acc_f = f16_acc ? FloatFormat::F16 : FloatFormat::F32;
  for (uint32_t l = 0; l < 32; ++l) {
    for (uint32_t v = 0; v < values; ++v) {
      const wg::Element e = wg::accumulator_element(rank * 32 + l, v);
      const uint32_t row = e.row - 16 * rank;
      const uint32_t reg = f16_acc ? v / 2 : v;
      double sum = 0;
      if (scale_d) {
        const uint64_t* p = warp.pending(flight.regs[reg], l);
        const uint64_t c = p ? *p : reg_value_of(in.dsts[reg], base + l);
        sum = f16_acc ? decode(FloatFormat::F16, (c >> (16 * (v & 1))) & 0xffff)
                      : decode(FloatFormat::F32, c & 0xffffffffu);
      }
      for (uint32_t k = 0; k < 16; ++k)
        sum += sign * A[row * 16 + k] * B[k * n_dim + e.col];
      const uint64_t bits = convert(acc_f, sum, RoundMode::NearestEven);
      uint64_t& slot = flight.values[size_t{reg} * 32 + l];
      slot = f16_acc ? (slot | bits << (16 * (v & 1))) : bits;
    }
  }
  for (uint32_t i = 0; i < regs; ++i)
    warp.supersede(flight.regs[i]);
  warp.issue(std::move(flight));
}

void Cta::exec_wgmma_sync(const Inst& in, uint32_t w, uint32_t mask) {
  if (mask != 0xffffffffu)
    throw Trouble("undefined", "wgmma needs all 32 lanes of the warp");
  if (wgmma_warps_.empty())
    wgmma_warps_.resize(warps_);
  auto& warp = wgmma_warps_[w];
  if (in.op == exec::XOp::WgmmaCommit) {
    warp.commit();
  } else if (in.op == exec::XOp::WgmmaWait) {
    const uint64_t n = in.srcs.empty() ? 0 : in.srcs[0].imm;
    for (auto& f : warp.retire(static_cast<uint32_t>(n))) {
      for (size_t i = 0; i < f.regs.size(); ++i) {
        if (!f.live[i])
          continue;
        for (uint32_t l = 0; l < 32; ++l)
          reg(f.regs[i], w * 32 + l) = f.values[i * 32 + l];
      }
    }
  }
}

void Cta::exec_stmatrix(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t count = in.sub; // matrices: 1, 2 or 4
  if (mask != 0xffffffffu)
    throw Trouble("undefined", "stmatrix needs all 32 lanes of the warp");
  // Matrix i, row r goes to the 16 bytes at the address of lane 8i + r (ldmatrix's rows); lane
  // l holds, in register i, elements (l / 4, 2 (l % 4)) and (l / 4, 2 (l % 4) + 1), transposed
  // with .trans.
  uint64_t rows[32] = {};
  for (uint32_t l = 0; l < 8 * count; ++l)
    rows[l] = address(in.mem[0], base + l);
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = base + l;
    thread_now_ = t;
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t v = read(in.srcs[i], t, ValType::B32);
      for (uint32_t h = 0; h < 2; ++h) {
        const uint32_t r = in.trans ? (l & 3) * 2 + h : l >> 2;
        const uint32_t c = in.trans ? l >> 2 : (l & 3) * 2 + h;
        store(exec::Space::Shared, rows[8 * i + r] + 2 * c, 2, (v >> (16 * h)) & 0xffff, t);
      }
    }
  }
}

} // namespace volta::emulate
