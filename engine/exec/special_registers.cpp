// Concrete values of the special registers the launch fixes: one definition for the symbolic
// CTA (cta_runner.cpp) and the emulator (emulate/machine.cpp).
#include "engine/exec/special_registers.hpp"

namespace volta::exec {

std::optional<uint64_t> launch_special_value(Special s, const launch::KernelConfig& config,
                                             const std::array<uint32_t, 3>& ctaid, uint32_t t) {
  const auto& block = config.block;
  const auto& grid = config.grid;
  // %laneid is tid % 32 (the CTA's threads are numbered x fastest and packed into warps in
  // that order, PTX ISA "Special registers"); the lane masks are 32-bit.
  const uint32_t lane = t % 32;
  const uint64_t below = (uint64_t{1} << lane) - 1; // lanes below this one
  switch (s) {
  case Special::TidX:
    return t % block[0];
  case Special::TidY:
    return (t / block[0]) % block[1];
  case Special::TidZ:
    return t / (block[0] * block[1]);
  case Special::NtidX:
    return block[0];
  case Special::NtidY:
    return block[1];
  case Special::NtidZ:
    return block[2];
  case Special::CtaidX:
    return ctaid[0];
  case Special::CtaidY:
    return ctaid[1];
  case Special::CtaidZ:
    return ctaid[2];
  case Special::NctaidX:
    return grid[0];
  case Special::NctaidY:
    return grid[1];
  case Special::NctaidZ:
    return grid[2];
  case Special::LaneId:
    return lane;
  case Special::LaneMaskEq:
    return uint64_t{1} << lane;
  case Special::LaneMaskLt:
    return below;
  case Special::LaneMaskLe:
    return below | (uint64_t{1} << lane);
  case Special::LaneMaskGt:
    return ~(below | (uint64_t{1} << lane)) & 0xffffffffu;
  case Special::LaneMaskGe:
    return ~below & 0xffffffffu;
  case Special::DynSmemSize:
    return config.dyn_shared_bytes;
  // The cluster registers (PTX ISA, "Special registers"): the CTA's position in its cluster, the
  // cluster's shape, the cluster's position in the grid. Without a cluster launch the cluster
  // is one CTA ({1,1,1}): rank 0 of 1, %clusterid = %ctaid, %nclusterid = %nctaid. The general
  // formulas below assume what launch/cluster.hpp checks (each dimension divides the grid's);
  // run_kernel refuses clusters of more than one CTA before any of them is read.
  case Special::ClusterCtaRank: {
    const auto& c = config.cluster;
    return ctaid[0] % c[0] + c[0] * ((ctaid[1] % c[1]) + c[1] * (ctaid[2] % c[2]));
  }
  case Special::ClusterNCtaRank:
    return config.cluster[0] * config.cluster[1] * config.cluster[2];
  case Special::ClusterCtaidX:
  case Special::ClusterCtaidY:
  case Special::ClusterCtaidZ: {
    const int i = static_cast<int>(s) - static_cast<int>(Special::ClusterCtaidX);
    return ctaid[i] % config.cluster[i];
  }
  case Special::ClusterNCtaidX:
  case Special::ClusterNCtaidY:
  case Special::ClusterNCtaidZ:
    return config.cluster[static_cast<int>(s) - static_cast<int>(Special::ClusterNCtaidX)];
  case Special::ClusterIdX:
  case Special::ClusterIdY:
  case Special::ClusterIdZ: {
    const int i = static_cast<int>(s) - static_cast<int>(Special::ClusterIdX);
    return ctaid[i] / config.cluster[i];
  }
  case Special::NClusterIdX:
  case Special::NClusterIdY:
  case Special::NClusterIdZ: {
    const int i = static_cast<int>(s) - static_cast<int>(Special::NClusterIdX);
    return grid[i] / config.cluster[i];
  }
  case Special::WarpId:
  case Special::NWarpId:
  case Special::SmId:
  case Special::NSmId:
  case Special::GridId:
  case Special::Clock:
  case Special::Clock64:
  case Special::GlobalTimer:
  case Special::ClockHi:
  case Special::GlobalTimerLo:
  case Special::GlobalTimerHi:
  case Special::PerfCounter:
  case Special::Unmodelled:
    return std::nullopt;
  }
  return std::nullopt; // not reached: every register is listed above
}

} // namespace volta::exec
