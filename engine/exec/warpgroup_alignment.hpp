// The check both CTA machines make of a `.sync.aligned` warpgroup instruction that has no effect
// on values (setmaxnreg, PTX ISA 9.7.19.6: "all threads in the warpgroup must execute the same
// setmaxnreg instruction", else the behaviour is undefined). A warpgroup is four consecutive
// warps (warps 4g..4g+3) of the CTA. Each warp executes it with every lane (the machine checks
// the lanes of one warp when it gathers them, as for a warp collective); this class checks that
// the warps of a warpgroup execute the same sequence of such instructions: the k-th one of each
// warp is at the same pc, and by the end of the CTA every warp of the warpgroup executed as many.
#pragma once

#include <cstdint>
#include <fmt/format.h>
#include <optional>
#include <string>
#include <vector>

namespace volta::exec {

class WarpgroupAlignment {
public:
  explicit WarpgroupAlignment(uint32_t threads = 0) { reset(threads); }
  void reset(uint32_t threads) {
    threads_ = threads;
    pcs_.assign((threads + 31) / 32, {});
  }

  // Warp w executes the instruction at `pc` (PTX line `line`) with all its lanes. The problem,
  // in words, when the warpgroup is not whole in the CTA or another warp of it executed a
  // different instruction as its k-th one.
  std::optional<std::string> executed(uint32_t w, uint32_t pc, uint32_t line) {
    const uint32_t g = w / 4;
    if (threads_ < (g + 1) * 128) {
      return fmt::format("warp {} executes a .sync.aligned warpgroup instruction (PTX line {}), "
                         "but its warpgroup (warps {}-{}) is not whole in a CTA of {} threads",
                         w, line, 4 * g, 4 * g + 3, threads_);
    }
    const size_t k = pcs_[w].size();
    pcs_[w].push_back(pc);
    for (uint32_t v = 4 * g; v < 4 * g + 4; ++v) {
      if (v != w && pcs_[v].size() > k && pcs_[v][k] != pc) {
        return fmt::format("warps {} and {} of one warpgroup execute different .sync.aligned "
                           "warpgroup instructions as their number {} (the one at PTX line {} "
                           "and another): every thread of the warpgroup must execute the same one",
                           v, w, k + 1, line);
      }
    }
    return std::nullopt;
  }

  // At the end of the CTA: a warp of a warpgroup that executed fewer of them than another (it
  // exited without), or nullopt. `pc_of` gives nothing: the message names the warps.
  std::optional<std::string> finished() const {
    for (uint32_t w = 0; w < pcs_.size(); ++w) {
      const uint32_t first = w - w % 4;
      if (pcs_[w].size() != pcs_[first].size()) {
        return fmt::format("warps {} and {} of one warpgroup execute {} and {} .sync.aligned "
                           "warpgroup instructions (setmaxnreg): every thread of the warpgroup "
                           "must execute each one",
                           first, w, pcs_[first].size(), pcs_[w].size());
      }
    }
    return std::nullopt;
  }

private:
  uint32_t threads_ = 0;
  std::vector<std::vector<uint32_t>> pcs_; // per warp: the pcs it executed them at, in order
};

} // namespace volta::exec
