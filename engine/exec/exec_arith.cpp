// Instruction semantics of the CTA runner: dispatch, integer, float, comparison, selection,
// moves and conversions. Integers are machine integers with wrap-around; data (symbolic values)
// follows the rules of domain.md §1: real arithmetic for +, −, ×, fma, min, max, neg, abs (also
// when the PTX types are integers, as the corpus's int reductions need), opaque bit operations
// for everything else.
#include <bit>
#include <cmath>
#include <fmt/format.h>

#include "engine/exec/address_map.hpp"
#include "engine/exec/cta_runner.hpp"

namespace volta::exec {

using symbolic::BitOpKind;
using symbolic::CmpKind;
using symbolic::Op;

namespace {

uint64_t mask_bits(uint32_t w) {
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

int64_t sext(uint64_t v, uint32_t w) {
  return w >= 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - w)) >> (64 - w);
}

uint32_t type_width(ValType t) {
  return width_of(t) == 0 ? 32 : width_of(t);
}

// The signed 128-bit product, for mul.hi / mul.wide.
__int128 product(uint64_t a, uint64_t b, uint32_t w, bool sign) {
  if (sign)
    return static_cast<__int128>(sext(a, w)) * static_cast<__int128>(sext(b, w));
  return static_cast<__int128>(static_cast<unsigned __int128>(a & mask_bits(w)) *
                               (b & mask_bits(w)));
}

bool compare_int(uint8_t cmp, uint64_t a, uint64_t b, uint32_t w, bool sign) {
  const int64_t sa = sext(a, w), sb = sext(b, w);
  const uint64_t ua = a & mask_bits(w), ub = b & mask_bits(w);
  switch (static_cast<ptx::CmpOp>(cmp)) {
  case ptx::CmpOp::Eq:
    return ua == ub;
  case ptx::CmpOp::Ne:
    return ua != ub;
  case ptx::CmpOp::Lt:
    return sign ? sa < sb : ua < ub;
  case ptx::CmpOp::Le:
    return sign ? sa <= sb : ua <= ub;
  case ptx::CmpOp::Gt:
    return sign ? sa > sb : ua > ub;
  case ptx::CmpOp::Ge:
    return sign ? sa >= sb : ua >= ub;
  case ptx::CmpOp::Lo:
    return ua < ub;
  case ptx::CmpOp::Ls:
    return ua <= ub;
  case ptx::CmpOp::Hi:
    return ua > ub;
  case ptx::CmpOp::Hs:
    return ua >= ub;
  default:
    return false;
  }
}

bool combine(uint8_t bool_op, bool a, bool c) {
  switch (static_cast<ptx::BoolOp>(bool_op)) {
  case ptx::BoolOp::And:
    return a && c;
  case ptx::BoolOp::Or:
    return a || c;
  case ptx::BoolOp::Xor:
    return a != c;
  default:
    return a;
  }
}

// The real-number comparison of a float setp (unordered variants equal ordered ones over the
// reals, where there is no NaN).
std::optional<CmpKind> real_cmp(uint8_t cmp) {
  switch (static_cast<ptx::CmpOp>(cmp)) {
  case ptx::CmpOp::Eq:
  case ptx::CmpOp::Equ:
    return CmpKind::Eq;
  case ptx::CmpOp::Ne:
  case ptx::CmpOp::Neu:
    return CmpKind::Ne;
  case ptx::CmpOp::Lt:
  case ptx::CmpOp::Ltu:
  case ptx::CmpOp::Lo:
    return CmpKind::Lt;
  case ptx::CmpOp::Le:
  case ptx::CmpOp::Leu:
  case ptx::CmpOp::Ls:
    return CmpKind::Le;
  case ptx::CmpOp::Gt:
  case ptx::CmpOp::Gtu:
  case ptx::CmpOp::Hi:
    return CmpKind::Gt;
  case ptx::CmpOp::Ge:
  case ptx::CmpOp::Geu:
  case ptx::CmpOp::Hs:
    return CmpKind::Ge;
  default:
    return std::nullopt;
  }
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------------------------

void CtaRunner::execute(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  if (in.has_guard) {
    uint32_t active = 0;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
      const uint32_t t = base + l;
      auto p = concrete(reg_value(in.guard_reg, t), t, "the guard predicate of an instruction");
      if (!p)
        return;
      const bool on = ((*p & 1u) != 0) != in.guard_negated;
      if (on) {
        active |= 1u << l;
      } else {
        ++pc_[t];
      }
    }
    mask = active;
    if (mask == 0)
      return;
  }

  auto advance = [&](uint32_t m) {
    for (; m != 0; m &= m - 1)
      ++pc_[base + std::countr_zero(m)];
  };

  switch (in.op) {
  case XOp::Nop:
  case XOp::Fence:
  case XOp::Prefetch:
    break;
  case XOp::IAdd:
  case XOp::ISub:
  case XOp::IMulLo:
  case XOp::IMulHi:
  case XOp::IMulWide:
  case XOp::IMadLo:
  case XOp::IMadHi:
  case XOp::IMadWide:
  case XOp::IMul24Lo:
  case XOp::IMad24Lo:
  case XOp::IDiv:
  case XOp::IRem:
  case XOp::IAbs:
  case XOp::INeg:
  case XOp::IMin:
  case XOp::IMax:
  case XOp::And:
  case XOp::Or:
  case XOp::Xor:
  case XOp::Not:
  case XOp::CNot:
  case XOp::Shl:
  case XOp::Shr:
  case XOp::Popc:
  case XOp::Clz:
  case XOp::Brev:
  case XOp::Bfe:
  case XOp::Bfi:
  case XOp::Prmt:
  case XOp::Lop3:
  case XOp::ShfL:
  case XOp::ShfR:
  case XOp::Sad:
    exec_integer(in, w, mask);
    break;
  case XOp::FAdd:
  case XOp::FSub:
  case XOp::FMul:
  case XOp::FFma:
  case XOp::FDiv:
  case XOp::FRcp:
  case XOp::FSqrt:
  case XOp::FRsqrt:
  case XOp::FNeg:
  case XOp::FAbs:
  case XOp::FMin:
  case XOp::FMax:
  case XOp::FEx2:
  case XOp::FLg2:
  case XOp::FSin:
  case XOp::FCos:
  case XOp::FTanh:
    exec_float(in, w, mask);
    break;
  case XOp::Setp:
  case XOp::Set:
    exec_setp(in, w, mask);
    break;
  case XOp::Selp:
    exec_selp(in, w, mask);
    break;
  case XOp::Mov:
    exec_mov(in, w, mask);
    break;
  case XOp::Cvt:
    exec_cvt(in, w, mask);
    break;
  case XOp::Cvta:
    exec_cvta(in, w, mask);
    break;
  case XOp::Ld:
    exec_ld(in, w, mask);
    break;
  case XOp::St:
    exec_st(in, w, mask);
    break;
  case XOp::Atom:
  case XOp::Red:
    exec_atom(in, w, mask);
    break;
  case XOp::CpAsync:
    exec_cp_async(in, w, mask);
    break;
  case XOp::CpAsyncCommit:
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t t = base + std::countr_zero(m);
      committed_[t].push_back(std::move(uncommitted_[t]));
      uncommitted_[t].clear();
    }
    break;
  case XOp::CpAsyncWait:
    exec_cp_async_wait(in, w, mask);
    break;
  case XOp::Call:
    exec_call(in, w, mask);
    break;
  case XOp::Bra:
    for (uint32_t m = mask; m != 0; m &= m - 1)
      pc_[base + std::countr_zero(m)] = in.target;
    return;
  case XOp::Ret:
  case XOp::Exit:
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t t = base + std::countr_zero(m);
      // Copies still in flight complete before the thread leaves.
      for (const auto& g : committed_[t])
        complete_copies(t, g);
      committed_[t].clear();
      complete_copies(t, uncommitted_[t]);
      uncommitted_[t].clear();
      state_[t] = ThreadState::Exited;
    }
    return;
  case XOp::Trap:
    fail(Verdict::Error, "trap",
         fmt::format("the kernel executed 'trap' (PTX line {}), aborting the launch", in.line),
         base + std::countr_zero(mask));
    return;
  case XOp::BarSync:
  case XOp::BarArrive:
    exec_bar(in, pc, w, mask);
    return; // exec_bar sets states and pcs
  case XOp::BarWarpSync:
  case XOp::Shfl:
  case XOp::Vote:
  case XOp::Activemask:
  case XOp::Ldmatrix:
  case XOp::WmmaLoad:
  case XOp::WmmaStore:
  case XOp::WmmaMma:
  case XOp::Mma: {
    // Warp collectives: wait until every member lane has arrived.
    uint32_t members = existing_lanes(w) & ~exited_lanes(w);
    if (in.op == XOp::BarWarpSync || in.op == XOp::Shfl || in.op == XOp::Vote) {
      const Operand& mo = in.srcs.back();
      auto mm = concrete_operand(mo, base + std::countr_zero(mask), "a member mask");
      if (!mm)
        return;
      members = static_cast<uint32_t>(*mm) & existing_lanes(w);
      if ((exited_lanes(w) & members) != 0) {
        const uint32_t gone = std::countr_zero(exited_lanes(w) & members);
        fail(Verdict::BarrierDivergence, "barrier divergence",
             fmt::format(
                 "'{}' (PTX line {}) names lane {} in its member mask, but that thread has exited",
                 in.text, in.line, gone),
             base + std::countr_zero(mask));
        return;
      }
    } else if (in.op == XOp::Activemask) {
      // activemask returns the lanes executing it now: no waiting.
      for (uint32_t m = mask; m != 0; m &= m - 1) {
        const uint32_t t = base + std::countr_zero(m);
        set_dst(in.dsts[0], t, Value{mask, 0});
      }
      break;
    }
    if (!gather_collective(in, pc, w, mask, members))
      return;
    // A .sync collective acts as a sync of its lanes on both sides (domain.md §2): every
    // member has arrived before the collective's own accesses happen (a wmma.store after the
    // lanes' reads of the previous tile), and they are complete before any member goes on
    // (lanes reading what the wmma.store wrote).
    warp_synchronized(w, mask);
    switch (in.op) {
    case XOp::Shfl:
      exec_shfl(in, w, mask);
      break;
    case XOp::Vote:
      exec_vote(in, w, mask);
      break;
    case XOp::Ldmatrix:
      exec_ldmatrix(in, w, mask);
      break;
    case XOp::WmmaLoad:
      exec_wmma_load(in, w, mask);
      break;
    case XOp::WmmaStore:
      exec_wmma_store(in, w, mask);
      break;
    case XOp::WmmaMma:
      exec_wmma_mma(in, w, mask);
      break;
    case XOp::Mma:
      exec_mma(in, w, mask);
      break;
    default:
      break;
    }
    if (failed_)
      return;
    warp_synchronized(w, mask);
    ++stats_.warp_syncs;
    break;
  }
  case XOp::Testp:
  case XOp::Unsupported:
    fail_unsupported(in, base + std::countr_zero(mask), "is not supported by the engine");
    return;
  }
  if (!failed_)
    advance(mask);
}

bool CtaRunner::gather_collective(const Inst& in, uint32_t pc, uint32_t w, uint32_t& mask,
                                  uint32_t members) {
  const uint32_t base = w * 32;
  uint32_t arrived = mask;
  for (uint32_t m = members & ~mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    if (state_[t] == ThreadState::AtCollective && pc_[t] == pc)
      arrived |= 1u << (t - base);
  }
  if ((arrived & members) != members) {
    for (uint32_t m = mask; m != 0; m &= m - 1)
      state_[base + std::countr_zero(m)] = ThreadState::AtCollective;
    return false;
  }
  for (uint32_t m = arrived; m != 0; m &= m - 1)
    state_[base + std::countr_zero(m)] = ThreadState::Running;
  mask = arrived;
  (void)in;
  return true;
}

void CtaRunner::warp_synchronized(uint32_t w, uint32_t members) {
  // A sync over every live lane of the warp starts a new phase: it orders all earlier accesses
  // of the warp's lanes with all later ones. A partial-mask sync orders less; it is noted so
  // that a race it might excuse is reported as UNSUPPORTED rather than as a race.
  const uint32_t live = existing_lanes(w) & ~exited_lanes(w);
  if ((members & live) == live) {
    ++warp_phase_[w];
  } else {
    warp_partial_sync_[w] = 1;
  }
}

void CtaRunner::exec_bar(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t first = base + std::countr_zero(mask);
  auto id = concrete_operand(in.srcs[0], first, "a barrier id");
  if (!id)
    return;
  uint32_t count = 0;
  if (in.srcs.size() > 1) {
    auto c = concrete_operand(in.srcs[1], first, "a barrier thread count");
    if (!c)
      return;
    count = static_cast<uint32_t>(*c);
    if (count == 0 || count % 32 != 0) {
      fail(Verdict::BarrierDivergence, "barrier divergence",
           fmt::format(
               "barrier thread count {} is not a positive multiple of the warp size (PTX line {})",
               count, in.line),
           first);
      return;
    }
  }
  if (*id >= 16) {
    fail_unsupported(in, first, fmt::format("uses barrier {} (PTX allows 0 to 15)", *id));
    return;
  }
  if (in.op == XOp::BarArrive) {
    fail_unsupported(in, first, "bar.arrive (producer/consumer barriers) is not modeled yet");
    return;
  }
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    // Copies of cp.async are not ordered by barriers, but completed ones are visible.
    state_[t] = ThreadState::AtBarrier;
    barrier_id_[t] = static_cast<uint32_t>(*id);
    barrier_count_[t] = count >= threads_ ? 0 : count;
    pc_[t] = pc;
  }
}

// ---------------------------------------------------------------------------------------------
// Integer and bit operations
// ---------------------------------------------------------------------------------------------

void CtaRunner::exec_integer(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t width = in.type == ValType::Pred ? 1 : type_width(in.type);
  const bool sign = is_signed(in.type);
  const uint64_t wmask = mask_bits(width);
  const size_t nsrc = in.srcs.size();
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    Value v[4];
    bool symbolic = false;
    bool undef = false;
    for (size_t i = 0; i < nsrc && i < 4; ++i) {
      v[i] = read(in.srcs[i], t);
      if (v[i].symbolic()) {
        const Op op = ctx_.store.op(v[i].node);
        if (op == Op::RawBits) {
          const auto& n = ctx_.store.node(v[i].node);
          v[i] = Value{uint64_t{n.b} << 32 | n.a, 0};
          continue;
        }
        symbolic = true;
        undef |= v[i].node == ctx_.undef || op == Op::Undef;
      }
      if (in.srcs[i].negated) {
        // `!%p` operands of predicate logic.
        if (v[i].symbolic()) {
          v[i].node = b_.bool_not(v[i].node);
        } else {
          v[i].bits = (v[i].bits & 1u) ^ 1u;
        }
      }
    }
    if (failed_)
      return;
    if (undef) {
      set_dst(in.dsts[0], t, Value{0, ctx_.undef});
      continue;
    }
    bool float_bits = false;
    for (size_t i = 0; i < nsrc && i < 4; ++i)
      float_bits |= v[i].symbolic() && v[i].fl;
    if (symbolic) {
      // Data flowing through integer instructions.
      b_.set_stream(&streams_[t]);
      const ValType rt = in.type;
      auto r = [&](int i) { return int_real(v[i], rt); };
      auto raw = [&](int i) {
        return v[i].symbolic() ? v[i].node
                               : ctx_.store.raw_bits(v[i].bits, static_cast<int>(width));
      };
      ExprId out = 0;
      if (in.type == ValType::Pred) {
        switch (in.op) {
        case XOp::And:
          out = b_.boolean(Op::And, r(0), r(1));
          break;
        case XOp::Or:
          out = b_.boolean(Op::Or, r(0), r(1));
          break;
        case XOp::Xor:
          out = b_.boolean(Op::Xor, r(0), r(1));
          break;
        case XOp::Not:
          out = b_.bool_not(r(0));
          break;
        default:
          break;
        }
        // Concrete operands of predicate logic are 0/1 constants.
      }
      const bool arithmetic = in.op == XOp::IAdd || in.op == XOp::ISub || in.op == XOp::IMulLo ||
                              in.op == XOp::IMulWide || in.op == XOp::IMul24Lo ||
                              in.op == XOp::IMadLo || in.op == XOp::IMadWide ||
                              in.op == XOp::IMad24Lo || in.op == XOp::INeg || in.op == XOp::IAbs ||
                              in.op == XOp::IMin || in.op == XOp::IMax;
      if (out == 0 && float_bits && arithmetic) {
        // Integer arithmetic on the bits of a float: a bit trick, kept opaque.
        out = b_.bitop(BitOpKind::Other, raw(0), nsrc > 1 ? raw(1) : 0, nsrc > 2 ? raw(2) : 0,
                       static_cast<uint8_t>(static_cast<uint8_t>(in.op) & 7));
      }
      if (out == 0) {
        switch (in.op) {
        case XOp::IAdd:
          out = b_.add(r(0), r(1));
          break;
        case XOp::ISub:
          out = b_.sub(r(0), r(1));
          break;
        case XOp::IMulLo:
        case XOp::IMulWide:
        case XOp::IMul24Lo:
          out = b_.mul(r(0), r(1));
          break;
        case XOp::IMadLo:
        case XOp::IMadWide:
        case XOp::IMad24Lo:
          out = b_.fma(r(0), r(1), r(2));
          break;
        case XOp::INeg:
          out = b_.neg(r(0));
          break;
        case XOp::IAbs:
          out = b_.abs(r(0));
          break;
        case XOp::IMin:
          out = b_.min(r(0), r(1));
          break;
        case XOp::IMax:
          out = b_.max(r(0), r(1));
          break;
        case XOp::Shl:
          out = b_.bitop(BitOpKind::Shl, raw(0), raw(1));
          break;
        case XOp::Shr:
          out = b_.bitop(sign ? BitOpKind::Sra : BitOpKind::Shr, raw(0), raw(1));
          break;
        case XOp::And:
          out = b_.bitop(BitOpKind::And, raw(0), raw(1));
          break;
        case XOp::Or:
          out = b_.bitop(BitOpKind::Or, raw(0), raw(1));
          break;
        case XOp::Xor:
          out = b_.bitop(BitOpKind::Xor, raw(0), raw(1));
          break;
        case XOp::Not:
          out = b_.bitop(BitOpKind::Not, raw(0));
          break;
        default:
          out = b_.bitop(BitOpKind::Other, raw(0), nsrc > 1 ? raw(1) : 0, nsrc > 2 ? raw(2) : 0);
          break;
        }
      }
      set_dst(in.dsts[0], t, Value{0, out, float_bits});
      continue;
    }
    const uint64_t a = v[0].bits, b = v[1].bits, c = v[2].bits;
    uint64_t r = 0;
    uint32_t result_width = width;
    switch (in.op) {
    case XOp::IAdd:
      r = a + b;
      break;
    case XOp::ISub:
      r = a - b;
      break;
    case XOp::IMulLo:
      r = a * b;
      break;
    case XOp::IMulHi:
      r = static_cast<uint64_t>(product(a, b, width, sign) >> width);
      break;
    case XOp::IMulWide:
      r = static_cast<uint64_t>(product(a, b, width, sign));
      result_width = 2 * width;
      break;
    case XOp::IMadLo:
      r = a * b + c;
      break;
    case XOp::IMadHi:
      r = static_cast<uint64_t>(product(a, b, width, sign) >> width) + c;
      break;
    case XOp::IMadWide:
      r = static_cast<uint64_t>(product(a, b, width, sign)) + c;
      result_width = 2 * width;
      break;
    case XOp::IMul24Lo:
    case XOp::IMad24Lo: {
      // The low 24 bits of each operand, sign-extended only for signed types.
      const int64_t x = sign ? sext(a, 24) : static_cast<int64_t>(a & 0xffffff);
      const int64_t y = sign ? sext(b, 24) : static_cast<int64_t>(b & 0xffffff);
      r = static_cast<uint64_t>(x * y) + (in.op == XOp::IMad24Lo ? c : 0);
      break;
    }
    case XOp::IDiv:
    case XOp::IRem: {
      if ((b & wmask) == 0) {
        fail(Verdict::Unsupported, "division by zero",
             fmt::format("integer division by zero in '{}' (PTX line {})", in.text, in.line), t);
        return;
      }
      if (sign) {
        const int64_t x = sext(a, width), y = sext(b, width);
        if (y == -1) {
          r = in.op == XOp::IDiv ? static_cast<uint64_t>(-x) : 0; // wraps like the hardware
        } else {
          r = static_cast<uint64_t>(in.op == XOp::IDiv ? x / y : x % y);
        }
      } else {
        r = in.op == XOp::IDiv ? (a & wmask) / (b & wmask) : (a & wmask) % (b & wmask);
      }
      break;
    }
    case XOp::IAbs:
      r = static_cast<uint64_t>(std::abs(sext(a, width)));
      break;
    case XOp::INeg:
      r = static_cast<uint64_t>(-sext(a, width));
      break;
    case XOp::IMin:
      r = sign ? static_cast<uint64_t>(std::min(sext(a, width), sext(b, width)))
               : std::min(a & wmask, b & wmask);
      break;
    case XOp::IMax:
      r = sign ? static_cast<uint64_t>(std::max(sext(a, width), sext(b, width)))
               : std::max(a & wmask, b & wmask);
      break;
    case XOp::And:
      r = a & b;
      break;
    case XOp::Or:
      r = a | b;
      break;
    case XOp::Xor:
      r = a ^ b;
      break;
    case XOp::Not:
      r = in.type == ValType::Pred ? (~a & 1u) : ~a;
      break;
    case XOp::CNot:
      r = (a & wmask) == 0 ? 1 : 0;
      break;
    case XOp::Shl: {
      const uint64_t n = b & 0xffffffffu;
      r = n >= width ? 0 : a << n;
      break;
    }
    case XOp::Shr: {
      const uint64_t n = b & 0xffffffffu;
      if (sign) {
        r = static_cast<uint64_t>(sext(a, width) >> std::min<uint64_t>(n, width - 1));
      } else {
        r = n >= width ? 0 : (a & wmask) >> n;
      }
      break;
    }
    case XOp::Popc:
      r = static_cast<uint64_t>(std::popcount(a & wmask));
      result_width = 32;
      break;
    case XOp::Clz:
      r = static_cast<uint64_t>(std::countl_zero(a & wmask) - (64 - width));
      result_width = 32;
      break;
    case XOp::Brev: {
      uint64_t x = a & wmask, y = 0;
      for (uint32_t i = 0; i < width; ++i)
        y |= ((x >> i) & 1u) << (width - 1 - i);
      r = y;
      break;
    }
    case XOp::Bfe: {
      // PTX: d[i] = (i < len && pos + i <= msb) ? a[pos + i] : sbit, where sbit is 0 for
      // unsigned types and a[min(pos + len - 1, msb)] for signed ones (0 when len is 0).
      const uint32_t pos = static_cast<uint32_t>(b & 0xff), len = static_cast<uint32_t>(c & 0xff);
      const uint64_t x = a & wmask;
      const uint64_t sbit = (sign && len > 0) ? (x >> std::min(pos + len - 1, width - 1)) & 1u : 0;
      uint64_t field = 0;
      for (uint32_t i = 0; i < width; ++i) {
        const uint64_t bit = (i < len && pos + i < width) ? (x >> (pos + i)) & 1u : sbit;
        field |= bit << i;
      }
      r = field;
      break;
    }
    case XOp::Bfi: {
      const uint64_t pos = v[2].bits & 0xff, len = v[3].bits & 0xff;
      uint64_t x = b;
      for (uint64_t i = 0; i < len && pos + i < width; ++i) {
        const uint64_t bit = (a >> i) & 1u;
        x = (x & ~(uint64_t{1} << (pos + i))) | (bit << (pos + i));
      }
      r = x;
      break;
    }
    case XOp::Prmt: {
      const uint64_t bytes = (a & 0xffffffffu) | (b & 0xffffffffu) << 32;
      uint64_t x = 0;
      for (int i = 0; i < 4; ++i) {
        const uint32_t sel = static_cast<uint32_t>(c >> (4 * i)) & 0xf;
        uint8_t byte = static_cast<uint8_t>(bytes >> (8 * (sel & 7)));
        if (sel & 8)
          byte = (byte & 0x80) ? 0xff : 0;
        x |= uint64_t{byte} << (8 * i);
      }
      r = x;
      break;
    }
    case XOp::Lop3: {
      const uint64_t lut = v[3].bits & 0xff;
      uint64_t x = 0;
      for (uint32_t i = 0; i < width; ++i) {
        const uint32_t idx =
            static_cast<uint32_t>(((a >> i) & 1u) << 2 | ((b >> i) & 1u) << 1 | ((c >> i) & 1u));
        x |= ((lut >> idx) & 1u) << i;
      }
      r = x;
      break;
    }
    case XOp::ShfL:
    case XOp::ShfR: {
      const uint64_t n = std::min<uint64_t>(c & 0xffffffffu, 32); // .clamp; .wrap masks
      const uint64_t n_eff = in.text.find(".wrap") != std::string::npos ? (c & 31) : n;
      const uint64_t joined = (a & 0xffffffffu) | (b & 0xffffffffu) << 32;
      r = in.op == XOp::ShfL ? (joined << n_eff) >> 32 : joined >> n_eff;
      break;
    }
    case XOp::Sad: {
      const int64_t x = sign ? sext(a, width) : static_cast<int64_t>(a & wmask);
      const int64_t y = sign ? sext(b, width) : static_cast<int64_t>(b & wmask);
      r = static_cast<uint64_t>(x > y ? x - y : y - x) + c;
      break;
    }
    default:
      break;
    }
    set_dst(in.dsts[0], t, Value{r & mask_bits(result_width), 0});
  }
}

// ---------------------------------------------------------------------------------------------
// Floats (over the reals)
// ---------------------------------------------------------------------------------------------

void CtaRunner::exec_float(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const bool packed = in.type == ValType::F16x2 || in.type == ValType::BF16x2;
  const ValType element = in.type == ValType::F16x2    ? ValType::F16
                          : in.type == ValType::BF16x2 ? ValType::BF16
                                                       : in.type;
  auto compute = [&](ExprId a, ExprId b, ExprId c) -> ExprId {
    ExprId r = 0;
    switch (in.op) {
    case XOp::FAdd:
      r = b_.add(a, b);
      break;
    case XOp::FSub:
      r = b_.sub(a, b);
      break;
    case XOp::FMul:
      r = idioms_.mul(a, b);
      break;
    case XOp::FFma:
      r = idioms_.fma(a, b, c);
      break;
    case XOp::FDiv:
      r = b_.div(a, b);
      break;
    case XOp::FRcp:
      r = b_.unary(Op::Rcp, a);
      break;
    case XOp::FSqrt:
      r = b_.unary(Op::Sqrt, a);
      break;
    case XOp::FRsqrt:
      r = b_.unary(Op::Rsqrt, a);
      break;
    case XOp::FNeg:
      r = b_.neg(a);
      break;
    case XOp::FAbs:
      r = b_.abs(a);
      break;
    case XOp::FMin:
      r = b_.min(a, b);
      break;
    case XOp::FMax:
      r = b_.max(a, b);
      break;
    case XOp::FEx2:
      r = idioms_.ex2(a);
      break;
    case XOp::FLg2:
      r = b_.unary(Op::Lg2, a);
      break;
    case XOp::FSin:
      r = b_.unary(Op::Sin, a);
      break;
    case XOp::FCos:
      r = b_.unary(Op::Cos, a);
      break;
    case XOp::FTanh:
      r = b_.unary(Op::Tanh, a);
      break;
    default:
      break;
    }
    if (in.sat)
      r = b_.saturate(r);
    if (in.relu)
      r = b_.relu(r);
    return r;
  };
  const size_t nsrc = in.srcs.size();
  const size_t operands = std::min<size_t>(nsrc, 3);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    b_.set_stream(&streams_[t]);
    if (!packed) {
      ExprId x[3] = {0, 0, 0};
      bool undef = false;
      for (size_t i = 0; i < operands; ++i) {
        Op op;
        if (register_number(in.srcs[i], t, x[i], op)) { // one meta read answers both questions
          undef |= x[i] == ctx_.undef || op == Op::Undef;
          continue;
        }
        x[i] = real_general(in.srcs[i], t, element);
        undef |= x[i] == ctx_.undef || ctx_.store.op(x[i]) == Op::Undef;
      }
      if (failed_)
        return;
      set_dst(in.dsts[0], t, Value{0, undef ? ctx_.undef : compute(x[0], x[1], x[2]), true});
      continue;
    }
    // Packed halves: apply the operation to each half.
    ExprId halves[2];
    bool undef = false;
    for (int h = 0; h < 2; ++h) {
      ExprId x[3] = {0, 0, 0};
      for (size_t i = 0; i < nsrc && i < 3; ++i) {
        const Value v = read(in.srcs[i], t);
        Value part = v.symbolic() ? Value{0, b_.extract(v.node, 16 * h, 16)}
                                  : Value{(v.bits >> (16 * h)) & 0xffff, 0};
        undef |= v.node == ctx_.undef;
        x[i] = real_of(part, element);
      }
      halves[h] = compute(x[0], x[1], x[2]);
    }
    if (failed_)
      return;
    set_dst(in.dsts[0], t, Value{0, undef ? ctx_.undef : b_.pack(halves[0], halves[1], 16), true});
  }
}

// ---------------------------------------------------------------------------------------------
// Comparison and selection
// ---------------------------------------------------------------------------------------------

void CtaRunner::exec_setp(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  // setp.cmp.type compares in its type; set.cmp.dtype.stype compares in stype.
  const ValType ct = in.op == XOp::Set ? in.type2 : in.type;
  const bool fl = is_float(ct);
  const uint32_t width = type_width(ct);
  const bool sign = is_signed(ct);
  auto& s = ctx_.store;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    Value a = read(in.srcs[0], t), b = read(in.srcs[1], t);
    Value c{1, 0};
    bool has_c = in.srcs.size() > 2;
    if (has_c) {
      c = read(in.srcs[2], t);
      if (in.srcs[2].negated)
        c = c.symbolic() ? Value{0, b_.bool_not(c.node)} : Value{(c.bits & 1u) ^ 1u, 0};
    }
    if (failed_)
      return;
    std::optional<bool> result; // concrete comparison result
    ExprId sym = 0;             // symbolic comparison
    if (fl) {
      const ExprId x = real_of(a, ct), y = real_of(b, ct);
      if (x == ctx_.undef || y == ctx_.undef) {
        set_dst(in.dsts[0], t, Value{0, ctx_.undef});
        if (in.dsts.size() > 1)
          set_dst(in.dsts[1], t, Value{0, ctx_.undef});
        continue;
      }
      const auto kind = real_cmp(in.cmp);
      const auto cmp_op = static_cast<ptx::CmpOp>(in.cmp);
      if (cmp_op == ptx::CmpOp::Num) {
        result = true;
      } else if (cmp_op == ptx::CmpOp::Nan) {
        result = false;
      } else if (!kind) {
        fail_unsupported(in, t, "uses an unknown comparison");
        return;
      } else {
        // Decide comparisons of constants (and infinities) exactly.
        auto rank = [&](ExprId id) -> std::optional<std::pair<int, const symbolic::Rational*>> {
          switch (s.op(id)) {
          case Op::NegInf:
            return std::make_pair(-1, nullptr);
          case Op::PosInf:
            return std::make_pair(1, nullptr);
          case Op::Const:
            return std::make_pair(0, &s.rational(id));
          default:
            return std::nullopt;
          }
        };
        auto ra = rank(x), rb = rank(y);
        if (ra && rb) {
          int order;
          if (ra->first != rb->first) {
            order = ra->first < rb->first ? -1 : 1;
          } else if (ra->first != 0) {
            order = 0;
          } else {
            order = *ra->second < *rb->second ? -1 : (*ra->second == *rb->second ? 0 : 1);
          }
          switch (*kind) {
          case CmpKind::Eq:
            result = order == 0;
            break;
          case CmpKind::Ne:
            result = order != 0;
            break;
          case CmpKind::Lt:
            result = order < 0;
            break;
          case CmpKind::Le:
            result = order <= 0;
            break;
          case CmpKind::Gt:
            result = order > 0;
            break;
          case CmpKind::Ge:
            result = order >= 0;
            break;
          }
        } else if (x == y &&
                   (*kind == CmpKind::Eq || *kind == CmpKind::Le || *kind == CmpKind::Ge)) {
          result = true;
        } else if (x == y &&
                   (*kind == CmpKind::Ne || *kind == CmpKind::Lt || *kind == CmpKind::Gt)) {
          result = false;
        } else {
          sym = b_.cmp(*kind, x, y);
        }
      }
    } else if (a.symbolic() || b.symbolic()) {
      const bool undef = a.node == ctx_.undef || b.node == ctx_.undef;
      if (undef) {
        set_dst(in.dsts[0], t, Value{0, ctx_.undef});
        if (in.dsts.size() > 1)
          set_dst(in.dsts[1], t, Value{0, ctx_.undef});
        continue;
      }
      auto kind = real_cmp(in.cmp);
      if (!kind) {
        fail_unsupported(in, t, "compares data with an unsupported comparison");
        return;
      }
      sym = b_.cmp(*kind, int_real(a, ct), int_real(b, ct));
    } else {
      result = compare_int(in.cmp, a.bits, b.bits, width, sign);
    }
    auto out = [&](bool negate) -> Value {
      if (result && !c.symbolic()) {
        const bool r = negate ? !*result : *result;
        return Value{combine(in.bool_op, r, (c.bits & 1u) != 0) ? 1u : 0u, 0};
      }
      ExprId p = sym != 0 ? sym : s.constant(*result ? 1 : 0);
      if (negate)
        p = b_.bool_not(p);
      if (has_c) {
        const ExprId q = c.symbolic() ? c.node : s.constant(c.bits & 1u);
        switch (static_cast<ptx::BoolOp>(in.bool_op)) {
        case ptx::BoolOp::And:
          p = b_.boolean(Op::And, p, q);
          break;
        case ptx::BoolOp::Or:
          p = b_.boolean(Op::Or, p, q);
          break;
        case ptx::BoolOp::Xor:
          p = b_.boolean(Op::Xor, p, q);
          break;
        default:
          break;
        }
      }
      return Value{0, p};
    };
    if (in.op == XOp::Set) {
      // set: a 0 / all-ones integer, or 0.0 / 1.0 float destination.
      const Value r = out(false);
      if (r.symbolic()) {
        fail_unsupported(in, t, "turns a data-dependent comparison into a number");
        return;
      }
      const bool on = r.bits != 0;
      uint64_t bits = 0;
      if (is_float(in.type) && in.type == ValType::F32) {
        bits = on ? 0x3F800000u : 0;
      } else {
        bits = on ? mask_bits(type_width(in.type)) : 0;
      }
      set_dst(in.dsts[0], t, Value{bits, 0});
      continue;
    }
    set_dst(in.dsts[0], t, out(false));
    if (in.dsts.size() > 1)
      set_dst(in.dsts[1], t, out(true));
  }
}

void CtaRunner::exec_selp(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    const Value a = read(in.srcs[0], t), b = read(in.srcs[1], t), p = read(in.srcs[2], t);
    if (failed_)
      return;
    if (!p.symbolic()) {
      Value chosen = ((p.bits & 1u) != 0) != in.srcs[2].negated ? a : b;
      set_dst(in.dsts[0], t, chosen);
      continue;
    }
    if (p.node == ctx_.undef) {
      set_dst(in.dsts[0], t, Value{0, ctx_.undef});
      continue;
    }
    // A data-dependent select: both sides as reals.
    const bool fl = is_float(in.type);
    const ExprId x = fl ? real_of(a, in.type) : int_real(a, in.type);
    const ExprId y = fl ? real_of(b, in.type) : int_real(b, in.type);
    const ExprId cond = in.srcs[2].negated ? b_.bool_not(p.node) : p.node;
    set_dst(in.dsts[0], t, Value{0, b_.select(cond, x, y), a.fl || b.fl || fl});
  }
}

// ---------------------------------------------------------------------------------------------
// Moves and conversions
// ---------------------------------------------------------------------------------------------

void CtaRunner::exec_mov(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t width = type_width(in.type);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    if (in.sub == 1) { // pack {a, b, ...} into one register
      const uint32_t parts = static_cast<uint32_t>(in.srcs.size());
      const uint32_t part_width = width / parts;
      bool symbolic = false;
      std::vector<Value> vs(parts);
      for (uint32_t i = 0; i < parts; ++i) {
        vs[i] = read(in.srcs[i], t);
        symbolic |= vs[i].symbolic();
      }
      if (!symbolic) {
        uint64_t bits = 0;
        for (uint32_t i = 0; i < parts; ++i)
          bits |= (vs[i].bits & mask_bits(part_width)) << (i * part_width);
        set_dst(in.dsts[0], t, Value{bits, 0});
        continue;
      }
      // Build a balanced tree of halves.
      std::vector<ExprId> level(parts);
      for (uint32_t i = 0; i < parts; ++i) {
        level[i] = vs[i].symbolic() ? vs[i].node
                                    : ctx_.store.raw_bits(vs[i].bits & mask_bits(part_width),
                                                          static_cast<int>(part_width));
      }
      uint32_t pw = part_width;
      while (level.size() > 1) {
        std::vector<ExprId> next;
        for (size_t i = 0; i + 1 < level.size(); i += 2)
          next.push_back(b_.pack(level[i], level[i + 1], static_cast<int>(pw)));
        level = std::move(next);
        pw *= 2;
      }
      bool any_float = false;
      for (const auto& x : vs)
        any_float |= x.fl;
      set_dst(in.dsts[0], t, Value{0, level[0], any_float});
      continue;
    }
    if (in.sub == 2) { // unpack one register into {a, b, ...}
      const Value v = read(in.srcs[0], t);
      const uint32_t parts = static_cast<uint32_t>(in.dsts.size());
      const uint32_t part_width = width / parts;
      for (uint32_t i = 0; i < parts; ++i) {
        if (!v.symbolic()) {
          set_dst(in.dsts[i], t,
                  Value{(v.bits >> (i * part_width)) & mask_bits(part_width), 0, v.fl});
        } else if (v.node == ctx_.undef) {
          set_dst(in.dsts[i], t, Value{0, ctx_.undef});
        } else {
          set_dst(in.dsts[i], t,
                  Value{0,
                        b_.extract(v.node, static_cast<int>(i * part_width),
                                   static_cast<int>(part_width)),
                        v.fl});
        }
      }
      continue;
    }
    Value v = read(in.srcs[0], t);
    if (in.srcs[0].kind == OpKind::Imm && in.srcs[0].imm_is_float)
      v.fl = true; // mov.b32 %r, 0f3F800000
    if (!v.symbolic() && in.type != ValType::Pred) {
      if (in.srcs[0].kind == OpKind::Imm && in.srcs[0].imm_is_float && in.srcs[0].imm_width == 64 &&
          width == 32) {
        v.bits = std::bit_cast<uint32_t>(static_cast<float>(std::bit_cast<double>(v.bits)));
      }
      v.bits &= mask_bits(width);
    }
    set_dst(in.dsts[0], t, v);
  }
}

void CtaRunner::exec_cvt(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const ValType dst = in.type, src = in.type2;
  const uint32_t dw = type_width(dst), sw = type_width(src);
  auto& s = ctx_.store;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    Value v = read(in.srcs[0], t);
    if (failed_)
      return;
    if (v.node == ctx_.undef) {
      set_dst(in.dsts[0], t, Value{0, ctx_.undef});
      continue;
    }
    if (!is_float(dst) && !is_float(src)) {
      // Integer to integer: sign or zero extend, or truncate. Data keeps its real value.
      if (v.symbolic()) {
        set_dst(in.dsts[0], t, v); // keeps its provenance: cvt does not turn float bits into an int
        continue;
      }
      const uint64_t x =
          is_signed(src) ? static_cast<uint64_t>(sext(v.bits, sw)) : (v.bits & mask_bits(sw));
      uint64_t r = x & mask_bits(dw);
      if (in.sat) {
        // Clamp to the destination range.
        const bool ds = is_signed(dst);
        const __int128 value = is_signed(src) ? static_cast<__int128>(sext(v.bits, sw))
                                              : static_cast<__int128>(v.bits & mask_bits(sw));
        const __int128 lo = ds ? -(static_cast<__int128>(1) << (dw - 1)) : 0;
        const __int128 hi =
            ds ? (static_cast<__int128>(1) << (dw - 1)) - 1 : (static_cast<__int128>(1) << dw) - 1;
        r = static_cast<uint64_t>(std::clamp(value, lo, hi)) & mask_bits(dw);
      }
      set_dst(in.dsts[0], t, Value{r, 0});
      continue;
    }
    if (is_float(dst) && !is_float(src)) {
      // Integer to float: the same real number (rounding ignored over the reals).
      ExprId x = int_real(v, src);
      if (in.sat)
        x = b_.saturate(x);
      set_dst(in.dsts[0], t, Value{0, x, true});
      continue;
    }
    const ExprId x = real_of(v, src);
    if (failed_)
      return;
    if (is_float(dst)) {
      // Float to float: the identity over the reals, except rounding to an integral value.
      ExprId r = x;
      const bool to_integral = in.rounding == Rounding::Rni || in.rounding == Rounding::Rzi ||
                               in.rounding == Rounding::Rmi || in.rounding == Rounding::Rpi;
      if (to_integral) {
        if (s.op(x) == Op::Const) {
          const symbolic::Rational& q = s.rational(x);
          mpz_class z;
          switch (in.rounding) {
          case Rounding::Rmi:
            mpz_fdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
            break;
          case Rounding::Rpi:
            mpz_cdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
            break;
          case Rounding::Rzi:
            mpz_tdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
            break;
          default: {
            // Round to nearest, ties to even.
            symbolic::Rational twice = q * 2;
            mpz_class fl;
            mpz_fdiv_q(fl.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
            symbolic::Rational frac = q - symbolic::Rational(fl);
            if (frac > symbolic::Rational(1, 2) ||
                (frac == symbolic::Rational(1, 2) && mpz_odd_p(fl.get_mpz_t())))
              fl += 1;
            z = fl;
            (void)twice;
          }
          }
          r = s.constant(symbolic::Rational(z));
        } else {
          r = b_.bitop(BitOpKind::RoundF, x);
        }
      }
      if (in.sat)
        r = b_.saturate(r);
      if (in.relu)
        r = b_.relu(r);
      set_dst(in.dsts[0], t, Value{0, r, true});
      continue;
    }
    // Float to integer: concrete only when the value is a constant.
    if (s.op(x) == Op::Const) {
      const symbolic::Rational& q = s.rational(x);
      mpz_class z;
      switch (in.rounding) {
      case Rounding::Rmi:
        mpz_fdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
        break;
      case Rounding::Rpi:
        mpz_cdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
        break;
      case Rounding::Rni: {
        mpz_class fl;
        mpz_fdiv_q(fl.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
        symbolic::Rational frac = q - symbolic::Rational(fl);
        if (frac > symbolic::Rational(1, 2) ||
            (frac == symbolic::Rational(1, 2) && mpz_odd_p(fl.get_mpz_t())))
          fl += 1;
        z = fl;
        break;
      }
      default:
        mpz_tdiv_q(z.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
        break;
      }
      // Saturate to the destination range, as the hardware does for float-to-int conversion.
      const bool ds = is_signed(dst);
      mpz_class lo = ds ? -(mpz_class(1) << (dw - 1)) : mpz_class(0);
      mpz_class hi = ds ? (mpz_class(1) << (dw - 1)) - 1 : (mpz_class(1) << dw) - 1;
      if (z < lo)
        z = lo;
      if (z > hi)
        z = hi;
      mpz_class u = z;
      if (u < 0)
        u += mpz_class(1) << dw;
      uint64_t bits = 0;
      mpz_export(&bits, nullptr, -1, sizeof(bits), 0, 0, u.get_mpz_t());
      set_dst(in.dsts[0], t, Value{bits & mask_bits(dw), 0});
      continue;
    }
    set_dst(in.dsts[0], t, Value{0, b_.bitop(BitOpKind::FloatToInt, x)});
  }
}

void CtaRunner::exec_cvta(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  uint64_t window = 0;
  switch (in.space) {
  case Space::Shared:
    window = kSharedWindow;
    break;
  case Space::Local:
    window = kLocalWindow;
    break;
  case Space::Const:
    window = kConstWindow;
    break;
  default:
    window = 0;
    break; // global and param addresses are generic as they are
  }
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    auto a = concrete_operand(in.srcs[0], t, "an address");
    if (!a)
      return;
    uint64_t r = in.sub == 1 ? *a - window : *a + window;
    if (in.type == ValType::U32 || in.type == ValType::B32)
      r &= 0xffffffffu;
    set_dst(in.dsts[0], t, Value{r, 0});
  }
}

} // namespace volta::exec
