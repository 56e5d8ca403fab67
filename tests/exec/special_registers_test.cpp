// launch_special_value: the one definition of the launch-fixed special registers that the
// symbolic CTA and the emulator both read (PTX ISA, "Special registers").
#include <gtest/gtest.h>

#include "engine/exec/special_registers.hpp"

namespace volta::exec {
namespace {

launch::KernelConfig config_of(launch::Dim3 block, launch::Dim3 grid, uint64_t dyn_shared) {
  launch::KernelConfig c;
  c.block = block;
  c.grid = grid;
  c.dyn_shared_bytes = dyn_shared;
  return c;
}

uint64_t value(Special s, const launch::KernelConfig& c, uint32_t t,
               std::array<uint32_t, 3> ctaid = {0, 0, 0}) {
  const auto v = launch_special_value(s, c, ctaid, t);
  EXPECT_TRUE(v.has_value());
  return v.value_or(~uint64_t{0});
}

TEST(SpecialRegisters, ThreadIndexIsXFastest) {
  const auto c = config_of({4, 3, 5}, {7, 2, 3}, 96);
  const uint32_t t = 2 + 4 * (1 + 3 * 4); // x 2, y 1, z 4
  EXPECT_EQ(value(Special::TidX, c, t), 2u);
  EXPECT_EQ(value(Special::TidY, c, t), 1u);
  EXPECT_EQ(value(Special::TidZ, c, t), 4u);
  EXPECT_EQ(value(Special::NtidX, c, t), 4u);
  EXPECT_EQ(value(Special::NtidY, c, t), 3u);
  EXPECT_EQ(value(Special::NtidZ, c, t), 5u);
  EXPECT_EQ(value(Special::CtaidX, c, t, {6, 1, 2}), 6u);
  EXPECT_EQ(value(Special::CtaidY, c, t, {6, 1, 2}), 1u);
  EXPECT_EQ(value(Special::CtaidZ, c, t, {6, 1, 2}), 2u);
  EXPECT_EQ(value(Special::NctaidX, c, t), 7u);
  EXPECT_EQ(value(Special::NctaidY, c, t), 2u);
  EXPECT_EQ(value(Special::NctaidZ, c, t), 3u);
  EXPECT_EQ(value(Special::DynSmemSize, c, t), 96u);
  EXPECT_EQ(value(Special::LaneId, c, t), t % 32);
}

// The lane masks at the edges of a warp: 32-bit masks, no bit above lane 31, none below lane 0.
TEST(SpecialRegisters, LaneMasksAtTheWarpEdges) {
  const auto c = config_of({64, 1, 1}, {1, 1, 1}, 0);
  EXPECT_EQ(value(Special::LaneMaskEq, c, 0), 0x1u);
  EXPECT_EQ(value(Special::LaneMaskLt, c, 0), 0x0u);
  EXPECT_EQ(value(Special::LaneMaskLe, c, 0), 0x1u);
  EXPECT_EQ(value(Special::LaneMaskGt, c, 0), 0xfffffffeu);
  EXPECT_EQ(value(Special::LaneMaskGe, c, 0), 0xffffffffu);
  EXPECT_EQ(value(Special::LaneMaskEq, c, 63), 0x80000000u); // lane 31 of warp 1
  EXPECT_EQ(value(Special::LaneMaskLt, c, 63), 0x7fffffffu);
  EXPECT_EQ(value(Special::LaneMaskLe, c, 63), 0xffffffffu);
  EXPECT_EQ(value(Special::LaneMaskGt, c, 63), 0x0u);
  EXPECT_EQ(value(Special::LaneMaskGe, c, 63), 0x80000000u);
  EXPECT_EQ(value(Special::LaneMaskLt, c, 37), 0x1fu);
  EXPECT_EQ(value(Special::LaneMaskGt, c, 37), 0xffffffc0u);
}

// Registers the launch does not fix have no value here: each CTA machine refuses them or reads
// a fresh unknown.
TEST(SpecialRegisters, ScheduleAndClockRegistersHaveNoLaunchValue) {
  const auto c = config_of({32, 1, 1}, {1, 1, 1}, 0);
  for (const Special s :
       {Special::WarpId, Special::NWarpId, Special::SmId, Special::NSmId, Special::GridId,
        Special::Clock, Special::Clock64, Special::GlobalTimer, Special::ClockHi,
        Special::GlobalTimerLo, Special::GlobalTimerHi, Special::PerfCounter, Special::Unmodelled})
    EXPECT_FALSE(launch_special_value(s, c, {0, 0, 0}, 5).has_value()) << static_cast<int>(s);
}

// The cluster registers (PTX ISA, "Special registers"): the CTA's place in its cluster and the
// cluster's in the grid. Without a cluster a CTA is a cluster of one; the formulas for larger
// clusters (refused by run_kernel before any read) are checked here for a 2x2x1 cluster.
TEST(SpecialRegisters, ClusterRegisters) {
  auto c = config_of({32, 1, 1}, {6, 4, 1}, 0);
  const std::array<uint32_t, 3> cta{5, 3, 0};
  EXPECT_EQ(value(Special::ClusterCtaRank, c, 0, cta), 0u);
  EXPECT_EQ(value(Special::ClusterNCtaRank, c, 0, cta), 1u);
  EXPECT_EQ(value(Special::ClusterCtaidX, c, 0, cta), 0u);
  EXPECT_EQ(value(Special::ClusterNCtaidY, c, 0, cta), 1u);
  EXPECT_EQ(value(Special::ClusterIdX, c, 0, cta), 5u);
  EXPECT_EQ(value(Special::ClusterIdY, c, 0, cta), 3u);
  EXPECT_EQ(value(Special::NClusterIdX, c, 0, cta), 6u);
  EXPECT_EQ(value(Special::NClusterIdY, c, 0, cta), 4u);
  c.cluster = {2, 2, 1};
  EXPECT_EQ(value(Special::ClusterCtaRank, c, 0, cta), 1u + 2u * 1u); // x 1, y 1 in the cluster
  EXPECT_EQ(value(Special::ClusterNCtaRank, c, 0, cta), 4u);
  EXPECT_EQ(value(Special::ClusterCtaidX, c, 0, cta), 1u);
  EXPECT_EQ(value(Special::ClusterCtaidY, c, 0, cta), 1u);
  EXPECT_EQ(value(Special::ClusterNCtaidX, c, 0, cta), 2u);
  EXPECT_EQ(value(Special::ClusterIdX, c, 0, cta), 2u);
  EXPECT_EQ(value(Special::ClusterIdY, c, 0, cta), 1u);
  EXPECT_EQ(value(Special::NClusterIdX, c, 0, cta), 3u);
  EXPECT_EQ(value(Special::NClusterIdY, c, 0, cta), 2u);
}

} // namespace
} // namespace volta::exec
