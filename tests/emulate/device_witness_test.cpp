// The device witness of a counterexample (engine/emulate/counterexample_run.hpp): where the two
// kernels differ over the reals at a counterexample but store the same on the device, a nearby
// input where the device shows the difference. The counterexample is given here, not searched
// for, so that the witness search is what runs: the prover's own search now prefers points the
// device tells apart (cvt.rpi of an inexact sum is not evaluated, fuzzer 22:46594), which left
// the end-to-end tests of this path taking their other branch.
#include <atomic>
#include <chrono>
#include <gtest/gtest.h>

#include "engine/emulate/counterexample_run.hpp"
#include "engine/launch/manifest.hpp"
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emulate {
namespace {

using emutest::soundness_entry;

// cvt.rpi of a + 2^-149 against cvt.rpi of a: at a = 2 the reals say 3 against 2, the device
// rounds the sum to 2 and stores 2 twice; at a = 0 it stores 1 against 0.
TEST(DeviceWitness, ACounterexampleHiddenByRoundingGetsANearbyPointThatShowsIt) {
  const auto entry = soundness_entry("c19_rpi_of_tiny_addend_wrong");
  Counterexample c;
  c.element = "out[9]";
  c.inputs = {{"a[9]", "2"}};
  c.reference_value = "3";
  c.optimized_value = "2";
  execute_counterexample(entry, c);
  EXPECT_EQ(c.reference_device, "2 (s32)");
  EXPECT_EQ(c.optimized_device, "2 (s32)");
  ASSERT_TRUE(c.device_witness.has_value());
  EXPECT_NE(c.device_witness->reference_device, c.device_witness->optimized_device);
  // The first nearby point is every input 0.
  EXPECT_TRUE(c.device_witness->inputs.empty());
  EXPECT_EQ(c.device_witness->reference_device, "1 (s32)");
  EXPECT_EQ(c.device_witness->optimized_device, "0 (s32)");
}

// The search stops at the entry's time limit and when the entry is cancelled; the run at the
// counterexample itself is always made.
TEST(DeviceWitness, TheSearchStopsAtTheDeadlineAndWhenCancelled) {
  const auto entry = soundness_entry("c19_rpi_of_tiny_addend_wrong");
  const auto hidden = [] {
    Counterexample c;
    c.element = "out[9]";
    c.inputs = {{"a[9]", "2"}};
    return c;
  };
  std::atomic<bool> cancelled{true};
  WitnessSearchLimits cancel;
  cancel.cancel = &cancelled;
  WitnessSearchLimits past;
  past.deadline = std::chrono::steady_clock::now();
  for (const WitnessSearchLimits& limits : {cancel, past}) {
    Counterexample c = hidden();
    execute_counterexample(entry, c, limits);
    EXPECT_EQ(c.reference_device, "2 (s32)");
    EXPECT_EQ(c.optimized_device, "2 (s32)");
    EXPECT_FALSE(c.device_witness.has_value());
  }
}

// A counterexample the device already shows needs no witness.
TEST(DeviceWitness, NoneWhereTheCounterexampleDiffersOnTheDevice) {
  const auto entry = soundness_entry("c19_rpi_of_tiny_addend_wrong");
  Counterexample c;
  c.element = "out[9]";
  c.inputs = {};
  execute_counterexample(entry, c);
  EXPECT_EQ(c.reference_device, "1 (s32)");
  EXPECT_EQ(c.optimized_device, "0 (s32)");
  EXPECT_FALSE(c.device_witness.has_value());
}

} // namespace
} // namespace volta::emulate
