// wgmma (warpgroup MMA) and stmatrix in the symbolic CTA machine; their layouts are
// warpgroup_mma_layout.hpp (shared with the emulator), their asynchrony warpgroup_mma_flight.hpp.
//
// A warp computes its own quarter of D: for m64nNk16 warp w of the warpgroup owns rows
// 16w..16w+15 of D (the accumulator fragment) and, with A from registers, holds exactly those
// rows of A (the A fragment); B and A from a descriptor are in shared memory, which any warp
// reads. So each warp's wgmma is computed from that warp alone; what the warpgroup shares is the
// `.aligned` requirement (WarpgroupAgreement) and nothing else.
#include <bit>
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"
#include "engine/exec/warpgroup_mma_layout.hpp"

namespace volta::exec {

namespace {

// srcs positions after the A operand (groups[0] sources).
struct WgmmaOperands {
  uint32_t b_desc, scale_d, scale_a, scale_b, trans_a, trans_b; // trans_a: none with A in regs
};

WgmmaOperands operands_of(const Inst& in) {
  const uint32_t a = in.groups[0];
  if (in.trans) // A from registers: no imm-trans-a
    return {a, a + 1, a + 2, a + 3, UINT32_MAX, a + 4};
  return {a, a + 1, a + 2, a + 3, a + 4, a + 5};
}

} // namespace

bool CtaRunner::wgmma_agree(const Inst& in, uint32_t w, std::initializer_list<uint64_t> operands) {
  if (auto why = wgmma_->agreement.note(w, wgmma::agreement_key(current_pc_, operands))) {
    fail(Verdict::BarrierDivergence, "barrier divergence",
         fmt::format("'{}' (PTX line {}): {}", in.text, in.line, *why), w * 32);
    return false;
  }
  return true;
}

std::optional<uint64_t> CtaRunner::warp_uniform(const Operand& o, uint32_t w, const char* what) {
  const uint32_t base = w * 32;
  std::optional<uint64_t> first;
  for (uint32_t l = 0; l < 32; ++l) {
    auto v = concrete_operand(o, base + l, what);
    if (!v)
      return std::nullopt;
    uint64_t bits = *v;
    if (o.negated)
      bits = (bits & 1) ^ 1;
    if (first && *first != bits) {
      fail_unsupported(prog_.insts[current_pc_], base + l,
                       fmt::format("gives {} different values in the lanes of a warp ({:#x} and "
                                   "{:#x}); the engine models a warp-uniform one",
                                   what, *first, bits));
      return std::nullopt;
    }
    first = bits;
  }
  return first;
}

void CtaRunner::exec_wgmma(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  if (mask != kAll || (w / 4) * 4 + 4 > warps_ || existing_lanes((w / 4) * 4 + 3) != kAll) {
    fail_unsupported(in, base + std::countr_zero(mask),
                     "needs all 128 threads of its warpgroup (wgmma is .sync.aligned)");
    return;
  }
  const WgmmaOperands ops = operands_of(in);
  const bool a_regs = in.trans;
  const uint32_t n_dim = uint32_t{in.sub} * 8;
  const bool f16_acc = in.type == ValType::F16;
  const ValType ab = in.type2;
  std::optional<uint64_t> a_bits = 0;
  if (!a_regs)
    a_bits = warp_uniform(in.srcs[0], w, "the A matrix descriptor");
  const auto b_bits =
      a_bits ? warp_uniform(in.srcs[ops.b_desc], w, "the B matrix descriptor") : std::nullopt;
  const auto scale_d = b_bits ? warp_uniform(in.srcs[ops.scale_d], w, "scale-d") : std::nullopt;
  if (!scale_d)
    return;
  const uint64_t scale_a = in.srcs[ops.scale_a].imm, scale_b = in.srcs[ops.scale_b].imm;
  const uint64_t trans_a = a_regs ? 0 : in.srcs[ops.trans_a].imm;
  const uint64_t trans_b = in.srcs[ops.trans_b].imm;
  auto is_pm_one = [](uint64_t v) { return v == 1 || static_cast<int64_t>(v) == -1; };
  if (!is_pm_one(scale_a) || !is_pm_one(scale_b) || trans_a > 1 || trans_b > 1) {
    fail_unsupported(in, base,
                     "has an imm-scale other than 1 or -1 or an imm-trans other than 0 "
                     "or 1");
    return;
  }
  if (!wgmma_agree(in, w, {*a_bits, *b_bits, *scale_d & 1}))
    return;
  const wgmma::MatrixDescriptor da = wgmma::decode_descriptor(*a_bits);
  const wgmma::MatrixDescriptor db = wgmma::decode_descriptor(*b_bits);
  for (const auto* d : {&da, &db}) {
    if (d == &da && a_regs)
      continue;
    if (auto why = wgmma::unsupported_descriptor(*d)) {
      fail_unsupported(in, base, *why);
      return;
    }
  }
  wgmma::InFlight<Value> flight;
  flight.pc = current_pc_;
  // Reads one 16-bit element of an operand in shared memory (for the race check, by lane
  // `lane` of the warp), noting it for the retirement check.
  auto element = [&](uint64_t address, uint32_t lane) -> std::optional<ExprId> {
    if (!async_proxy_read_ok(in, address, 2, base + lane, "the wgmma"))
      return std::nullopt;
    ByteCell* cells = access(Space::Shared, address, 2, 2, base + lane, AccessKind::Read);
    if (!cells)
      return std::nullopt;
    Value v = load(cells, 2);
    tag_loaded(v, cells, 2);
    flight.operands.emplace_back(address, v);
    if (v.node == ctx_.undef)
      return ctx_.undef;
    return real_of(v, ab);
  };
  const uint32_t rank = w % 4; // the warp's place in its warpgroup: rows 16 rank.. of A and D
  std::vector<ExprId> A(16 * 16), B(16 * size_t{n_dim});
  for (uint32_t r = 0; r < 16 && !failed_; ++r) {
    for (uint32_t k = 0; k < 16 && !a_regs; ++k) {
      auto x =
          element(wgmma::operand_address(da, trans_a == 1, 16 * rank + r, k), (r * 16 + k) % 32);
      if (!x)
        return;
      A[r * 16 + k] = *x;
    }
  }
  if (a_regs) {
    for (uint32_t l = 0; l < 32; ++l) {
      for (uint32_t v = 0; v < 8; ++v) {
        const wgmma::Element e = wgmma::a_register_element(rank * 32 + l, v);
        A[(e.row - 16 * rank) * 16 + e.col] =
            packed_half(read(in.srcs[v / 2], base + l), v & 1, ab);
      }
    }
  }
  for (uint32_t n = 0; n < n_dim; ++n) {
    for (uint32_t k = 0; k < 16; ++k) {
      auto x = element(wgmma::operand_address(db, trans_b == 1, n, k), (n * 16 + k) % 32);
      if (!x)
        return;
      B[k * n_dim + n] = *x;
    }
  }
  if (static_cast<int64_t>(scale_a * scale_b) == -1 ||
      (static_cast<int64_t>(scale_a) == -1) != (static_cast<int64_t>(scale_b) == -1)) {
    for (auto& x : A) // the product is negated: negate A's elements
      x = x == ctx_.undef ? x : b_.neg(x);
  }
  // The accumulator: this wgmma's destinations; with scale-d its input C (a pending value of an
  // earlier wgmma of the chain, or the register).
  auto& warp = wgmma_->warps[w];
  const uint32_t values = n_dim / 2, regs = f16_acc ? n_dim / 4 : n_dim / 2;
  flight.regs.resize(regs);
  flight.live.assign(regs, 1);
  flight.values.resize(size_t{regs} * 32);
  for (uint32_t i = 0; i < regs; ++i)
    flight.regs[i] = in.dsts[i].reg;
  std::vector<ExprId> d(values);
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = base + l;
    for (uint32_t v = 0; v < values; ++v) {
      const wgmma::Element e = wgmma::accumulator_element(rank * 32 + l, v);
      const uint32_t row = e.row - 16 * rank;
      ExprId acc = 0;
      bool undef = false;
      if (*scale_d & 1) {
        const uint32_t reg = f16_acc ? v / 2 : v;
        const Value* p = warp.pending(flight.regs[reg], l);
        const Value c = p ? *p : read(in.dsts[reg], t);
        acc = f16_acc ? packed_half(c, v & 1, ValType::F16) : real_of(c, ValType::F32);
        undef = acc == ctx_.undef;
      }
      for (uint32_t k = 0; k < 16 && !undef; ++k) {
        const ExprId a = A[row * 16 + k], b = B[k * n_dim + e.col];
        undef = a == ctx_.undef || b == ctx_.undef;
        acc = acc == 0 ? b_.mul(a, b) : b_.fma(a, b, acc);
      }
      d[v] = undef ? ctx_.undef : acc;
    }
    for (uint32_t i = 0; i < regs; ++i) {
      Value out;
      if (f16_acc) {
        const bool undef = d[2 * i] == ctx_.undef || d[2 * i + 1] == ctx_.undef;
        out = Value{0, undef ? ctx_.undef : b_.pack(d[2 * i], d[2 * i + 1], 16), true, false, true};
      } else {
        out = Value{0, d[i], true};
      }
      flight.values[size_t{i} * 32 + l] = out;
    }
  }
  // Until retired the destinations are undefined (warpgroup_mma_flight.hpp).
  for (uint32_t i = 0; i < regs; ++i) {
    warp.supersede(flight.regs[i]);
    for (uint32_t l = 0; l < 32; ++l)
      set(flight.regs[i], base + l, Value{0, ctx_.undef});
  }
  warp.issue(std::move(flight));
}

void CtaRunner::exec_wgmma_sync(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  if (mask != kAll) {
    fail_unsupported(in, base + std::countr_zero(mask), "needs all 32 lanes of the warp");
    return;
  }
  auto& warp = wgmma_->warps[w];
  if (in.op == XOp::WgmmaFence) {
    wgmma_agree(in, w, {});
    return;
  }
  if (in.op == XOp::WgmmaCommit) {
    if (wgmma_agree(in, w, {}))
      warp.commit();
    return;
  }
  const uint64_t n = in.srcs.empty() ? 0 : in.srcs[0].imm;
  if (!wgmma_agree(in, w, {n}))
    return;
  for (auto& f : warp.retire(static_cast<uint32_t>(n))) {
    const Inst& issued = prog_.insts[f.pc];
    // Its shared operands were read at issue: they must still hold what was read (a write
    // before the retirement is a race with the async read), and no unordered write may touch
    // them (the race check of a read now).
    for (size_t i = 0; i < f.operands.size(); ++i) {
      const auto& [address, was] = f.operands[i];
      const uint32_t t = base + static_cast<uint32_t>(i % 32);
      ByteCell* cells = access(Space::Shared, address, 2, 2, t, AccessKind::Read);
      if (!cells)
        return;
      const Value now = load(cells, 2);
      if (now.node != was.node || now.bits != was.bits) {
        fail(Verdict::DataRace, "data race",
             fmt::format("shared byte {:#x}, an operand of '{}' (PTX line {}), is written before "
                         "'{}' (PTX line {}) retires it (the async proxy reads it meanwhile)",
                         address, issued.text, issued.line, in.text, in.line),
             t);
        return;
      }
    }
    for (size_t i = 0; i < f.regs.size(); ++i) {
      if (!f.live[i])
        continue;
      for (uint32_t l = 0; l < 32; ++l) {
        const Value now = reg_value(f.regs[i], base + l);
        if (now.node != ctx_.undef || now.bits != 0) {
          fail(Verdict::Uninitialized, "wgmma accumulator in flight",
               fmt::format("register {} is written while '{}' (PTX line {}) is in flight, before "
                           "'{}' (PTX line {}) retires it (its value is undefined until then)",
                           prog_.registers[f.regs[i]].name, issued.text, issued.line, in.text,
                           in.line),
               base + l);
          return;
        }
        set(f.regs[i], base + l, f.values[i * 32 + l]);
      }
    }
  }
}

bool CtaRunner::wgmma_accumulators_untouched(const Inst& in, uint32_t w, uint32_t mask) {
  if (in.op == XOp::WgmmaWait || in.op == XOp::WgmmaCommit || in.op == XOp::WgmmaFence)
    return true;
  const auto& warp = wgmma_->warps[w];
  std::optional<uint32_t> bad; // the register touched
  auto check = [&](const Operand& o) {
    if (!bad && o.kind == OpKind::Reg && warp.is_pending(o.reg))
      bad = o.reg;
  };
  for (const auto& o : in.srcs)
    check(o);
  if (in.op != XOp::Wgmma) { // a chained wgmma reads and writes its accumulator in order
    for (const auto& o : in.dsts)
      check(o);
  }
  for (const auto& m : in.mem) {
    if (!bad && m.present && m.has_base && warp.is_pending(m.base))
      bad = m.base;
  }
  if (!bad && in.has_guard && warp.is_pending(in.guard_reg))
    bad = in.guard_reg;
  if (!bad)
    return true;
  fail(Verdict::DataRace, "wgmma accumulator race",
       fmt::format(
           "'{}' (PTX line {}) uses register {}, a destination of a wgmma.mma_async still in "
           "flight: its value is undefined until a wgmma.wait_group retires the wgmma "
           "(the async unit writes it meanwhile)",
           in.text, in.line, prog_.registers[*bad].name),
       w * 32 + std::countr_zero(mask));
  return false;
}

void CtaRunner::note_proxy_fence(uint32_t w, uint32_t mask) {
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = w * 32 + std::countr_zero(m);
    // A fence after no write of its thread orders nothing new: the one kept stays the last
    // fence that followed a write (checking a later one instead could only find fewer orders).
    if (fence_shadow_ && wgmma_->unfenced.has_unfenced(t)) {
      Conflict c;
      uint32_t byte = 0;
      // Only the record matters: the word is never read for real (read_ordered checks a copy).
      (void)fence_shadow_->check_and_record(4 * t, 4, accessor(t), AccessKind::Write, c, byte);
    }
    wgmma_->unfenced.fence(t);
  }
}

bool CtaRunner::async_proxy_read_ok(const Inst& in, uint64_t address, uint32_t size, uint32_t t,
                                    const char* reader) {
  std::string why;
  if (auto writer = wgmma_->unfenced.writer(address, size)) {
    why = fmt::format("thread {} wrote it through the generic proxy with no fence.proxy.async "
                      "after the write (a missing fence.proxy.async: {} may read the old bytes)",
                      *writer, reader);
  } else if (auto fenced = unordered_proxy_fence(address, size, t)) {
    why = fmt::format("the fence.proxy.async of thread {}, which wrote it through the generic "
                      "proxy, is not ordered before the read (fence, then synchronize: {} may "
                      "read the old bytes)",
                      *fenced, reader);
  } else {
    return true;
  }
  fail(Verdict::DataRace, "async proxy",
       fmt::format("'{}' (PTX line {}) reads shared byte {:#x} through the async proxy, and {}",
                   in.text, in.line, address, why),
       t);
  return false;
}

std::optional<uint32_t> CtaRunner::unordered_proxy_fence(uint64_t address, uint32_t size,
                                                         uint32_t t) {
  if (!fence_shadow_)
    return std::nullopt;
  for (uint64_t a = address; a < address + size; ++a) {
    const auto& page = shared_shadow_pages_[a >> 12];
    if (!page)
      continue;
    const ByteShadow& last = page->byte(static_cast<uint32_t>(a & 4095));
    if (last.w_stamp == 0 || last.w_thread == t)
      continue; // no generic write (or an async one, forgotten), or the reader's own
    if (!fence_shadow_->read_ordered(4 * last.w_thread, accessor(t)))
      return last.w_thread;
  }
  return std::nullopt;
}

bool CtaRunner::wgmma_end_check() {
  if (!wgmma_ || failed_)
    return true;
  if (auto why = wgmma_->agreement.at_end()) {
    fail(Verdict::BarrierDivergence, "barrier divergence", *why, 0);
    return false;
  }
  return true;
}

void CtaRunner::exec_stmatrix(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t count = in.sub;
  uint64_t rows[32];
  if (!matrix_rows(in, w, mask, "stmatrix", rows)) // ldmatrix's rows
    return;
  // Lane l holds, in register i, elements (l / 4, 2 (l % 4)) and (l / 4, 2 (l % 4) + 1) of matrix
  // i (ldmatrix's fragment), transposed with .trans.
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t t = base + l;
    for (uint32_t i = 0; i < count; ++i) {
      const Value v = read(in.srcs[i], t);
      for (uint32_t h = 0; h < 2; ++h) {
        const uint32_t r = in.trans ? (l & 3) * 2 + h : l >> 2;
        const uint32_t c = in.trans ? l >> 2 : (l & 3) * 2 + h;
        // The value is stored by the lane that holds it; the row's address is lane 8 i + r's.
        ByteCell* cells =
            access(Space::Shared, rows[8 * i + r] + 2 * c, 2, 2, t, AccessKind::Write);
        if (!cells)
          return;
        Value half = v;
        if (v.node != ctx_.undef) {
          if (v.symbolic()) {
            half = Value{0, b_.extract(v.node, 16 * h, 16), v.fl, v.bf16, v.f16};
          } else {
            half = Value{(v.bits >> (16 * h)) & 0xffff, 0, v.fl, v.bf16, v.f16};
          }
        }
        store_value(cells, half, 2);
        cells[0].stored_as = cells[1].stored_as = stored_as_of(half, ValType::B16, 2);
      }
    }
  }
}

} // namespace volta::exec
