// Command-line flags that describe one kernel launch (`--kernel`, `--block`, `--array` ...),
// with an optional prefix (`--ref-kernel`, `--opt-kernel`) for the two sides of `prove`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/expected.hpp"
#include "engine/launch/launch_config.hpp"

namespace CLI {
class App;
}

namespace volta::cli {

struct KernelFlags {
  std::string ptx;
  std::string cu;             // CUDA source instead of PTX: compiled by nvcc (launch/cuda_source)
  std::string arch = "sm_80"; // for cu
  std::string kernel;
  std::string block = "1,1,1";
  std::string grid = "1,1,1";
  std::string cluster; // thread-block cluster X[,Y[,Z]]; empty: none
  std::vector<std::string> arrays;
  std::vector<std::string> params;
  std::vector<std::string> globals;
  std::string ctas = "all";
  uint64_t dyn_shared = 0;

  void add_to(CLI::App& app, const std::string& prefix, const std::string& who);
  // Whether any of these flags differs from its default (so that a flag --batch or --pair would
  // ignore is refused rather than dropped).
  bool given() const {
    return !ptx.empty() || !cu.empty() || arch != "sm_80" || !kernel.empty() || block != "1,1,1" ||
           grid != "1,1,1" || !cluster.empty() || !arrays.empty() || !params.empty() ||
           !globals.empty() || ctas != "all" || dyn_shared != 0;
  }
  // The configuration, or why the flags give none ("--ref-block: ...").
  Expected<launch::KernelConfig> config(const std::string& prefix) const;
};

} // namespace volta::cli
