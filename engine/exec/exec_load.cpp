// Loads (ld) of the CTA runner: lane by lane through access(), and two warp paths that make
// access()'s lane-invariant checks once per instruction and then do, lane by lane in the same
// order, exactly what access() and the lane loop would do (the race shadow included):
//   * global loads from a read-only array at concrete aligned addresses (whole input elements
//     straight from the array's symbols, without the byte cells);
//   * shared loads inside one shared variable, with no cp.async of the CTA and no pending
//     atomic anywhere.
// Anything else (a symbolic or misaligned address, lanes in two arrays or outside any, another
// space) takes the lane loop, which reports what it finds.
#include <algorithm>
#include <bit>

#include "engine/exec/cta_runner.hpp"

namespace volta::exec {

CtaRunner::LoadShape CtaRunner::load_shape(const Inst& in) const {
  LoadShape shape;
  shape.elem = std::max<uint32_t>(1, width_of(in.type) / 8);
  shape.size = shape.elem * in.vec;
  shape.values = std::min<uint32_t>(in.vec, static_cast<uint32_t>(in.dsts.size()));
  shape.float_type = is_float(in.type);
  shape.sign = is_signed(in.type);
  shape.plain = shape.float_type && !shape.sign;
  // (A float loaded into a wider register is not plain: deliver_value zero-extends its bits.)
  for (uint32_t i = 0; i < shape.values; ++i)
    shape.plain &= in.dsts[i].kind == OpKind::Reg &&
                   width_of(prog_.registers[in.dsts[i].reg].type) == 8 * shape.elem;
  return shape;
}

void CtaRunner::exec_ld(const Inst& in, uint32_t w, uint32_t mask) {
  const LoadShape shape = load_shape(in);
  if ((mask & (mask - 1)) != 0) { // two lanes or more
    if (in.space == Space::Global && load_warp(in, shape, w, mask))
      return;
    if (in.space == Space::Shared && shared_load_warp(in, shape, w, mask))
      return;
  }
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = w * 32 + static_cast<uint32_t>(std::countr_zero(m));
    auto a = address_of(in.mem[0], t);
    if (!a)
      return;
    ByteCell* cells = access(in.space, *a, shape.size, shape.size, t, AccessKind::Read);
    if (!cells)
      return;
    deliver_load(in, shape, cells, t);
  }
}

bool CtaRunner::warp_addresses(const MemRef& m, uint32_t size, uint32_t w, uint32_t mask,
                               LaneBits& address, uint64_t& lo, uint64_t& hi) const {
  if (!m.has_base || !std::has_single_bit(size))
    return false;
  const size_t at = size_t{m.base} * row_stride_ + size_t{w} * 32;
  lo = UINT64_MAX;
  hi = 0;
  uint64_t misaligned = 0;
  ExprId any = 0;
  for (uint32_t bits = mask; bits != 0; bits &= bits - 1) {
    const size_t l = static_cast<size_t>(std::countr_zero(bits));
    any |= nodes_[at + l];
    address[l] = bits_[at + l] + static_cast<uint64_t>(m.offset);
    lo = std::min(lo, address[l]);
    hi = std::max(hi, address[l]);
    misaligned |= address[l] & (size - 1);
  }
  return any == 0 && misaligned == 0 && hi - lo <= UINT64_MAX - size;
}

bool CtaRunner::load_warp(const Inst& in, const LoadShape& shape, uint32_t w, uint32_t mask) {
  LaneBits address;
  uint64_t lo = 0, hi = 0;
  if (!warp_addresses(in.mem[0], shape.size, w, mask, address, lo, hi))
    return false;
  // What access() checks per lane, once: every lane inside one read-only array (no race shadow,
  // no write to refuse); no pending atomic (none can be in a read-only array, but the marker test
  // is cheap) and no cp.async of this CTA that a read could overtake.
  if (copies_issued_ || ctx_.markers_written.load(std::memory_order_acquire))
    return false;
  const Region* r = global_region(lo, hi - lo + shape.size);
  if (r == nullptr || !r->is_array ||
      (r->kind != launch::ArrayKind::In && r->kind != launch::ArrayKind::Index))
    return false;
  const bool lazy = r->kind == launch::ArrayKind::In;
  const uint32_t elem = shape.elem;
  if (lazy && elem == r->elem_width && (r->base & (elem - 1)) == 0) {
    // Whole elements of an input array: their symbols straight from the array's table of
    // symbols, without the byte cells (the same nodes the cells would hold). An input element
    // is integer data for an integer load, never float bits (stored_as of an input cell).
    const unsigned shift = static_cast<unsigned>(std::countr_zero(elem));
    const bool plain = shape.plain;
    if (plain && lo == hi) {
      // Every lane reads the same element (a row of K or B broadcast to the warp): its symbols
      // once, the same value for each lane.
      const uint64_t first = (lo - r->base) >> shift;
      for (uint32_t i = 0; i < shape.values; ++i) {
        Value v{0, ctx_.global.input_symbol(*r, first + i), true, false};
        tag_input(v, *r, elem); // the format the array declares (exec_formats.cpp)
        for (uint32_t bits = mask; bits != 0; bits &= bits - 1)
          set(in.dsts[i].reg, w * 32 + static_cast<uint32_t>(std::countr_zero(bits)), v);
      }
      return true;
    }
    for (uint32_t bits = mask; bits != 0; bits &= bits - 1) {
      const uint32_t l = static_cast<uint32_t>(std::countr_zero(bits));
      const uint64_t first = (address[l] - r->base) >> shift;
      for (uint32_t i = 0; i < shape.values; ++i) {
        Value v{0, ctx_.global.input_symbol(*r, first + i), true, false};
        tag_input(v, *r, elem);
        if (plain)
          set(in.dsts[i].reg, w * 32 + l, v);
        else
          deliver_value(in, shape, i, v, false, w * 32 + l);
      }
    }
    return true;
  }
  for (uint32_t bits = mask; bits != 0; bits &= bits - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(bits));
    GlobalMemory::Page& page = global_page(address[l]);
    ByteCell* cells = &page.cells[address[l] & (GlobalMemory::kPageSize - 1)];
    if (lazy)
      ctx_.global.materialize_inputs(page, address[l], shape.size);
    deliver_load(in, shape, cells, w * 32 + l);
  }
  return true;
}

bool CtaRunner::shared_load_warp(const Inst& in, const LoadShape& shape, uint32_t w,
                                 uint32_t mask) {
  LaneBits address;
  uint64_t lo = 0, hi = 0;
  if (!warp_addresses(in.mem[0], shape.size, w, mask, address, lo, hi))
    return false;
  // access()'s lane-invariant checks: bounds (every lane inside one shared variable), copies in
  // flight or issued by this CTA, pending atomics.
  if (in_flight_words_ != 0 || copies_issued_ ||
      ctx_.markers_written.load(std::memory_order_acquire))
    return false;
  if (named_.lanes_apart(w)) // a lane with a clock of its own: per lane (access())
    return false;
  if (hi - lo > UINT32_MAX - shape.size || hi >= shared_size_ || shared_size_ - hi < shape.size ||
      !inside_shared(lo, static_cast<uint32_t>(hi - lo) + shape.size))
    return false;
  const bool check = ctx_.options.check_races;
  const WarpSyncLog& syncs = warp_syncs_[w];
  // What the race shadow is told about each lane but its thread and lane, once.
  Accessor who{cta_,        0,           w,
               0,           stamp_,      warp_phase_[w],
               current_pc_, co_writers_, syncs.masks.empty() ? nullptr : &syncs,
               exit_log()};
  who.clock = named_.clock(w);
  ShadowPage* page = nullptr;
  uint64_t page_number = UINT64_MAX;
  for (uint32_t bits = mask; bits != 0; bits &= bits - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(bits));
    const uint32_t t = w * 32 + l;
    const uint64_t a = address[l];
    if (check) {
      if (a >> 12 != page_number) {
        page_number = a >> 12;
        auto& slot = shared_shadow_pages_[page_number];
        if (!slot)
          slot = std::make_unique<ShadowPage>(4096);
        page = slot.get();
      }
      const uint32_t offset = static_cast<uint32_t>(a & 4095);
      who.thread = t;
      who.lane = l;
      last_access_stamp_[t] = stamp_;
      Conflict c;
      uint32_t conflict_byte = 0;
      if (page->check_and_record(offset, shape.size, who, AccessKind::Read, c, conflict_byte))
          [[unlikely]] {
        if (!report_race(Space::Shared, a + (conflict_byte - offset), t, AccessKind::Read, c))
          return true; // the run stops, as after access() gives nullptr
      }
    }
    deliver_load(in, shape, &shared_[a], t);
  }
  return true;
}

void CtaRunner::deliver_load(const Inst& in, const LoadShape& shape, const ByteCell* cells,
                             uint32_t t) {
  if (shape.plain) {
    for (uint32_t i = 0; i < shape.values; ++i) {
      const ByteCell* at = cells + i * shape.elem;
      Value v = load_tagged(at, shape.elem); // the formats its stores left (exec_formats.cpp)
      v.fl = true;
      set(in.dsts[i].reg, t, v);
    }
    return;
  }
  for (uint32_t i = 0; i < shape.values; ++i) {
    const ByteCell* at = cells + i * shape.elem;
    const Value v = load_tagged(at, shape.elem);
    deliver_value(in, shape, i, v, stored_float(at->stored_as), t);
  }
}

void CtaRunner::deliver_value(const Inst& in, const LoadShape& shape, uint32_t i, Value v,
                              bool stored_float, uint32_t t) {
  const uint32_t elem = shape.elem;
  v.fl = shape.float_type || stored_float;
  // The destination register's width (64 when not a register): asked only by integer loads.
  auto register_width = [&] {
    return in.dsts[i].kind == OpKind::Reg ? width_of(prog_.registers[in.dsts[i].reg].type) : 64;
  };
  // Integer data loaded into a wider register is extended by the load's signedness
  // (ld.s32 into a 64-bit register sign-extends, ld.u32 zero-extends).
  if (v.symbolic() && !shape.float_type && in.dsts[i].kind == OpKind::Reg &&
      register_width() > 8 * elem) {
    const uint32_t rw = register_width();
    const ExprId narrow = int_view(v, in.type);
    if (narrow != ctx_.undef) {
      v = Value{0,
                b_.intop(symbolic::BitOpKind::Ext,
                         symbolic::IntType{symbolic::width_code(rw), shape.sign}, narrow,
                         symbolic::kNoExpr, symbolic::kNoExpr, symbolic::kNoExpr, 8 * elem),
                false};
    }
  }
  // Float data loaded into a wider register (ld.global.f32 into a .b64) is zero-extended, as the
  // emulator does: the register holds the bits of the loaded format, integer data, not a float of
  // the register's width (a later 64-bit read as f64 reinterprets those bits).
  if (v.symbolic() && shape.float_type && in.dsts[i].kind == OpKind::Reg &&
      register_width() > 8 * elem) {
    const uint32_t rw = register_width();
    const ExprId bits = int_view(v, in.type);
    if (bits != ctx_.undef) {
      v = Value{0,
                b_.intop(symbolic::BitOpKind::Ext,
                         symbolic::IntType{symbolic::width_code(rw), false}, bits,
                         symbolic::kNoExpr, symbolic::kNoExpr, symbolic::kNoExpr, 8 * elem),
                false};
    }
  }
  // A sub-register load of signed data sign-extends (ld.s8 / ld.s16 into a wider register).
  if (!v.symbolic() && shape.sign && elem < 8) {
    const int shift = 64 - 8 * static_cast<int>(elem);
    v.bits = static_cast<uint64_t>(static_cast<int64_t>(v.bits << shift) >> shift);
    const uint32_t rw = register_width();
    if (rw < 64 && rw != 0)
      v.bits &= (uint64_t{1} << rw) - 1;
  }
  set_dst(in.dsts[i], t, v);
}

} // namespace volta::exec
