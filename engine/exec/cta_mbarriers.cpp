// CtaMbarriers: the mbarrier bookkeeping both CTA machines share (cta_mbarriers.hpp).
#include "engine/exec/cta_mbarriers.hpp"

#include <fmt/format.h>

namespace volta::exec {

std::string CtaMbarriers::missing(uint64_t addr) const {
  if (auto other = overlaps(addr, kBytes); other && *other != addr)
    return fmt::format("address {:#x} is inside the mbarrier at {:#x}, not its start", addr,
                       *other);
  return fmt::format("no mbarrier is initialized at shared address {:#x} (mbarrier.init first; "
                     "an operation on another object is undefined)",
                     addr);
}

std::string CtaMbarriers::ordinary_access(uint64_t addr, uint64_t size, bool write, uint64_t bar) {
  return fmt::format("accesses {} bytes at shared {:#x} with an ordinary {}, inside the mbarrier "
                     "at {:#x} (its encoding is opaque: undefined until mbarrier.inval)",
                     size, addr, write ? "store" : "load", bar);
}

const CtaMbarriers::Mbarrier* CtaMbarriers::find(uint64_t addr) const {
  auto it = bars_.find(addr);
  return it == bars_.end() ? nullptr : &it->second;
}

std::optional<uint64_t> CtaMbarriers::overlaps(uint64_t addr, uint64_t size) const {
  // The first mbarrier starting at or after addr - 7 that starts before addr + size.
  auto it = bars_.lower_bound(addr >= kBytes - 1 ? addr - (kBytes - 1) : 0);
  if (it != bars_.end() && it->first < addr + size)
    return it->first;
  return std::nullopt;
}

CtaMbarriers::Outcome CtaMbarriers::init(uint64_t addr, uint64_t count) {
  Outcome o;
  if (addr % kBytes != 0) {
    o.problem = fmt::format("mbarrier.init at {:#x}, which is not 8-byte aligned", addr);
  } else if (count == 0 || count > kMaxCount) {
    o.problem =
        fmt::format("mbarrier.init with count {} (the ISA allows 1 to {})", count, kMaxCount);
  } else if (auto other = overlaps(addr, kBytes)) {
    o.problem = fmt::format("mbarrier.init at {:#x} while the mbarrier at {:#x} is in use (it was "
                            "initialized and not invalidated: undefined)",
                            addr, *other);
  } else {
    bars_[addr] = Mbarrier{static_cast<uint32_t>(count), static_cast<uint32_t>(count), 0, 0};
  }
  return o;
}

CtaMbarriers::Outcome CtaMbarriers::inval(uint64_t addr) {
  Outcome o;
  if (bars_.erase(addr) == 0)
    o.problem = missing(addr);
  return o;
}

CtaMbarriers::Outcome CtaMbarriers::settle(uint64_t addr, Mbarrier& b) {
  Outcome o;
  if (b.tx > kMaxTxCount || b.tx < -kMaxTxCount) {
    o.problem = fmt::format("the tx-count of the mbarrier at {:#x} reaches {}, outside the ISA's "
                            "range of +-{} (undefined)",
                            addr, b.tx, kMaxTxCount);
    return o;
  }
  if (b.pending == 0 && b.tx == 0) {
    ++b.phase;
    b.pending = b.expected;
    o.completed = true;
  }
  return o;
}

CtaMbarriers::Outcome CtaMbarriers::arrive(uint64_t addr, uint64_t count, uint64_t tx, bool drop) {
  auto it = bars_.find(addr);
  if (it == bars_.end())
    return Outcome{missing(addr)};
  Mbarrier& b = it->second;
  if (count == 0 || count > kMaxCount)
    return Outcome{
        fmt::format("mbarrier arrive with count {} (the ISA allows 1 to {})", count, kMaxCount)};
  if (tx > static_cast<uint64_t>(kMaxTxCount))
    return Outcome{
        fmt::format("mbarrier expect_tx of {} bytes (the ISA allows up to {})", tx, kMaxTxCount)};
  if (count > b.pending)
    return Outcome{fmt::format("{} arrival{} on the mbarrier at {:#x} whose phase {} has {} "
                               "pending: an over-arrival (undefined)",
                               count, count == 1 ? "" : "s", addr, b.phase, b.pending)};
  if (drop && count > b.expected)
    return Outcome{fmt::format("arrive_drop of {} on the mbarrier at {:#x} that expects {} "
                               "arrivals per phase (undefined)",
                               count, addr, b.expected)};
  const uint64_t token = b.phase;
  b.tx += static_cast<int64_t>(tx);
  b.pending -= static_cast<uint32_t>(count);
  if (drop)
    b.expected -= static_cast<uint32_t>(count);
  Outcome o = settle(addr, b);
  o.token = token;
  return o;
}

CtaMbarriers::Outcome CtaMbarriers::expect_tx(uint64_t addr, uint64_t tx) {
  auto it = bars_.find(addr);
  if (it == bars_.end())
    return Outcome{missing(addr)};
  if (tx > static_cast<uint64_t>(kMaxTxCount))
    return Outcome{
        fmt::format("mbarrier expect_tx of {} bytes (the ISA allows up to {})", tx, kMaxTxCount)};
  it->second.tx += static_cast<int64_t>(tx);
  // An expect_tx alone never completes a phase (pending arrivals are at least one, or the phase
  // would have completed already), but the range is checked all the same.
  return settle(addr, it->second);
}

CtaMbarriers::Outcome CtaMbarriers::complete_tx(uint64_t addr, uint64_t tx) {
  auto it = bars_.find(addr);
  if (it == bars_.end())
    return Outcome{missing(addr)};
  if (tx > static_cast<uint64_t>(kMaxTxCount))
    return Outcome{
        fmt::format("mbarrier complete_tx of {} bytes (the ISA allows up to {})", tx, kMaxTxCount)};
  it->second.tx -= static_cast<int64_t>(tx);
  return settle(addr, it->second);
}

std::optional<bool> CtaMbarriers::token_done(uint64_t addr, uint64_t token,
                                             std::string* problem) const {
  const Mbarrier* b = find(addr);
  if (b == nullptr) {
    if (problem)
      *problem = missing(addr);
    return std::nullopt;
  }
  if (token > b->phase) {
    if (problem)
      *problem = fmt::format("a wait on the mbarrier at {:#x} with the state of phase {}, which "
                             "has not begun (the state comes from another object)",
                             addr, token);
    return std::nullopt;
  }
  return b->phase > token;
}

std::optional<bool> CtaMbarriers::parity_done(uint64_t addr, uint64_t parity,
                                              std::string* problem) const {
  const Mbarrier* b = find(addr);
  if (b == nullptr) {
    if (problem)
      *problem = missing(addr);
    return std::nullopt;
  }
  return (b->phase & 1u) != (parity & 1u);
}

std::optional<uint64_t> CtaMbarriers::phase_of_parity(uint64_t addr, uint64_t parity) const {
  const Mbarrier* b = find(addr);
  if (b == nullptr)
    return std::nullopt;
  if ((b->phase & 1u) == (parity & 1u))
    return b->phase;
  if (b->phase == 0)
    return std::nullopt; // parity 1 before any phase completed: nothing before phase 0
  return b->phase - 1;
}

std::string CtaMbarriers::describe(uint64_t addr) const {
  const Mbarrier* b = find(addr);
  if (b == nullptr)
    return fmt::format("shared address {:#x} (no mbarrier)", addr);
  return fmt::format("the mbarrier at shared address {:#x} (phase {}, {} of {} arrivals pending, "
                     "tx-count {})",
                     addr, b->phase, b->pending, b->expected, b->tx);
}

} // namespace volta::exec
