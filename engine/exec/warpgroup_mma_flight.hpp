// The asynchrony of wgmma (PTX ISA 9.7.15.5-9.7.15.7), shared by both CTA machines with their own
// value type V (exec::Value in the symbolic engine, the raw bits in the emulator):
//
// - a wgmma.mma_async is computed when it is issued (its operands are read then; a later write of
//   those shared bytes before the wgmma is retired is reported, so reading them early is exact),
//   and its results wait in the issuing warp's WgmmaWarp until a wgmma.wait_group retires the
//   group it was committed to (wgmma.commit_group). Until then its destination registers are
//   undefined: the engine writes its undefined value into them, and checks at retirement that no
//   instruction wrote them meanwhile;
// - a later wgmma.mma_async of the warp on the same accumulator (a chain) takes the pending value
//   as its input C and supersedes the earlier write;
// - the `.aligned` forms: every warp of a warpgroup executes the same sequence of wgmma
//   instructions with the same operands (WarpgroupAgreement).
#pragma once

#include <cstdint>
#include <deque>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace volta::exec::wgmma {

template <class V>
struct InFlight {
  uint32_t pc = 0;
  int64_t group = -1;                           // the commit group; -1 before wgmma.commit_group
  std::vector<uint32_t> regs;                   // destination registers
  std::vector<V> values;                        // values[i * 32 + lane] for regs[i]
  std::vector<uint8_t> live;                    // regs[i] not superseded by a later wgmma
  std::vector<std::pair<uint64_t, V>> operands; // shared bytes read (2 each): address, value
};

template <class V>
class WarpInFlight {
public:
  bool empty() const { return flight_.empty(); }
  // The value a wgmma in flight will write to `reg` of `lane`, or nullptr.
  const V* pending(uint32_t reg, uint32_t lane) const {
    for (auto it = flight_.rbegin(); it != flight_.rend(); ++it) {
      for (size_t i = 0; i < it->regs.size(); ++i) {
        if (it->live[i] && it->regs[i] == reg)
          return &it->values[i * 32 + lane];
      }
    }
    return nullptr;
  }
  // A new wgmma writes `reg`: the earlier pending writes of it are dropped.
  void supersede(uint32_t reg) {
    for (auto& f : flight_) {
      for (size_t i = 0; i < f.regs.size(); ++i) {
        if (f.regs[i] == reg && f.live[i]) {
          f.live[i] = 0;
          --pending_[reg];
        }
      }
    }
  }
  // Is `reg` a destination of a wgmma in flight (undefined until it is retired)? Constant time:
  // the symbolic engine asks it of every operand while a wgmma is in flight.
  bool is_pending(uint32_t reg) const { return reg < pending_.size() && pending_[reg] != 0; }
  void issue(InFlight<V> f) {
    for (size_t i = 0; i < f.regs.size(); ++i) {
      if (!f.live[i])
        continue;
      if (f.regs[i] >= pending_.size())
        pending_.resize(f.regs[i] + 1, 0);
      ++pending_[f.regs[i]];
    }
    flight_.push_back(std::move(f));
  }
  // wgmma.commit_group: the uncommitted wgmmas form a new group (possibly empty).
  void commit() {
    ++groups_;
    for (auto& f : flight_) {
      if (f.group < 0)
        f.group = groups_;
    }
  }
  // wgmma.wait_group n: the wgmmas of every committed group but the n most recent ones, in issue
  // order (moved out).
  std::vector<InFlight<V>> retire(uint32_t n) {
    std::vector<InFlight<V>> out;
    const int64_t last = groups_ - static_cast<int64_t>(n);
    std::deque<InFlight<V>> keep;
    for (auto& f : flight_) {
      if (f.group >= 0 && f.group <= last) {
        for (size_t i = 0; i < f.regs.size(); ++i) {
          if (f.live[i])
            --pending_[f.regs[i]];
        }
        out.push_back(std::move(f));
      } else
        keep.push_back(std::move(f));
    }
    flight_ = std::move(keep);
    return out;
  }

private:
  std::deque<InFlight<V>> flight_;
  int64_t groups_ = 0;
  std::vector<uint32_t> pending_; // per register: live writes in flight
};

// The `.aligned` requirement of wgmma: the four warps of a warpgroup (warps 4g..4g+3) execute
// the same wgmma instructions in the same order, with the same uniform operands (a key of the
// instruction and its descriptors). Checked as each warp executes one, and at the end of the CTA
// (a warp that executed fewer).
class WarpgroupAgreement {
public:
  explicit WarpgroupAgreement(uint32_t warps) : seq_(warps) {}
  std::optional<std::string> note(uint32_t w, uint64_t key) {
    const size_t n = seq_[w].size();
    for (uint32_t v = w / 4 * 4; v < w / 4 * 4 + 4 && v < seq_.size(); ++v) {
      if (v != w && seq_[v].size() > n && seq_[v][n] != key)
        return fmt::format("warps {} and {} of one warpgroup execute different wgmma instructions "
                           "or operands as their wgmma instruction number {} (the .aligned forms "
                           "need every thread of the warpgroup at the same instruction)",
                           v, w, n + 1);
    }
    seq_[w].push_back(key);
    return std::nullopt;
  }
  std::optional<std::string> at_end() const {
    for (uint32_t w = 0; w < seq_.size(); ++w) {
      for (uint32_t v = w / 4 * 4; v < w / 4 * 4 + 4 && v < seq_.size(); ++v) {
        if (seq_[v].size() != seq_[w].size())
          return fmt::format("warp {} executed {} wgmma instructions and warp {} of its warpgroup "
                             "{} (the .aligned forms need every thread of the warpgroup)",
                             w, seq_[w].size(), v, seq_[v].size());
      }
    }
    return std::nullopt;
  }
  bool used() const {
    for (const auto& s : seq_) {
      if (!s.empty())
        return true;
    }
    return false;
  }

private:
  std::vector<std::vector<uint64_t>> seq_;
};

// The generic proxy's shared-memory writes not yet followed, in their writing thread, by a
// fence.proxy.async: an async-proxy read (a wgmma operand) of such a byte may see the old bytes
// (PTX ISA, "Proxies"; the fence and then a barrier or other synchronization make the write
// visible to the async proxy, and the race check sees to the synchronization).
class UnfencedWrites {
public:
  explicit UnfencedWrites(uint32_t threads) : by_thread_(threads) {}
  void write(uint64_t address, uint32_t size, uint32_t t) {
    for (uint32_t i = 0; i < size; ++i) {
      auto [it, fresh] = writer_.try_emplace(address + i, t);
      if (!fresh && it->second == t)
        continue;
      it->second = t;
      by_thread_[t].push_back(address + i);
    }
  }
  void fence(uint32_t t) {
    for (uint64_t a : by_thread_[t]) {
      auto it = writer_.find(a);
      if (it != writer_.end() && it->second == t)
        writer_.erase(it);
    }
    by_thread_[t].clear();
  }
  // Has thread t written a byte it has not fenced since (possibly one another thread wrote
  // after it: an over-approximation)?
  bool has_unfenced(uint32_t t) const { return !by_thread_[t].empty(); }
  // The thread whose unfenced write covers a byte of [address, address + size), if any.
  std::optional<uint32_t> writer(uint64_t address, uint32_t size) const {
    if (writer_.empty())
      return std::nullopt;
    for (uint32_t i = 0; i < size; ++i) {
      if (auto it = writer_.find(address + i); it != writer_.end())
        return it->second;
    }
    return std::nullopt;
  }

private:
  std::unordered_map<uint64_t, uint32_t> writer_;
  std::vector<std::vector<uint64_t>> by_thread_;
};

// The key of an instruction for WarpgroupAgreement: its pc and its uniform operands.
inline uint64_t agreement_key(uint32_t pc, std::initializer_list<uint64_t> operands) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ pc;
  for (uint64_t o : operands)
    h = (h ^ o) * 0x100000001b3ull + (h >> 29);
  return h;
}

} // namespace volta::exec::wgmma
