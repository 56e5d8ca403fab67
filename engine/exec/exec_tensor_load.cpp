// cp.async.bulk.tensor tile loads (TMA) in the symbolic CTA; the emulator's counterpart is
// emulate/tensor_load.cpp. Both follow tensor_copy.hpp: the box is read from global memory and
// written to shared memory at the issue, and its complete_tx is applied to the mbarrier then.
// What makes that one time stand for every time the hardware may choose (any time before the
// phase the complete_tx counts in completes) is checked here:
// - the phase cannot complete without the copy: the mbarrier already expects its bytes (else a
//   schedule dependence: no positive verdict);
// - the issue joins the phase another schedule would give it (MbarrierOrder::async_tx);
// - every later access of the destination, the issuer's own included, is ordered after the
//   completion of that phase (tensor_load_race), else a DATA_RACE: reading the tile before the
//   mbarrier wait, or writing it while the copy may still be landing;
// - the copy's write itself is checked at the issue against every earlier unordered access of
//   the destination (a buffer refilled while a consumer still reads it), then leaves the race
//   shadow (forget_writes): the phase, not the issuing thread, orders it before its readers;
// - a destination byte a generic-proxy store wrote is refused (only fence.proxy.async orders
//   that store before the copy's async-proxy write; not modelled);
// - a CTA barrier after the phase's completion in this schedule orders nothing after the copy
//   unless a thread saw the phase complete before it (MbarrierOrder::async_tx).
// The values are the source bytes as they are (symbolic inputs with their pieces, as a cp.async
// copies them); out-of-bounds elements of the box are concrete zeros.
#include <bit>
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"
#include "engine/exec/tensor_copy.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

void CtaRunner::exec_tensor_load(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t rank = in.groups[0];
  VOLTA_ASSERT(rank >= 1 && rank <= 5 && in.srcs.size() == 1 + rank,
               "lowering gives a tensor load its map and one coordinate per dimension");
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    const auto box = tensor_box_operands(in, t);
    if (!box)
      return;
    const auto dst = address_of(in.mem[0], t);
    const auto mbar = address_of(in.mem[1], t);
    if (!dst || !mbar)
      return;
    auto planned = plan_tensor_load(prog_, ctx_.config, box->map,
                                    std::span<const int32_t>(box->coords.data(), rank), *dst);
    if (auto* why = std::get_if<std::string>(&planned)) {
      fail_unsupported(in, t, *why);
      return;
    }
    const TensorCopyPlan& plan = std::get<TensorCopyPlan>(planned);
    const CtaMbarriers::Mbarrier* bar = mbarriers_.find(*mbar);
    if (bar == nullptr) {
      fail_unsupported(in, t,
                       fmt::format("is undefined behaviour: its mbarrier operand {:#x} is no "
                                   "initialized mbarrier",
                                   *mbar));
      return;
    }
    // The complete_tx is an atomic on the mbarrier's bytes: unordered with its init or inval
    // it is a race (as every mbarrier operation, exec_mbarrier.cpp).
    in_mbarrier_op_ = true;
    shadow_values_ = StoredElements{};
    const ByteCell* mbar_cells = access(Space::Shared, *mbar, CtaMbarriers::kBytes,
                                        CtaMbarriers::kBytes, t, AccessKind::Atomic);
    in_mbarrier_op_ = false;
    if (mbar_cells == nullptr || failed_)
      return;
    const uint64_t phase = bar->phase;
    if (bar->tx < static_cast<int64_t>(plan.box.bytes)) {
      note_schedule_dependence(
          fmt::format("issues a tensor load of {} bytes on the mbarrier at {:#x} whose tx-count "
                      "expects only {} (phase {}): in another schedule the phase could complete "
                      "before the copy lands (arrive.expect_tx the box's bytes first)",
                      plan.box.bytes, *mbar, bar->tx, phase),
          t);
    }
    if (!mbarrier_order_.async_tx(named_, *mbar, t, w, phase, stamp_)) {
      note_schedule_dependence(
          fmt::format("issues a tensor load counted in phase {} of the mbarrier at {:#x} without "
                      "being ordered after the completion of phase {}: which phase counts it "
                      "depends on the schedule (not modeled)",
                      phase, *mbar, static_cast<int64_t>(phase) - 1),
          t);
    }
    // The copy: every in-bounds element read as an ld.global of it would (bounds and the race
    // shadow), every element written as a st.shared would be checked now.
    const uint32_t eb = plan.box.element_bytes;
    VOLTA_ASSERT(eb >= 1 && eb <= 8, "tma_box's element sizes are 1 to 8 bytes");
    const auto index = static_cast<uint32_t>(tensor_loads_.size());
    for (const TmaBoxElement& e : plan.box.elements) {
      std::array<ByteCell, 8> bytes{};
      if (e.global_offset) {
        const ByteCell* src =
            access(Space::Global, plan.global_base + *e.global_offset, eb, eb, t, AccessKind::Read);
        if (src == nullptr || failed_)
          return;
        std::copy(src, src + eb, bytes.begin());
      }
      if (ctx_.options.check_races) {
        // A generic-proxy write of the destination is ordered before the copy's async-proxy
        // write only by fence.proxy.async, which tensor loads do not model: refused, never
        // guessed (the bytes a previous tensor load wrote have no write record: forget_writes).
        const auto& page = shared_shadow_pages_[e.shared_address >> 12];
        const ByteShadow* prior =
            page ? &page->byte(static_cast<uint32_t>(e.shared_address & 4095)) : nullptr;
        if (prior != nullptr && prior->w_stamp != 0) {
          fail_unsupported(
              in, t,
              fmt::format("loads a tensor into shared {}, which thread {} wrote through the "
                          "generic proxy (PTX line {}): the order of a generic write and a "
                          "tensor load's async-proxy write (fence.proxy.async) is not modelled",
                          describe_address(Space::Shared, e.shared_address), prior->w_thread,
                          prior->w_pc < prog_.insts.size() ? prog_.insts[prior->w_pc].line : 0));
          return;
        }
      }
      shadow_values_ = StoredElements{};
      // The async proxy writes the box: a wgmma may read it after the mbarrier wait with no
      // fence.proxy.async (the fence orders generic-proxy writes only).
      in_async_proxy_ = true;
      ByteCell* cells = access(Space::Shared, e.shared_address, eb, eb, t, AccessKind::Write);
      in_async_proxy_ = false;
      if (cells == nullptr || failed_)
        return;
      for (uint32_t i = 0; i < eb; ++i) {
        cells[i].node = bytes[i].node;
        cells[i].byte = bytes[i].byte;
        cells[i].pos = bytes[i].pos;
        cells[i].stored_as = bytes[i].stored_as;
      }
    }
    // The box fills [dst, dst + bytes) (the swizzle permutes 16-byte chunks inside it).
    if (ctx_.options.check_races) {
      if (in_flight_owner_.empty()) {
        in_flight_owner_.assign((shared_size_ + 3) / 4, 0);
        in_flight_pc_.assign((shared_size_ + 3) / 4, 0);
      }
      for (uint64_t a = *dst; a < *dst + plan.box.bytes; a += 4) {
        if (auto& page = shared_shadow_pages_[a >> 12])
          page->forget_writes(static_cast<uint32_t>(a & 4095), 4);
        const uint64_t word = a / 4;
        if (in_flight_owner_[word] == 0)
          ++in_flight_words_;
        in_flight_owner_[word] = kTensorLoadOwner;
        in_flight_pc_[word] = index;
      }
    }
    tensor_loads_.push_back(TensorLoad{t, current_pc_, *mbar, phase});
    const CtaMbarriers::Outcome o = mbarriers_.complete_tx(*mbar, plan.box.bytes);
    if (!o.ok()) {
      fail_unsupported(in, t, fmt::format("is undefined behaviour: {}", o.problem));
      return;
    }
    if (o.completed) {
      if (!mbarrier_order_.complete(*mbar, phase, stamp_)) {
        note_schedule_dependence(
            fmt::format("completes phase {} of the mbarrier at {:#x} (its tensor load) without "
                        "being ordered after a parity wait for phase {}: in another schedule "
                        "that wait could see phase {}, of the same parity, and wait for it (not "
                        "modeled)",
                        phase, *mbar, static_cast<int64_t>(phase) - 1, phase + 1),
            t);
      }
      if (!wake_mbarrier_waiters(*mbar))
        return;
    }
  }
}

std::optional<CtaRunner::TensorBoxOperands> CtaRunner::tensor_box_operands(const Inst& in,
                                                                           uint32_t t) {
  TensorBoxOperands box;
  const auto map = concrete_operand(in.srcs[0], t, "a tensor map address");
  if (!map)
    return std::nullopt;
  box.map = *map;
  for (uint32_t i = 0; i < in.groups[0]; ++i) {
    const auto c = concrete_operand(in.srcs[1 + i], t, "a tensor coordinate");
    if (!c)
      return std::nullopt;
    box.coords[i] = static_cast<int32_t>(static_cast<uint32_t>(*c));
  }
  return box;
}

bool CtaRunner::tensor_load_race(uint64_t word, uint64_t address, uint32_t t, AccessKind kind) {
  VOLTA_ASSERT(in_flight_pc_[word] < tensor_loads_.size(), "a marked word names its load");
  const TensorLoad& load = tensor_loads_[in_flight_pc_[word]];
  if (mbarrier_order_.ordered_after(named_, load.mbar, t, t / 32, load.phase, stamp_)) {
    if (kind == AccessKind::Write) { // from now on the race shadow orders the word's accesses
      in_flight_owner_[word] = 0;
      --in_flight_words_;
    }
    return false;
  }
  const Inst& in = prog_.insts[current_pc_];
  const uint64_t byte = std::max<uint64_t>(address, word * 4);
  const char* what = kind == AccessKind::Write    ? "write"
                     : kind == AccessKind::Atomic ? "atomic"
                                                  : "read";
  return report_shared_race(
      fmt::format("tensor-load-{} race", what), byte, t, load.thread, load.pc,
      fmt::format("data race on shared {}: {} by thread {} ('{}', PTX line {}) is not ordered "
                  "after the completion of phase {} of the mbarrier at {:#x}, which the tensor "
                  "load of thread {} (PTX line {}) that writes it completes: the copy may still "
                  "be landing (wait on the mbarrier phase first)",
                  describe_address(Space::Shared, byte), what, t, in.text, in.line, load.phase,
                  load.mbar, load.thread, prog_.insts[load.pc].line));
}

} // namespace volta::exec
