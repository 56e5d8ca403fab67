// Memory instructions of the CTA runner: address resolution, bounds/alignment/race checks,
// stores, atomics, cp.async and calls (loads: exec_load.cpp).
#include <algorithm>
#include <bit>
#include <fmt/format.h>

#include "engine/exec/access_place.hpp"
#include "engine/exec/address_map.hpp"
#include "engine/exec/cta_runner.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::exec {

namespace {

const char* space_name(Space s) {
  switch (s) {
  case Space::Global:
    return "global";
  case Space::Shared:
    return "shared";
  case Space::Local:
    return "local";
  case Space::Param:
    return "param";
  case Space::Const:
    return "const";
  default:
    return "generic";
  }
}

const char* kind_word(AccessKind k) {
  switch (k) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  case AccessKind::NonCoherentRead:
    return "non-coherent read";
  default:
    return "atomic";
  }
}

} // namespace

bool CtaRunner::inside_shared(uint64_t address, uint32_t size) {
  // Consecutive accesses mostly hit the same variable: try the last one first.
  if (last_shared_extent_ < extents_.shared.size() &&
      holds(extents_.shared[last_shared_extent_], address, size))
    return true;
  const size_t e = extent_holding(extents_.shared, address, size);
  if (e == kNoExtent)
    return false;
  last_shared_extent_ = e;
  return true;
}

std::string CtaRunner::describe_address(Space space, uint64_t address) const {
  if (space == Space::Global) {
    if (const Region* r = ctx_.global.find(address, 1)) {
      const uint64_t offset = address - r->base;
      if (r->is_array) {
        return fmt::format(
            "{}[{}]{} (address 0x{:x})", r->name, offset / r->elem_width,
            offset % r->elem_width ? fmt::format(" byte {}", offset % r->elem_width) : "", address);
      }
      return fmt::format("{}+{} (address 0x{:x})", r->name, offset, address);
    }
    return fmt::format("address 0x{:x}", address);
  }
  for (const auto& v : prog_.variables) {
    if (v.space != space)
      continue;
    const uint64_t size = v.dynamic ? ctx_.config.dyn_shared_bytes : v.size;
    if (address >= v.address && address < v.address + size) {
      return fmt::format("{}+{} ({} offset 0x{:x})", v.name, address - v.address, space_name(space),
                         address);
    }
  }
  return fmt::format("{} offset 0x{:x}", space_name(space), address);
}

ByteCell* CtaRunner::report_out_of_bounds(Space space, uint64_t address, uint32_t size, uint32_t t,
                                          AccessKind kind, std::string what) {
  const Inst& in = prog_.insts[current_pc_];
  Failure f;
  f.verdict = Verdict::OutOfBounds;
  f.kind = fmt::format("out-of-bounds {}", kind == AccessKind::Read    ? "read"
                                           : kind == AccessKind::Write ? "write"
                                                                       : "atomic");
  f.space = space_name(space);
  f.address = address;
  f.location = std::move(what);
  f.message = fmt::format("{} of {} bytes at {} by thread {} ('{}', PTX line {})", f.kind, size,
                          f.location, t, in.text, in.line);
  f.first = site(t, current_pc_);
  failed_ = true;
  ctx_.report(cta_, std::move(f));
  return nullptr;
}

ByteCell* CtaRunner::report_misaligned(Space space, uint64_t address, uint32_t size,
                                       uint32_t alignment, uint32_t t) {
  const Inst& in = prog_.insts[current_pc_];
  Failure f;
  f.verdict = Verdict::OutOfBounds;
  f.kind = "misaligned address";
  f.space = space_name(space);
  f.address = address;
  f.location = describe_address(space, address);
  f.message =
      fmt::format("{}-byte access at {} is not {}-byte aligned (thread {}, '{}', PTX line {})",
                  size, f.location, alignment, t, in.text, in.line);
  f.first = site(t, current_pc_);
  failed_ = true;
  ctx_.report(cta_, std::move(f));
  return nullptr;
}

std::string CtaRunner::describe_outside_global(uint64_t address) const {
  const Region* near = ctx_.global.nearest(address);
  std::string what = fmt::format("address 0x{:x}", address);
  if (near != nullptr && near->is_array) {
    const int64_t delta = static_cast<int64_t>(address) - static_cast<int64_t>(near->base);
    const int64_t element = delta >= 0 ? delta / near->elem_width
                                       : -((-delta + near->elem_width - 1) / near->elem_width);
    what = fmt::format("{}[{}] (address 0x{:x}), {} {} ({} elements)", near->name, element, address,
                       delta < 0 ? "before the start of" : "past the end of", near->name,
                       near->size / near->elem_width);
  } else if (near != nullptr) {
    what += fmt::format(", near variable {}", near->name);
  }
  return what;
}

bool CtaRunner::note_race(Failure f) {
  if (ctx_.report_race(cta_, races_found_++, std::move(f)))
    return true;
  failed_ = true;
  return false;
}

bool CtaRunner::report_race(Space space, uint64_t byte_address, uint32_t t, AccessKind kind,
                            const Conflict& c) {
  const Inst& in = prog_.insts[current_pc_];
  if (kind == AccessKind::NonCoherentRead || c.previous == AccessKind::NonCoherentRead)
    return report_non_coherent_race(space, byte_address, t, kind, c);
  const bool partial_sync = c.approximate;
  Failure f;
  f.verdict = partial_sync ? Verdict::Unsupported : Verdict::DataRace;
  f.kind = fmt::format("{}-{} race", kind_word(c.previous), kind_word(kind));
  f.space = space_name(space);
  f.address = byte_address;
  f.location = describe_address(space, byte_address);
  f.first = site(t, current_pc_);
  f.second = site_of(c.cta, c.thread, c.pc);
  // CTAs by their coordinates, as every other message and report names them.
  const auto of_cta = [](const Site& s) {
    return fmt::format("thread {} of CTA ({},{},{})", s.thread, s.ctaid[0], s.ctaid[1], s.ctaid[2]);
  };
  const std::string who_now = c.cta == cta_ ? fmt::format("thread {}", t) : of_cta(*f.first);
  const std::string who_then =
      c.cta == cta_ ? fmt::format("thread {}", c.thread) : of_cta(*f.second);
  f.message = fmt::format(
      "data race on {} {}: {} by {} (PTX line {}) conflicts with {} by {} (PTX line {})", f.space,
      f.location, kind_word(kind), who_now, in.line, kind_word(c.previous), who_then,
      c.pc < prog_.insts.size() ? prog_.insts[c.pc].line : 0);
  if (partial_sync) {
    f.message += fmt::format("; {}, so the earlier access may in fact be ordered: this may be a "
                             "false alarm",
                             c.approximation != nullptr ? c.approximation : kMergedPhases);
  }
  return note_race(std::move(f));
}

bool CtaRunner::report_non_coherent_race(Space space, uint64_t byte_address, uint32_t t,
                                         AccessKind kind, const Conflict& c) {
  const Inst& in = prog_.insts[current_pc_];
  const bool reading_now = kind == AccessKind::NonCoherentRead;
  Failure f;
  f.verdict = Verdict::DataRace;
  f.kind = "non-coherent read of written data";
  f.space = space_name(space);
  f.address = byte_address;
  f.location = describe_address(space, byte_address);
  f.first = site(t, current_pc_);
  f.second = site_of(c.cta, c.thread, c.pc);
  const auto who = [&](const Site& s, uint32_t cta) {
    return cta == cta_ ? fmt::format("thread {}", s.thread)
                       : fmt::format("thread {} of CTA ({},{},{})", s.thread, s.ctaid[0],
                                     s.ctaid[1], s.ctaid[2]);
  };
  const uint32_t other_line = c.pc < prog_.insts.size() ? prog_.insts[c.pc].line : 0;
  const std::string reader = reading_now ? who(*f.first, cta_) : who(*f.second, c.cta);
  const std::string writer = reading_now ? who(*f.second, c.cta) : who(*f.first, cta_);
  const uint32_t read_line = reading_now ? in.line : other_line;
  const uint32_t write_line = reading_now ? other_line : in.line;
  const char* writes = (reading_now ? c.previous : kind) == AccessKind::Atomic
                           ? "updates it atomically"
                           : "writes it";
  f.message = fmt::format(
      "non-coherent load of bytes the kernel writes: {} reads {} {} through ld.global.nc "
      "(__ldg, ldu; PTX line {}) and {} {} (PTX line {}); the non-coherent path may return the "
      "old value of data the kernel writes, before or after the read and whatever orders them: "
      "it is only for data read-only for the whole kernel",
      reader, f.space, f.location, read_line, writer, writes, write_line);
  return note_race(std::move(f));
}

ByteCell* CtaRunner::access(Space space, uint64_t address, uint32_t size, uint32_t alignment,
                            uint32_t t, AccessKind kind, bool is_store_to_global) {
  if (space == Space::Generic)
    std::tie(space, address) = resolve_generic(address);
  const Inst& in = prog_.insts[current_pc_];
  auto out_of_bounds = [&](std::string what) -> ByteCell* {
    return report_out_of_bounds(space, address, size, t, kind, std::move(what));
  };
  const bool power_of_two = (alignment & (alignment - 1)) == 0;
  const bool misaligned =
      alignment > 1 && (power_of_two ? (address & (alignment - 1)) != 0 : address % alignment != 0);
  if (misaligned) [[unlikely]]
    return report_misaligned(space, address, size, alignment, t);
  ByteCell* cells = nullptr;
  ShadowPage* shadow = nullptr;
  uint32_t shadow_offset = 0;
  std::atomic_flag* lock = nullptr;
  switch (space) {
  case Space::Global: {
    const Region* r = global_region(address, size);
    if (r == nullptr) {
      return out_of_bounds(describe_outside_global(address));
    }
    const bool read_only =
        r->is_array && (r->kind == launch::ArrayKind::In || r->kind == launch::ArrayKind::Index);
    if (read_only && kind != AccessKind::Read) {
      fail_unsupported(
          in, t,
          fmt::format("writes {}, an array the launch declares read-only ({}); declare it "
                      "inout to verify kernels that update it",
                      describe_address(space, address), launch::to_string(r->kind)));
      return nullptr;
    }
    GlobalMemory::Page& page = global_page(address);
    cells = &page.cells[address & (GlobalMemory::kPageSize - 1)];
    // Symbols of input elements are created on first access.
    if (r->kind == launch::ArrayKind::In || r->kind == launch::ArrayKind::InOut)
      ctx_.global.materialize_inputs(page, address, size);
    // Read-only arrays are never written (refused above), so their reads cannot race: no
    // shadow for them.
    if (ctx_.options.check_races && !read_only) {
      lock = &page.lock;
      while (lock->test_and_set(std::memory_order_acquire)) {
      }
      if (!page.shadow)
        page.shadow = std::make_unique<ShadowPage>(GlobalMemory::kPageSize);
      shadow = page.shadow.get();
      shadow_offset = static_cast<uint32_t>(address & (GlobalMemory::kPageSize - 1));
    }
    if (prog_.uses_tensor_store) [[unlikely]] {
      if (!tensor_store_conflict(cells, address, size, t)) {
        if (lock != nullptr)
          lock->clear(std::memory_order_release);
        return nullptr;
      }
    }
    if (is_store_to_global) {
      for (uint32_t i = 0; i < size; ++i)
        cells[i].written |= kWrittenByStore;
    }
    break;
  }
  case Space::Shared: {
    if (!inside_shared(address, size) || address + size > shared_size_) {
      return out_of_bounds(describe_address(space, address));
    }
    if (!mbarriers_.empty() && !in_mbarrier_op_) [[unlikely]] {
      // The bytes of an mbarrier hold an opaque state (cta_mbarriers.hpp), as in the emulator.
      if (auto bar = mbarriers_.overlaps(address, size)) {
        fail_unsupported(
            in, t, CtaMbarriers::ordinary_access(address, size, kind != AccessKind::Read, *bar));
        return nullptr;
      }
    }
    cells = &shared_[address];
    if (store_source_bytes_ != 0 && kind != AccessKind::Read) [[unlikely]] {
      if (tensor_store_source_race(address, size, t))
        return nullptr;
    }
    if (wgmma_ && kind != AccessKind::Read && !in_async_proxy_)
        [[unlikely]] // a generic-proxy write
      wgmma_->unfenced.write(address, size, t);
    if (ctx_.options.check_races) {
      auto& page = shared_shadow_pages_[address >> 12];
      if (!page)
        page = std::make_unique<ShadowPage>(4096);
      shadow = page.get();
      shadow_offset = static_cast<uint32_t>(address & 4095);
    }
    break;
  }
  case Space::Local: {
    if (!inside_local(prog_, extents_, address, size))
      return out_of_bounds(describe_address(space, address));
    cells = &local_[size_t{t} * prog_.local_bytes + address];
    break;
  }
  case Space::Param: {
    if (address + size <= prog_.param_bytes && kind != AccessKind::Read) {
      fail_unsupported(in, t, "writes a kernel parameter");
      return nullptr;
    }
    switch (param_area(prog_, address, size)) {
    case ParamArea::KernelParam:
      cells = &ctx_.params[address];
      break;
    case ParamArea::CallScratch:
      cells = &scratch_[size_t{t} * prog_.scratch_param_bytes + (address - prog_.param_bytes)];
      break;
    case ParamArea::Outside: // padding between parameters included
      return out_of_bounds(describe_address(space, address));
    }
    break;
  }
  case Space::Const: {
    if (kind != AccessKind::Read) {
      fail_unsupported(in, t, "writes constant memory");
      return nullptr;
    }
    // .const addresses carry the const window (symbols are placed there).
    if (!inside_const(ctx_.constants.size(), address, size)) {
      return out_of_bounds(describe_address(space, address));
    }
    cells = &ctx_.constants[address - kConstWindow];
    break;
  }
  default:
    fail_unsupported(in, t, "accesses an unknown state space");
    return nullptr;
  }
  if (in_flight_words_ != 0 && space == Space::Shared && !completing_copies_ &&
      ctx_.options.check_races) [[unlikely]] {
    if (in_flight_race(address, size, t, kind))
      return nullptr;
  }
  if (copies_issued_ && (!uncommitted_[t].empty() || !committed_[t].empty())) {
    if (copy_hazard(space, address, size, t, kind)) {
      if (lock)
        lock->clear(std::memory_order_release);
      return nullptr;
    }
  }
  if (shadow != nullptr) {
    const Accessor a = accessor(t);
    last_access_stamp_[t] = stamp_;
    Conflict c;
    uint32_t conflict_byte = 0;
    // A load through the non-coherent path (ld.global.nc, ldu) is a read of its own kind.
    const AccessKind shadow_kind =
        kind == AccessKind::Read && in.non_coherent && in.op == XOp::Ld && !completing_copies_
            ? AccessKind::NonCoherentRead
            : kind;
    const bool raced =
        shadow->check_and_record(shadow_offset, size, a, shadow_kind, c, conflict_byte,
                                 kind == AccessKind::Write ? shadow_values_ : StoredElements{});
    if (lock)
      lock->clear(std::memory_order_release);
    // After a race the access is made as any other (the run goes on, for the races after it).
    if (raced) [[unlikely]] {
      if (!report_race(space, address + (conflict_byte - shadow_offset), t, shadow_kind, c))
        return nullptr;
    }
  }
  // A location with pending atomics is settled before a plain access sees it.
  if (kind != AccessKind::Atomic && ctx_.markers_written.load(std::memory_order_acquire)) {
    for (uint32_t i = 0; i < size; ++i) {
      if (cells[i].node == ctx_.pending_marker) {
        materialize_atomics(space == Space::Global ? address : (address | (uint64_t{1} << 63)),
                            cells, size);
        break;
      }
    }
  }
  return cells;
}

void CtaRunner::materialize_atomics(uint64_t key, ByteCell* cells, uint32_t size) {
  // Find the pending entries overlapping this access (keys are element start addresses).
  auto settle = [&](std::map<uint64_t, PendingAtomic>& table, uint64_t start,
                    ByteCell* first_cell) {
    for (uint64_t a = start >= 8 ? start - 7 : 0; a < start + size; ++a) {
      auto it = table.find(a);
      if (it == table.end())
        continue;
      PendingAtomic p = std::move(it->second);
      table.erase(it);
      const Value v = materialize(p, b_, ctx_.undef);
      store_value(first_cell + (static_cast<int64_t>(a) - static_cast<int64_t>(start)), v, p.width);
    }
  };
  if (key >> 63) {
    settle(shared_atomics_, key & ~(uint64_t{1} << 63), cells);
  } else {
    std::lock_guard guard(ctx_.atomics_mutex);
    settle(ctx_.atomics, key, cells);
  }
}

Value CtaRunner::low_bytes_of(Value v, const Operand& reg, uint32_t bytes, const Inst& in,
                              uint32_t t) {
  const uint32_t keep = 8 * bytes;
  if (v.node == ctx_.undef || ctx_.store.op(v.node) == symbolic::Op::Undef)
    return v;
  uint32_t width = 0;
  const symbolic::ValueKind kind = symbolic::kind_of(ctx_.store, v.node, &width);
  if (kind == symbolic::ValueKind::Pred)
    return v;
  if (kind == symbolic::ValueKind::Real || kind == symbolic::ValueKind::Any) {
    // A float (or a constant) is as wide as its format: 16-bit data is tagged with its format,
    // other float data fills its register (an f32 in a .b32, an f64 in a .b64).
    width = v.bf16 || v.f16 ? 16 : width_of(prog_.registers[reg.reg].type);
    if (width == 64 && keep < 64 && (kind == symbolic::ValueKind::Real || v.fl)) {
      // A .b64 register holds an f64, or an f32 loaded zero-extended (ld.global.b32 %rd):
      // which encoding's low bytes are stored, the model does not know.
      fail_unsupported(
          in, t,
          "uses the low bytes of a 64-bit register holding float data (a narrower store, or "
          "a cvt of a narrower type), whose encoding (f64, or a narrower float zero-extended) "
          "the model does not track");
      return v;
    }
  }
  if (width == 0 || width <= keep)
    return v; // the whole value fits the store (or its width is unknown: a fresh value)
  if (kind == symbolic::ValueKind::Bits) {
    // Packed halves (f16x2 stored by st.b16) keep the low half with its format.
    // (The tags of the whole, as the unpacking mov gives them.)
    return Value{0, b_.extract(v.node, 0, static_cast<int>(keep)), v.fl, v.bf16, v.f16};
  }
  // The low bits of the value's bit pattern: an integer, whatever the value was (the low half of
  // an f32's bits is no f16 of it).
  // A 16-bit float stored as bytes: the byte cells split it. An untyped 16-bit value (a select
  // of `mov.b16` constants) is bits like an integer's: st.s8 of 0xFFFF stores 0xFF.
  const bool untyped_bits =
      kind == symbolic::ValueKind::Any && !v.fl && !v.f16 && !v.bf16 && width == 16;
  if (width != 32 && width != 64 && kind != symbolic::ValueKind::Int && !untyped_bits)
    return v;
  const ExprId bits = kind == symbolic::ValueKind::Int || untyped_bits
                          ? v.node
                          : int_view(v, width == 64 ? ValType::U64 : ValType::U32);
  return Value{0, b_.intop(symbolic::BitOpKind::Ext,
                           symbolic::IntType{symbolic::width_code(keep), false}, bits,
                           symbolic::kNoExpr, symbolic::kNoExpr, symbolic::kNoExpr, width)};
}

void CtaRunner::exec_st(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t elem = std::max<uint32_t>(1, width_of(in.type) / 8);
  const uint32_t n = in.vec;
  const uint32_t count = std::min<uint32_t>({n, static_cast<uint32_t>(in.srcs.size()), 8u});
  // Every lane's address and values first: lanes of the warp that store to one location in this
  // one instruction are one store (below).
  // Not value-initialized (a memset per instruction): only the lanes of `mask` are read, and
  // each is written below before any read.
  std::array<uint64_t, 32> addresses;
  if (store_values_.empty())
    store_values_.resize(32 * 8); // reused: no initialization per instruction
  auto values = [&](uint32_t lane) { return &store_values_[lane * 8]; };
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
    const uint32_t t = base + l;
    auto a = address_of(in.mem[0], t);
    if (!a)
      return;
    addresses[l] = *a;
    for (uint32_t i = 0; i < count; ++i) {
      Value& v = values(l)[i];
      v = read(in.srcs[i], t);
      if (in.srcs[i].kind == OpKind::Imm && in.srcs[i].imm_is_float && in.srcs[i].imm_width == 64 &&
          elem == 4) {
        v.bits = std::bit_cast<uint32_t>(static_cast<float>(std::bit_cast<double>(v.bits)));
      }
      const symbolic::Op op = v.symbolic() ? ctx_.store.op(v.node) : symbolic::Op::Const;
      if (op == symbolic::Op::RawBits) {
        const auto& nd = ctx_.store.node(v.node);
        v = Value{uint64_t{nd.b} << 32 | nd.a, 0};
      }
      // A store narrower than its value keeps the value's low bytes (st.u16 of a 32-bit
      // register): concrete bits are masked, symbolic data truncated (below).
      if (!v.symbolic() && elem < 8)
        v.bits &= (uint64_t{1} << (8 * elem)) - 1;
      else if (v.symbolic() && elem < 8 && in.srcs[i].kind == OpKind::Reg)
        v = low_bytes_of(v, in.srcs[i], elem, in, t);
      // A float store of a select of integer bit patterns (selp.b32 1, 0 stored by st.f32)
      // stores the floats those bits encode, as a float instruction reads them (real_of): not the
      // integers 1 and 0 as numbers, which a float store would otherwise tag as float data.
      if (v.symbolic() && !v.fl && is_float(in.type) &&
          ctx_.store.op(v.node) == symbolic::Op::Select &&
          symbolic::kind_of(ctx_.store, v.node) == symbolic::ValueKind::Any) {
        b_.set_stream(&streams_[t]);
        v = Value{0, float_view_of_bits_select(v.node, in.type), true};
      }
    }
    if (failed_)
      return;
  }
  // Several lanes of one warp storing to one location in one instruction: CUDA guarantees that
  // exactly one lane's store lands. Under the benign rule, provably equal values (the same
  // concrete bits, or provably the same bits: provably_same_store) make that one store,
  // performed by the lowest lane on behalf of all (no race among them); values that may differ
  // are a write conflict, and so is every pair under the strict rule. A location out of bounds
  // is reported as such by access(), never as a conflict.
  // Per leading lane: the lanes it stores for; zeroed only where the search below runs (it is
  // read only when that search found followers).
  std::array<uint32_t, 32> group;
  uint32_t followers = 0; // lanes whose store a lower lane performs
  // Only shared and global memory are shared by the lanes: a local or param address names
  // each thread's own bytes.
  auto shared_by_lanes = [&](uint64_t a) {
    const Space space = in.space == Space::Generic ? resolve_generic(a).first : in.space;
    return space == Space::Shared || space == Space::Global;
  };
  if (std::popcount(mask) > 1 && shared_by_lanes(addresses[std::countr_zero(mask)])) {
    bool increasing = true;
    uint64_t previous = 0;
    bool first = true;
    for (uint32_t m = mask; m != 0 && increasing; m &= m - 1) {
      const uint64_t a = addresses[static_cast<uint32_t>(std::countr_zero(m))];
      increasing = first || a > previous;
      previous = a;
      first = false;
    }
    if (!increasing) { // the common case (distinct, increasing addresses) skips the search
      group.fill(0);
      // The first of the stored values where lanes x and y may differ (count: none).
      auto first_difference = [&](uint32_t x, uint32_t y) {
        for (uint32_t i = 0; i < count; ++i) {
          if (!provably_same_store(values(x)[i], values(y)[i]))
            return i;
        }
        return count;
      };
      const bool benign = ctx_.options.benign_races;
      // Sorted by (address, lane): the lanes of one location are adjacent, lowest lane first.
      std::array<std::pair<uint64_t, uint32_t>, 32> order;
      uint32_t k = 0;
      for (uint32_t m = mask; m != 0; m &= m - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
        order[k++] = {addresses[l], l};
      }
      std::sort(order.begin(), order.begin() + k);
      for (uint32_t i = 1, leader = order[0].second; i < k; ++i) {
        if (order[i].first != order[i - 1].first) {
          leader = order[i].second;
          continue;
        }
        const uint32_t y = order[i].second;
        if (!shared_by_lanes(addresses[y]) || !store_in_bounds(in.space, addresses[y], elem * n))
          continue;
        // Under the strict rule every pair is a conflict; its message says whether the values
        // were provably equal.
        if (const uint32_t d = first_difference(leader, y); !benign || d < count) {
          const uint32_t shown = d < count ? d : 0;
          if (!report_store_conflict(in, addresses[y], base + y, base + leader, values(y)[shown],
                                     values(leader)[shown], d >= count))
            return;
          continue; // lane y stores on its own, after its leader
        }
        group[leader] |= 1u << y;
        followers |= 1u << y;
      }
    }
  }
  for (uint32_t m = mask & ~followers; m != 0; m &= m - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
    const uint32_t t = base + l;
    const uint64_t a = addresses[l];
    const bool global = in.space == Space::Global ||
                        (in.space == Space::Generic && resolve_generic(a).first == Space::Global);
    co_writers_ = followers != 0 ? group[l] : 0;
    for (uint32_t i = 0; i < count; ++i) {
      const Value& v = values(l)[i];
      // Concrete bits are the bytes stored whatever their tags; a node's bits depend on the
      // format it is stored in.
      const uint8_t tags =
          v.symbolic() ? static_cast<uint8_t>((v.fl ? 1 : 0) | (v.bf16 ? 2 : 0) | (v.f16 ? 4 : 0))
                       : 0;
      shadow_elements_[i] = StoredElement{v.symbolic() ? uint64_t{v.node} : v.bits,
                                          ctx_.store_generation, v.symbolic(), tags};
    }
    shadow_values_ = StoredElements{shadow_elements_.data(), count, elem};
    ByteCell* cells = access(in.space, a, elem * n, elem * n, t, AccessKind::Write, global);
    shadow_values_ = StoredElements{};
    co_writers_ = 0;
    if (!cells)
      return;
    for (uint32_t i = 0; i < count; ++i) {
      const Value v = values(l)[i];
      // Float data moved through integer registers stays float data, of its format
      // (exec_formats.cpp).
      const uint8_t stored_as = stored_as_of(v, in.type, elem);
      store_value(cells + i * elem, v, elem);
      if (global && ctx_.options.origins != nullptr) [[unlikely]]
        origins_.stored[a + i * elem] = current_pc_;
      for (uint32_t k = 0; k < elem; ++k)
        cells[i * elem + k].stored_as = stored_as;
    }
  }
}

std::string CtaRunner::describe_value(Value v) const {
  if (!v.symbolic())
    return fmt::format("0x{:x}", v.bits);
  // The serial of an atomic's return value depends on the schedule of the CTAs: keep it out
  // of the report, which must be the same on every run.
  if (ctx_.store.node(v.node).taint & symbolic::kTaintAtomicResult)
    return "a value computed from an atomic's return value";
  return symbolic::to_sexpr(ctx_.store, v.node, 120);
}

bool CtaRunner::provably_same_store(const Value& a, const Value& b) {
  if (a.symbolic() != b.symbolic())
    return false;
  if (!a.symbolic())
    return a.bits == b.bits;
  return a.fl == b.fl && a.bf16 == b.bf16 && a.f16 == b.f16 &&
         ctx_.bit_equality.same_bits(a.node, b.node);
}

bool CtaRunner::store_in_bounds(Space space, uint64_t address, uint32_t size) {
  if (space == Space::Generic)
    std::tie(space, address) = resolve_generic(address);
  switch (space) {
  case Space::Global:
    return global_region(address, size) != nullptr;
  case Space::Shared:
    return inside_shared(address, size) && address + size <= shared_size_;
  default:
    return true;
  }
}

bool CtaRunner::report_store_conflict(const Inst& in, uint64_t address, uint32_t t1, uint32_t t2,
                                      Value v1, Value v2, bool equal) {
  Space space = in.space;
  if (space == Space::Generic)
    std::tie(space, address) = resolve_generic(address);
  Failure f;
  f.verdict = Verdict::DataRace;
  f.kind = "write-write race";
  f.space = space_name(space);
  f.address = address;
  f.location = describe_address(space, address);
  f.first = site(t1, current_pc_);
  f.second = site(t2, current_pc_);
  if (equal) {
    f.message = fmt::format(
        "data race on {} {}: threads {} and {} (lanes {} and {} of warp {}) store to it in one "
        "instruction '{}' (PTX line {}) provably equal values ({}); under --strict-races every "
        "unordered pair of writes is a race, equal values or not",
        f.space, f.location, t2, t1, t2 % 32, t1 % 32, t1 / 32, in.text, in.line,
        describe_value(v2));
  } else {
    f.message = fmt::format(
        "data race on {} {}: threads {} and {} (lanes {} and {} of warp {}) store to it in one "
        "instruction '{}' (PTX line {}) values that may differ ({} and {}); only one of the "
        "stores lands, which one depends on the hardware",
        f.space, f.location, t2, t1, t2 % 32, t1 % 32, t1 / 32, in.text, in.line,
        describe_value(v2), describe_value(v1));
  }
  return note_race(std::move(f));
}

namespace {
// Two atom.inc / atom.dec limits are the same function's: equal concrete bits, or one node
// (hash-consed: the same term, a parameter symbol, say).
bool same_limit(const Value& a, const Value& b) {
  if (a.symbolic() || b.symbolic())
    return a.node == b.node;
  return (a.bits & 0xffffffffu) == (b.bits & 0xffffffffu);
}
} // namespace

void CtaRunner::exec_atom(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const auto op = static_cast<AtomOp>(in.sub);
  const uint32_t elem = std::max<uint32_t>(1, width_of(in.type) / 8);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    auto a = address_of(in.mem[0], t);
    if (!a)
      return;
    Value x = read(in.srcs[0], t);
    if (failed_)
      return;
    // Integer atomics act on the bits of integer data: float data (atomicMax((int*)p,
    // __float_as_int(x))) enters as its bit pattern, an integer, not as a real.
    const bool integer_atomic = !is_float(in.type);
    if (integer_atomic && x.symbolic())
      x = Value{0, int_view(x, in.type)};
    const bool bitwise = op == AtomOp::And || op == AtomOp::Or || op == AtomOp::Xor;
    // inc/dec with one limit apply the same function to the location every time, so their
    // final value is the same in every order (their return values are not).
    const bool wrapping = op == AtomOp::Inc || op == AtomOp::Dec;
    const bool order_free =
        op == AtomOp::Add || op == AtomOp::Min || op == AtomOp::Max || bitwise || wrapping;
    if (!order_free) {
      fail_unsupported(in, t,
                       "is an atomic whose result depends on the order of the threads (exch, cas)");
      return;
    }
    if (bitwise && x.symbolic()) {
      fail_unsupported(in, t, "applies a bitwise atomic to data");
      return;
    }
    Space space = in.space;
    uint64_t address = *a;
    if (space == Space::Generic)
      std::tie(space, address) = resolve_generic(address);
    if (space != Space::Global && space != Space::Shared) {
      fail_unsupported(in, t, "is an atomic outside global and shared memory");
      return;
    }
    ByteCell* cells =
        access(space, address, elem, elem, t, AccessKind::Atomic, space == Space::Global);
    if (!cells)
      return;
    // A float atomic's concrete operand or starting value that is a NaN has no real value: the
    // sum is a NaN on a GPU whatever the other terms are (materialize() would otherwise read it
    // as 0: a false EQUIVALENT, fuzzer finding 13:50564).
    auto nan_bits = [&](const Value& v) {
      if (integer_atomic || v.symbolic())
        return false;
      auto& s = ctx_.store;
      switch (in.type) {
      case ValType::F64:
        return !s.float_bits(v.bits, 64).has_value();
      case ValType::F32:
        return !s.float_bits(v.bits & 0xffffffffu, 32).has_value();
      case ValType::BF16:
        return !s.bf16_bits(static_cast<uint16_t>(v.bits)).has_value();
      case ValType::BF16x2:
        return !s.bf16_bits(static_cast<uint16_t>(v.bits)).has_value() ||
               !s.bf16_bits(static_cast<uint16_t>(v.bits >> 16)).has_value();
      case ValType::F16x2:
        return !s.float_bits(v.bits & 0xffff, 16).has_value() ||
               !s.float_bits((v.bits >> 16) & 0xffff, 16).has_value();
      default:
        return !s.float_bits(v.bits & 0xffff, 16).has_value();
      }
    };
    if (nan_bits(x) || nan_bits(load(cells, elem))) {
      fail_unsupported(in, t, "is a float atomic on a NaN (its operand or the location's value)");
      return;
    }
    // Adds the contribution; returns why it cannot be (nullptr: added).
    auto add_to = [&](std::map<uint64_t, PendingAtomic>& table) -> const char* {
      auto it = table.find(address);
      if (it == table.end()) {
        PendingAtomic p;
        p.op = op;
        p.type = in.type;
        p.width = elem;
        p.base = load(cells, elem);
        if (integer_atomic && p.base.symbolic() && p.base.node != ctx_.undef)
          p.base = Value{0, int_view(p.base, in.type)};
        it = table.emplace(address, std::move(p)).first;
        ctx_.markers_written.store(true, std::memory_order_release);
        for (uint32_t i = 0; i < elem; ++i) {
          cells[i].node = ctx_.pending_marker;
          cells[i].pos = static_cast<uint8_t>(i);
        }
      } else if (it->second.op != op || it->second.type != in.type) {
        return "mixes different atomic operations on one location";
      } else if (wrapping && !it->second.contributions.empty() &&
                 !same_limit(it->second.contributions.front().value, x)) {
        return "applies atom.inc / atom.dec with different limits to one location (the result "
               "depends on the order of the threads)";
      }
      it->second.contributions.push_back(AtomicContribution{cta_, t, atomic_sequence_++, x});
      return nullptr;
    };
    const char* refused;
    if (space == Space::Global) {
      std::lock_guard guard(ctx_.atomics_mutex);
      refused = add_to(ctx_.atomics);
    } else {
      refused = add_to(shared_atomics_);
    }
    if (refused != nullptr) {
      fail_unsupported(in, t, refused);
      return;
    }
    if (in.op == XOp::Atom && !in.dsts.empty() && in.dsts[0].kind == OpKind::Reg) {
      // The old value depends on the order of the threads: an unknown, fresh at every dynamic
      // execution (two threads' tickets are not equal), tainted so that an output depending on
      // it is reported rather than compared. The serial only keeps the nodes apart: it never
      // appears in a report, so its schedule-dependent numbering does not matter.
      const uint32_t serial = ctx_.next_fresh.fetch_add(1, std::memory_order_relaxed);
      set_dst(
          in.dsts[0], t,
          Value{0, ctx_.store.intern(symbolic::Node{
                       symbolic::Op::Fresh, static_cast<uint8_t>(symbolic::FreshKind::AtomicOld), 0,
                       serial, in.line, 0})});
    }
  }
}

void CtaRunner::exec_cp_async(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const auto extra = static_cast<CpAsyncExtra>(in.sub);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    auto dst = address_of(in.mem[0], t);
    auto src = address_of(in.mem[1], t);
    if (!dst || !src)
      return;
    auto size = concrete_operand(in.srcs[0], t, "a copy size");
    if (!size)
      return;
    if (*size != 4 && *size != 8 && *size != 16) {
      fail_unsupported(in, t, fmt::format("copies {} bytes (cp.async copies 4, 8 or 16)", *size));
      return;
    }
    // How many bytes come from the source (PTX ISA, cp.async): all of them, src-size of them
    // (the rest of the destination is zero-filled; a src-size above cp-size is undefined), or
    // none when the ignore-src predicate is true.
    uint64_t src_size = *size;
    if (extra == CpAsyncExtra::SrcSize) {
      auto s = concrete_operand(in.srcs[1], t, "a source size");
      if (!s)
        return;
      if (*s > *size) {
        fail_unsupported(in, t,
                         fmt::format("has a src-size of {} bytes, above its cp-size of {} (the PTX "
                                     "ISA leaves that undefined)",
                                     *s, *size));
        return;
      }
      src_size = *s;
    } else if (extra == CpAsyncExtra::IgnoreSrc) {
      auto p = concrete_operand(in.srcs[1], t, "the ignore-src predicate");
      if (!p)
        return;
      const bool ignore = ((*p & 1u) != 0) != in.srcs[1].negated;
      src_size = ignore ? 0 : *size;
    }
    // The global read is checked and done now; the shared write happens when the thread waits
    // for the group. Until then the thread must not touch either range (copy_hazard).
    uint64_t d = *dst;
    if (in_window(d, kSharedWindow))
      d -= kSharedWindow;
    PendingCopy copy{
        d,           *src,  static_cast<uint32_t>(*size), static_cast<uint32_t>(src_size),
        current_pc_, stamp_};
    if (src_size > 0) {
      const ByteCell* src_cells =
          access(Space::Global, *src, copy.src_size, copy.size, t, AccessKind::Read);
      if (!src_cells)
        return;
      // The source bytes as they are: a copy of part of an element keeps its pieces (a partial
      // src-size of f16 data copies whole halves; of f32 data, the low bytes of a float).
      std::copy(src_cells, src_cells + copy.src_size, copy.bytes.begin());
    }
    for (uint32_t i = copy.src_size; i < copy.size; ++i)
      copy.bytes[i] = ByteCell{}; // zero-filled: concrete 0 bytes
    // The copy may write its destination at any time from now until the wait that completes it:
    // check the destination now as a write (against every access not ordered before the issue),
    // and mark it in flight until then (against every later access by another thread).
    if (!access(Space::Shared, d, copy.size, copy.size, t, AccessKind::Write))
      return;
    if (ctx_.options.check_races)
      mark_in_flight(copy, t);
    uncommitted_[t].push_back(copy);
    copies_issued_ = true;
  }
}

void CtaRunner::mark_in_flight(const PendingCopy& c, uint32_t t) {
  if (in_flight_owner_.empty()) {
    in_flight_owner_.assign((shared_size_ + 3) / 4, 0);
    in_flight_pc_.assign((shared_size_ + 3) / 4, 0);
  }
  for (uint64_t word = c.dst / 4; word < (c.dst + c.size + 3) / 4; ++word) {
    if (in_flight_owner_[word] == 0)
      ++in_flight_words_;
    in_flight_owner_[word] = t + 1;
    in_flight_pc_[word] = c.pc;
  }
}

void CtaRunner::clear_in_flight(const PendingCopy& c, uint32_t t) {
  if (in_flight_owner_.empty())
    return;
  for (uint64_t word = c.dst / 4; word < (c.dst + c.size + 3) / 4; ++word) {
    if (in_flight_owner_[word] == t + 1) {
      in_flight_owner_[word] = 0;
      --in_flight_words_;
    }
  }
}

Accessor CtaRunner::accessor(uint32_t t) const {
  const uint32_t w = t / 32;
  const WarpSyncLog& syncs = warp_syncs_[w];
  Accessor a{cta_,
             t,
             w,
             t % 32,
             stamp_,
             warp_phase_[w],
             current_pc_,
             co_writers_,
             syncs.masks.empty() ? nullptr : &syncs,
             exit_log(),
             ctx_.options.benign_races ? &ctx_.bit_equality : nullptr};
  a.clock = named_.thread_clock(t); // its own when it acquired alone
  return a;
}

bool CtaRunner::in_flight_race(uint64_t address, uint32_t size, uint32_t t, AccessKind kind) {
  for (uint64_t word = address / 4; word < (address + size + 3) / 4; ++word) {
    const uint32_t owner = word < in_flight_owner_.size() ? in_flight_owner_[word] : 0;
    if (owner == kTensorLoadOwner) {
      if (tensor_load_race(word, address, t, kind))
        return true;
      continue;
    }
    if (owner == 0 || owner == t + 1)
      continue; // the issuing thread's own accesses are copy_hazard's
    const uint32_t u = owner - 1;
    const uint32_t copy_pc = in_flight_pc_[word];
    const Inst& in = prog_.insts[current_pc_];
    const uint64_t byte = std::max<uint64_t>(address, word * 4);
    return report_shared_race(
        fmt::format("cp.async-{} race", kind_word(kind)), byte, t, u, copy_pc,
        fmt::format("data race on shared {}: {} by thread {} ('{}', PTX line {}) while the "
                    "cp.async of thread {} (PTX line {}) that writes it is in flight; a barrier "
                    "does not complete a cp.async: thread {} must wait for it (cp.async.wait_group "
                    "/ wait_all) before a barrier that orders this access",
                    describe_address(Space::Shared, byte), kind_word(kind), t, in.text, in.line, u,
                    prog_.insts[copy_pc].line, u)); // one report per access
  }
  return false;
}

bool CtaRunner::report_shared_race(std::string kind, uint64_t byte, uint32_t t, uint32_t other,
                                   uint32_t other_pc, std::string message) {
  Failure f;
  f.verdict = Verdict::DataRace;
  f.kind = std::move(kind);
  f.space = "shared";
  f.address = byte;
  f.location = describe_address(Space::Shared, byte);
  f.first = site(t, current_pc_);
  f.second = site(other, other_pc);
  f.message = std::move(message);
  return !note_race(std::move(f));
}

void CtaRunner::complete_copies(uint32_t t, const std::vector<PendingCopy>& group) {
  const uint32_t saved_pc = current_pc_;
  completing_copies_ = true;
  for (const auto& c : group) {
    if (failed_)
      break;
    current_pc_ = c.pc;
    clear_in_flight(c, t);
    if (source_overwritten(c, t))
      break;
    ByteCell* cells = access(Space::Shared, c.dst, c.size, c.size, t, AccessKind::Write);
    if (!cells)
      break;
    for (uint32_t i = 0; i < c.size; ++i) {
      cells[i].node = c.bytes[i].node;
      cells[i].byte = c.bytes[i].byte;
      cells[i].pos = c.bytes[i].pos;
      cells[i].stored_as = c.bytes[i].stored_as;
    }
  }
  completing_copies_ = false;
  current_pc_ = saved_pc;
}

bool CtaRunner::source_overwritten(const PendingCopy& c, uint32_t t) {
  if (!ctx_.options.check_races)
    return false;
  for (uint32_t i = 0; i < c.src_size; ++i) {
    GlobalMemory::Page& page = global_page(c.src + i);
    while (page.lock.test_and_set(std::memory_order_acquire)) {
    }
    const ByteShadow* shadow =
        page.shadow
            ? &page.shadow->byte(static_cast<uint32_t>((c.src + i) & (GlobalMemory::kPageSize - 1)))
            : nullptr;
    const bool overwritten = shadow != nullptr && shadow->w_stamp != 0 &&
                             (shadow->w_cta != cta_ || shadow->w_thread != t) &&
                             (shadow->w_cta != cta_ || shadow->w_stamp >= c.issue_stamp);
    const uint32_t w_cta = shadow ? shadow->w_cta : 0, w_thread = shadow ? shadow->w_thread : 0,
                   w_pc = shadow ? shadow->w_pc : 0;
    page.lock.clear(std::memory_order_release);
    if (!overwritten)
      continue;
    Failure f;
    f.verdict = Verdict::DataRace;
    f.kind = "write-read race";
    f.space = "global";
    f.address = c.src + i;
    f.location = describe_address(Space::Global, c.src + i);
    f.message = fmt::format(
        "data race on global {}: thread {} wrote it (PTX line {}) while the cp.async of thread {} "
        "(PTX line {}) that reads it was in flight",
        f.location, w_thread, w_pc < prog_.insts.size() ? prog_.insts[w_pc].line : 0, t,
        prog_.insts[c.pc].line);
    f.first = site(t, c.pc);
    f.second = site_of(w_cta, w_thread, w_pc);
    return !note_race(std::move(f)); // one report per copy (the copy is then made)
  }
  return false;
}

bool CtaRunner::copy_hazard(Space space, uint64_t address, uint32_t size, uint32_t t,
                            AccessKind kind) {
  if (completing_copies_)
    return false;
  auto overlaps = [&](uint64_t start, uint32_t length) {
    return address < start + length && start < address + size;
  };
  Failure f;
  auto check = [&](const PendingCopy& c) {
    const bool on_destination = space == Space::Shared && overlaps(c.dst, c.size);
    const bool on_source =
        space == Space::Global && kind != AccessKind::Read && overlaps(c.src, c.src_size);
    if (!on_destination && !on_source)
      return false;
    f.verdict = Verdict::DataRace;
    f.kind = "cp.async hazard";
    f.space = space == Space::Shared ? "shared" : "global";
    f.address = address;
    f.location = describe_address(space, address);
    f.message =
        fmt::format("thread {} {} {} while its cp.async (PTX line {}) that {} it has not completed "
                    "(no cp.async.wait_group in between)",
                    t, kind == AccessKind::Read ? "reads" : "writes", f.location,
                    prog_.insts[c.pc].line, on_destination ? "writes" : "reads");
    f.first = site(t, current_pc_);
    f.second = site(t, c.pc);
    return true;
  };
  // One report per access, against the first such copy (the access is then made).
  for (const auto& c : uncommitted_[t]) {
    if (check(c))
      return !note_race(std::move(f));
  }
  for (const auto& g : committed_[t]) {
    for (const auto& c : g) {
      if (check(c))
        return !note_race(std::move(f));
    }
  }
  return false;
}

void CtaRunner::exec_cp_async_wait(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    size_t keep = 0;
    if (in.sub == 0) {
      auto n = concrete_operand(in.srcs[0], t, "a group count");
      if (!n)
        return;
      keep = static_cast<size_t>(*n);
    } else {
      committed_[t].push_back(std::move(uncommitted_[t]));
      uncommitted_[t].clear();
    }
    while (committed_[t].size() > keep) {
      complete_copies(t, committed_[t].front());
      committed_[t].pop_front();
      if (failed_)
        return;
    }
  }
}

void CtaRunner::exec_call(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const Callee& callee = prog_.callees[in.call_id];
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    if (callee.is_symexp) {
      if (in.srcs.size() != 1 || in.dsts.size() != 1) {
        fail_unsupported(in, t, "calls __symexpf with the wrong number of arguments");
        return;
      }
      ByteCell* arg = access(Space::Param, in.srcs[0].imm, 4, 4, t, AccessKind::Read);
      if (!arg)
        return;
      Value x = load(arg, 4);
      x.fl = stored_float(arg[0].stored_as); // provenance: float data, or integer bits
      const ExprId e = x.node == ctx_.undef ? ctx_.undef : idioms_.symexp(real_of(x, ValType::F32));
      ByteCell* ret = access(Space::Param, in.dsts[0].imm, 4, 4, t, AccessKind::Write);
      if (!ret)
        return;
      store_value(ret, Value{0, e}, 4);
      for (int k = 0; k < 4; ++k)
        ret[k].stored_as = kStoredFloat; // a float result, whatever type reads it back
      continue;
    }
    if (callee.name == "vprintf") {
      // printf has no effect on the outputs; its return value is 0.
      if (!in.dsts.empty()) {
        ByteCell* ret = access(Space::Param, in.dsts[0].imm, 4, 4, t, AccessKind::Write);
        if (!ret)
          return;
        store_value(ret, Value{0, 0}, 4);
      }
      continue;
    }
    fail_unsupported(in, t,
                     fmt::format("calls '{}' (only __symexpf and vprintf calls are modeled; inline "
                                 "device functions with __forceinline__)",
                                 callee.name));
    return;
  }
}

} // namespace volta::exec
