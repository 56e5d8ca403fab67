// Memory instructions of the CTA runner: address resolution, bounds/alignment/race checks,
// loads, stores, atomics, cp.async and calls.
#include <algorithm>
#include <bit>
#include <fmt/format.h>

#include "engine/exec/address_map.hpp"
#include "engine/exec/cta_runner.hpp"

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

// Resolves a generic address to its space.
std::pair<Space, uint64_t> resolve_generic(uint64_t a) {
  if (in_window(a, kSharedWindow))
    return {Space::Shared, a - kSharedWindow};
  if (in_window(a, kLocalWindow))
    return {Space::Local, a - kLocalWindow};
  if (in_window(a, kConstWindow))
    return {Space::Const, a}; // const addresses keep the window
  return {Space::Global, a};
}

using Extents = std::vector<std::pair<uint64_t, uint64_t>>;
constexpr size_t kNoExtent = SIZE_MAX;

// Does [address, address + size) lie inside the extent [start, end)?
bool holds(const std::pair<uint64_t, uint64_t>& extent, uint64_t address, uint64_t size) {
  return address >= extent.first && address + size <= extent.second && address + size >= address;
}

// The index of the sorted extent that holds [address, address + size), or kNoExtent.
size_t extent_holding(const Extents& extents, uint64_t address, uint64_t size) {
  auto it = std::upper_bound(extents.begin(), extents.end(), std::make_pair(address, ~uint64_t{0}));
  if (it == extents.begin() || !holds(*std::prev(it), address, size))
    return kNoExtent;
  return static_cast<size_t>(std::prev(it) - extents.begin());
}

const char* kind_word(AccessKind k) {
  switch (k) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  default:
    return "atomic";
  }
}

} // namespace

bool CtaRunner::inside_shared(uint64_t address, uint32_t size) {
  // Consecutive accesses mostly hit the same variable: try the last one first.
  if (last_shared_extent_ < shared_extents_.size() &&
      holds(shared_extents_[last_shared_extent_], address, size))
    return true;
  const size_t e = extent_holding(shared_extents_, address, size);
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

ByteCell* CtaRunner::report_race(Space space, uint64_t byte_address, uint32_t t, AccessKind kind,
                                 const Conflict& c) {
  const Inst& in = prog_.insts[current_pc_];
  const uint32_t w = t / 32;
  const bool partial_sync = (c.cta == cta_ && c.warp == w && warp_partial_sync_[w]);
  Failure f;
  f.verdict = partial_sync ? Verdict::Unsupported : Verdict::DataRace;
  f.kind = fmt::format("{}-{} race", kind_word(c.previous), kind_word(kind));
  f.space = space_name(space);
  f.address = byte_address;
  f.location = describe_address(space, byte_address);
  f.first = site(t, current_pc_);
  f.second = site_of(c.cta, c.thread, c.pc);
  const std::string who_now =
      c.cta == cta_ ? fmt::format("thread {}", t) : fmt::format("thread {} of CTA {}", t, cta_);
  const std::string who_then = c.cta == cta_ ? fmt::format("thread {}", c.thread)
                                             : fmt::format("thread {} of CTA {}", c.thread, c.cta);
  f.message = fmt::format(
      "data race on {} {}: {} by {} (PTX line {}) conflicts with {} by {} (PTX line {})", f.space,
      f.location, kind_word(kind), who_now, in.line, kind_word(c.previous), who_then,
      c.pc < prog_.insts.size() ? prog_.insts[c.pc].line : 0);
  if (partial_sync) {
    f.message +=
        "; the warp used partial-mask synchronization, which the race check does not model, so "
        "this may be a false alarm";
  }
  failed_ = true;
  ctx_.report(cta_, std::move(f));
  return nullptr;
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
    const Region* r = ctx_.global.find(address, size);
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
    if (r->kind == launch::ArrayKind::In || r->kind == launch::ArrayKind::InOut) {
      // Symbols of input elements are created on first access, under the page lock.
      while (page.lock.test_and_set(std::memory_order_acquire)) {
      }
      ctx_.global.materialize_inputs(page, address, size);
      page.lock.clear(std::memory_order_release);
    }
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
    if (is_store_to_global) {
      for (uint32_t i = 0; i < size; ++i)
        cells[i].written = 1;
    }
    break;
  }
  case Space::Shared: {
    if (!inside_shared(address, size) || address + size > shared_size_) {
      return out_of_bounds(describe_address(space, address));
    }
    cells = &shared_[address];
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
    if (extent_holding(local_extents_, address, size) == kNoExtent)
      return out_of_bounds(describe_address(space, address));
    cells = &local_[size_t{t} * prog_.local_bytes + address];
    break;
  }
  case Space::Param: {
    if (address + size <= prog_.param_bytes) {
      if (kind != AccessKind::Read) {
        fail_unsupported(in, t, "writes a kernel parameter");
        return nullptr;
      }
      cells = &ctx_.params[address];
    } else if (address >= prog_.param_bytes &&
               address + size <= prog_.param_bytes + prog_.scratch_param_bytes) {
      cells = &scratch_[size_t{t} * prog_.scratch_param_bytes + (address - prog_.param_bytes)];
    } else {
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
    if (address < kConstWindow || address - kConstWindow + size > ctx_.constants.size()) {
      return out_of_bounds(describe_address(space, address));
    }
    cells = &ctx_.constants[address - kConstWindow];
    break;
  }
  default:
    fail_unsupported(in, t, "accesses an unknown state space");
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
    const uint32_t w = t / 32;
    Accessor a{cta_, t, w, t % 32, stamp_, warp_phase_[w], current_pc_};
    Conflict c;
    uint32_t conflict_byte = 0;
    if (shadow->check_and_record(shadow_offset, size, a, kind, c, conflict_byte)) [[unlikely]] {
      if (lock)
        lock->clear(std::memory_order_release);
      return report_race(space, address + (conflict_byte - shadow_offset), t, kind, c);
    }
    if (lock)
      lock->clear(std::memory_order_release);
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

void CtaRunner::exec_ld(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t elem = std::max<uint32_t>(1, width_of(in.type) / 8);
  const uint32_t n = in.vec;
  const bool float_type = is_float(in.type);
  const bool sign_extends = is_signed(in.type) && elem < 8;
  const uint32_t values = std::min<uint32_t>(n, static_cast<uint32_t>(in.dsts.size()));
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    auto a = address_of(in.mem[0], t);
    if (!a)
      return;
    ByteCell* cells = access(in.space, *a, elem * n, elem * n, t, AccessKind::Read);
    if (!cells)
      return;
    for (uint32_t i = 0; i < values; ++i) {
      Value v = load(cells + i * elem, elem);
      v.fl = float_type || cells[i * elem].stored_as == kStoredFloat;
      // A sub-register load of signed data sign-extends (ld.s8 / ld.s16 into a wider register).
      if (!v.symbolic() && sign_extends) {
        const int shift = 64 - 8 * static_cast<int>(elem);
        v.bits = static_cast<uint64_t>(static_cast<int64_t>(v.bits << shift) >> shift);
        const uint32_t rw =
            in.dsts[i].kind == OpKind::Reg ? width_of(prog_.registers[in.dsts[i].reg].type) : 64;
        if (rw < 64 && rw != 0)
          v.bits &= (uint64_t{1} << rw) - 1;
      }
      set_dst(in.dsts[i], t, v);
    }
  }
}

void CtaRunner::exec_st(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t elem = std::max<uint32_t>(1, width_of(in.type) / 8);
  const uint32_t n = in.vec;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    auto a = address_of(in.mem[0], t);
    if (!a)
      return;
    Value values[8];
    for (uint32_t i = 0; i < n && i < in.srcs.size(); ++i) {
      values[i] = read(in.srcs[i], t);
      if (in.srcs[i].kind == OpKind::Imm && in.srcs[i].imm_is_float && in.srcs[i].imm_width == 64 &&
          elem == 4) {
        values[i].bits =
            std::bit_cast<uint32_t>(static_cast<float>(std::bit_cast<double>(values[i].bits)));
      }
      const symbolic::Op op =
          values[i].symbolic() ? ctx_.store.op(values[i].node) : symbolic::Op::Const;
      if (op == symbolic::Op::RawBits) {
        const auto& nd = ctx_.store.node(values[i].node);
        values[i] = Value{uint64_t{nd.b} << 32 | nd.a, 0};
      }
    }
    if (failed_)
      return;
    const bool global = in.space == Space::Global ||
                        (in.space == Space::Generic && resolve_generic(*a).first == Space::Global);
    ByteCell* cells = access(in.space, *a, elem * n, elem * n, t, AccessKind::Write, global);
    if (!cells)
      return;
    for (uint32_t i = 0; i < n && i < in.srcs.size(); ++i) {
      Value v = values[i];
      // Float data moved through integer registers stays float data.
      const uint8_t stored_as = (is_float(in.type) || v.fl) ? kStoredFloat
                                : is_signed(in.type)        ? kStoredSigned
                                                            : kStoredUnsigned;
      // A value narrower than its register: keep the low bytes (symbolic data keeps its value).
      if (!v.symbolic() && elem < 8)
        v.bits &= (uint64_t{1} << (8 * elem)) - 1;
      store_value(cells + i * elem, v, elem);
      for (uint32_t k = 0; k < elem; ++k)
        cells[i * elem + k].stored_as = stored_as;
    }
  }
}

void CtaRunner::exec_atom(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const auto op = static_cast<AtomOp>(in.sub);
  const uint32_t elem = std::max<uint32_t>(1, width_of(in.type) / 8);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    auto a = address_of(in.mem[0], t);
    if (!a)
      return;
    const Value x = read(in.srcs[0], t);
    if (failed_)
      return;
    const bool bitwise = op == AtomOp::And || op == AtomOp::Or || op == AtomOp::Xor;
    const bool order_free = op == AtomOp::Add || op == AtomOp::Min || op == AtomOp::Max || bitwise;
    if (!order_free) {
      fail_unsupported(
          in, t,
          "is an atomic whose result depends on the order of the threads (exch, cas, inc, dec)");
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
    auto add_to = [&](std::map<uint64_t, PendingAtomic>& table) {
      auto it = table.find(address);
      if (it == table.end()) {
        PendingAtomic p;
        p.op = op;
        p.type = in.type;
        p.width = elem;
        p.base = load(cells, elem);
        it = table.emplace(address, std::move(p)).first;
        ctx_.markers_written.store(true, std::memory_order_release);
        for (uint32_t i = 0; i < elem; ++i) {
          cells[i].node = ctx_.pending_marker;
          cells[i].pos = static_cast<uint8_t>(i);
        }
      } else if (it->second.op != op || it->second.type != in.type) {
        return false;
      }
      it->second.contributions.push_back(AtomicContribution{cta_, t, atomic_sequence_++, x});
      return true;
    };
    bool ok;
    if (space == Space::Global) {
      std::lock_guard guard(ctx_.atomics_mutex);
      ok = add_to(ctx_.atomics);
    } else {
      ok = add_to(shared_atomics_);
    }
    if (!ok) {
      fail_unsupported(in, t, "mixes different atomic operations on one location");
      return;
    }
    if (in.op == XOp::Atom && !in.dsts.empty() && in.dsts[0].kind == OpKind::Reg) {
      // The old value depends on the order of the threads: poison it.
      set_dst(in.dsts[0], t,
              Value{0, ctx_.store.intern(
                           symbolic::Node{symbolic::Op::AtomicResult, 0, 0, in.line, 0, 0})});
    }
  }
}

void CtaRunner::exec_cp_async(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    auto dst = address_of(in.mem[0], t);
    auto src = address_of(in.mem[1], t);
    if (!dst || !src)
      return;
    auto size = concrete_operand(in.srcs[0], t, "a copy size");
    if (!size)
      return;
    uint64_t src_size = *size;
    if (in.srcs.size() > 1) {
      auto s = concrete_operand(in.srcs[1], t, "a source size");
      if (!s)
        return;
      src_size = *s;
    }
    if (*size != 4 && *size != 8 && *size != 16) {
      fail_unsupported(in, t, fmt::format("copies {} bytes (cp.async copies 4, 8 or 16)", *size));
      return;
    }
    // The global read is checked and done now; the shared write happens when the thread waits
    // for the group. Until then the thread must not touch either range (copy_hazard).
    uint64_t d = *dst;
    if (in_window(d, kSharedWindow))
      d -= kSharedWindow;
    PendingCopy copy{
        d,  *src,  static_cast<uint32_t>(*size), static_cast<uint32_t>(src_size), current_pc_,
        {}, stamp_};
    const uint32_t readable = static_cast<uint32_t>(std::min(src_size, *size));
    ByteCell* src_cells = nullptr;
    if (readable > 0) {
      src_cells =
          access(Space::Global, *src, readable, static_cast<uint32_t>(*size), t, AccessKind::Read);
      if (!src_cells)
        return;
    }
    for (uint32_t off = 0; off < copy.size; off += 4) {
      copy.values.push_back(off + 4 <= readable ? load(src_cells + off, 4) : Value{0, 0});
    }
    uncommitted_[t].push_back(std::move(copy));
    copies_issued_ = true;
  }
}

void CtaRunner::complete_copies(uint32_t t, const std::vector<PendingCopy>& group) {
  const uint32_t saved_pc = current_pc_;
  completing_copies_ = true;
  for (const auto& c : group) {
    if (failed_)
      break;
    current_pc_ = c.pc;
    if (source_overwritten(c, t))
      break;
    ByteCell* cells = access(Space::Shared, c.dst, c.size, c.size, t, AccessKind::Write);
    if (!cells)
      break;
    for (uint32_t i = 0; i < c.values.size(); ++i)
      store_value(cells + 4 * i, c.values[i], 4);
  }
  completing_copies_ = false;
  current_pc_ = saved_pc;
}

bool CtaRunner::source_overwritten(const PendingCopy& c, uint32_t t) {
  if (!ctx_.options.check_races)
    return false;
  const uint32_t readable = std::min(c.size, c.src_size);
  for (uint32_t i = 0; i < readable; ++i) {
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
    failed_ = true;
    ctx_.report(cta_, std::move(f));
    return true;
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
  auto check = [&](const PendingCopy& c) {
    const bool on_destination = space == Space::Shared && overlaps(c.dst, c.size);
    const bool on_source =
        space == Space::Global && kind != AccessKind::Read && overlaps(c.src, c.size);
    if (!on_destination && !on_source)
      return false;
    Failure f;
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
    failed_ = true;
    ctx_.report(cta_, std::move(f));
    return true;
  };
  for (const auto& c : uncommitted_[t]) {
    if (check(c))
      return true;
  }
  for (const auto& g : committed_[t]) {
    for (const auto& c : g) {
      if (check(c))
        return true;
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
      const Value x = load(arg, 4);
      const ExprId e = x.node == ctx_.undef ? ctx_.undef : idioms_.symexp(real_of(x, ValType::F32));
      ByteCell* ret = access(Space::Param, in.dsts[0].imm, 4, 4, t, AccessKind::Write);
      if (!ret)
        return;
      store_value(ret, Value{0, e}, 4);
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
