// The comparison of the emulator cross-check (engine/emulate/output_comparison.hpp) on stores
// made up here: which differences contradict an EQUIVALENT, which the contract's idealizations
// explain (the events of the run), and the divergence measured on the rest.
#include <bit>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>

#include "engine/emulate/edge_inputs.hpp"
#include "engine/emulate/output_comparison.hpp"
#include "engine/report/float_error_lines.hpp"

namespace volta::emulate {
namespace {

ArrayContents f32_array(const std::string& name, std::vector<float> values,
                        launch::ArrayKind kind = launch::ArrayKind::Out) {
  ArrayContents a;
  a.name = name;
  a.kind = kind;
  a.type = ElemType::F32;
  a.len = values.size();
  a.bytes.resize(4 * values.size());
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  a.written.assign(values.size(), 1);
  return a;
}

ArrayContents s32_array(const std::string& name, std::vector<int32_t> values,
                        ElemType type = ElemType::S32) {
  ArrayContents a;
  a.name = name;
  a.type = type;
  a.len = values.size();
  a.bytes.resize(4 * values.size());
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  a.written.assign(values.size(), 1);
  return a;
}

struct Case {
  EmulationResult reference, optimized;
  RealArithmeticEvents reference_events, optimized_events;

  CrossCheck compare(std::vector<CrossCheckArray> arrays, uint32_t input = 0) const {
    CrossCheck check;
    compare_outputs(arrays,
                    EmulatedPair{&reference, &optimized, reference_events, optimized_events, input},
                    check);
    return check;
  }
};

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

TEST(OutputComparison, ANaNWhereTheReferenceStoresANumberContradicts) {
  Case c;
  c.reference.outputs = {f32_array("y", {1.0f, 2.0f, 3.0f})};
  c.optimized.outputs = {f32_array("y", {1.0f, kNaN, 3.0f})};
  const CrossCheck check = c.compare({{"y", true}}, 1);
  ASSERT_TRUE(check.contradiction);
  EXPECT_EQ(check.contradiction->element, "y[1]");
  EXPECT_EQ(check.contradiction->reference_device, "2 (f32)");
  EXPECT_EQ(check.contradiction->optimized_device.rfind("nan (f32, bits 0x", 0), 0u);
  EXPECT_EQ(check.contradiction->input, 1u);
  EXPECT_EQ(check.contradiction->input_name, "moderate");
  EXPECT_NE(check.contradiction->why.find("NaN in the optimized kernel"), std::string::npos);
  EXPECT_EQ(check.elements, 3u);
  EXPECT_EQ(check.excused, 0u);
}

TEST(OutputComparison, AnElementBothKernelsComputeExactlyMustBeEqual) {
  // y[1] is far beyond rounding, y[2] only an ulp apart: in a real array both are a divergence,
  // not a contradiction, unless the proof says nothing rounds in either kernel's term there.
  Case c;
  c.reference.outputs = {f32_array("y", {1.0f, 2.0f, 3.0f, -0.0f})};
  c.optimized.outputs = {f32_array("y", {1.0f, 2.5f, std::nextafter(3.0f, 4.0f), 0.0f})};
  EXPECT_FALSE(c.compare({{"y", true}}).contradiction);
  const CrossCheck exact_two = c.compare({{"y", true, {2, 3}}});
  ASSERT_TRUE(exact_two.contradiction);
  EXPECT_EQ(exact_two.contradiction->element, "y[2]"); // -0 and +0 are one real (y[3])
  EXPECT_NE(exact_two.contradiction->why.find("without rounding"), std::string::npos);
  // An overflow elsewhere in the run excuses a real array's differences, not an exact element's.
  c.optimized_events.overflow = 1;
  EXPECT_FALSE(c.compare({{"y", true, {0, 3}}}).contradiction);
  const CrossCheck exact_one = c.compare({{"y", true, {1}}});
  ASSERT_TRUE(exact_one.contradiction);
  EXPECT_EQ(exact_one.contradiction->element, "y[1]");
}

TEST(OutputComparison, AnInfinityOrAnUnwrittenElementContradictsToo) {
  Case c;
  c.reference.outputs = {f32_array("y", {1.0f, 2.0f})};
  c.optimized.outputs = {f32_array("y", {1.0f, -kInf})};
  EXPECT_NE(c.compare({{"y", true}}).contradiction->why.find("an infinity"), std::string::npos);
  c.optimized.outputs = {f32_array("y", {1.0f, 2.0f})};
  c.optimized.outputs[0].written[0] = 0;
  const CrossCheck check = c.compare({{"y", true}});
  ASSERT_TRUE(check.contradiction);
  EXPECT_EQ(check.contradiction->element, "y[0]");
  EXPECT_EQ(check.contradiction->optimized_device, "nothing (not written)");
}

TEST(OutputComparison, TheReferenceUndefinedThereIsNoClaim) {
  // The reference stores a NaN or an infinity: undefined, or overflowed, there; refinement
  // leaves the optimized kernel free. An element only the optimized kernel writes is a note.
  Case c;
  c.reference.outputs = {f32_array("y", {kNaN, kInf, 5.0f})};
  c.optimized.outputs = {f32_array("y", {7.0f, kNaN, 5.0f})};
  c.reference.outputs[0].written[2] = 0;
  const CrossCheck check = c.compare({{"y", true}});
  EXPECT_FALSE(check.contradiction);
  ASSERT_EQ(check.notes.size(), 1u);
  EXPECT_NE(check.notes[0].find("written by the optimized kernel only"), std::string::npos);
}

TEST(OutputComparison, AnOverflowOrUnderflowExplainsANaN) {
  Case c;
  c.reference.outputs = {f32_array("y", {1.0f, 2.0f})};
  c.optimized.outputs = {f32_array("y", {1.0f, kNaN})};
  c.optimized_events.overflow = 2; // the optimized kernel's exp(100): idealized by the contract
  CrossCheck check = c.compare({{"y", true}}, 2);
  EXPECT_FALSE(check.contradiction);
  EXPECT_EQ(check.excused, 1u);
  ASSERT_EQ(check.notes.size(), 1u);
  EXPECT_NE(check.notes[0].find("the optimized kernel's 2 overflows"), std::string::npos)
      << check.notes[0];
  EXPECT_NE(check.notes[0].find("input 'wide'"), std::string::npos);
  // A NaN the optimized kernel made itself from numbers (0/0 where the reference is defined) is
  // no excuse; the reference's own NaN from numbers is (it may be undefined there).
  c.optimized_events = {};
  c.optimized_events.invalid = 1;
  EXPECT_TRUE(c.compare({{"y", true}}).contradiction);
  c.reference_events.invalid = 1;
  EXPECT_FALSE(c.compare({{"y", true}}).contradiction);
  c.reference_events = {};
  c.optimized_events = {};
  c.optimized_events.underflow = 1;
  EXPECT_FALSE(c.compare({{"y", true}}).contradiction);
  // A rounding alone explains no NaN.
  c.optimized_events = {};
  c.optimized_events.inexact = 100;
  c.reference_events.inexact = 100;
  EXPECT_TRUE(c.compare({{"y", true}}).contradiction);
}

TEST(OutputComparison, IntegerOutputsMustAgreeExactly) {
  Case c;
  c.reference.outputs = {s32_array("n", {1, 16777217, 3})};
  c.optimized.outputs = {s32_array("n", {1, 16777216, 3})};
  CrossCheck check = c.compare({{"n", false}});
  ASSERT_TRUE(check.contradiction);
  EXPECT_EQ(check.contradiction->element, "n[1]");
  EXPECT_EQ(check.contradiction->reference_device, "16777217 (s32, bits 0x01000001)");
  EXPECT_EQ(check.contradiction->why, "an integer output differs");
  // Integer data in an array the emulator reads as f32 (no declared type) shows its bits.
  c.reference.outputs = {s32_array("n", {1, 5}, ElemType::F32)};
  c.optimized.outputs = {s32_array("n", {1, 6}, ElemType::F32)};
  check = c.compare({{"n", false}});
  ASSERT_TRUE(check.contradiction);
  EXPECT_EQ(check.contradiction->reference_device, "bits 0x00000005 (4 bytes)");
  // Any float rounding on the input may explain an integer computed from float data: a note.
  c.reference_events.inexact = 1;
  check = c.compare({{"n", false}});
  EXPECT_FALSE(check.contradiction);
  EXPECT_EQ(check.excused, 1u);
  EXPECT_NE(check.notes.at(0).find("the reference's 1 rounding"), std::string::npos);
}

TEST(OutputComparison, FloatsApartBeyondRoundingAreNotedAndMeasured) {
  Case c;
  c.reference.outputs = {f32_array("y", {1.0f, 100.0f, 4.0f, 0.0f})};
  c.optimized.outputs = {f32_array("y", {std::nextafter(1.0f, 2.0f), 100.0f, 4.5f, 1e-9f})};
  const CrossCheck check = c.compare({{"y", true}});
  EXPECT_FALSE(check.contradiction);
  ASSERT_EQ(check.arrays.size(), 1u);
  const CrossCheckDivergence& d = check.arrays[0];
  EXPECT_EQ(d.compared_as, "real");
  EXPECT_EQ(d.elements, 4u);
  EXPECT_DOUBLE_EQ(d.max_abs, 0.5);
  EXPECT_EQ(d.max_element, "y[2]");
  EXPECT_DOUBLE_EQ(d.max_rel, 0.125);
  EXPECT_GE(d.max_ulp, 1u);
  // y[2] is 12% apart where the array's scale is 100: worth a look; y[3] is below 1e-3 of the
  // scale (cancellation leaves such an absolute error), and y[0] one ulp: nothing.
  ASSERT_EQ(check.notes.size(), 1u);
  EXPECT_EQ(check.notes[0].rfind("worth a look: y[2]", 0), 0u) << check.notes[0];
}

TEST(OutputComparison, TheScaledFigureAndPrecisionLossAreMeasured) {
  Case c;
  // y[1] near 0 in the reference (a sum that cancels over the reals): a huge relative and ulp
  // difference, a tiny one against the array's scale; y[2] lost to a catastrophic cancellation.
  c.reference.outputs = {f32_array("y", {8.0f, 1e-7f, 2.0f})};
  c.optimized.outputs = {f32_array("y", {8.0f, 2e-7f, 0.0f})};
  const CrossCheck check = c.compare({{"y", true}});
  ASSERT_EQ(check.arrays.size(), 1u);
  const CrossCheckDivergence& d = check.arrays[0];
  EXPECT_DOUBLE_EQ(d.max_scaled, 2.0 / 8.0); // y[2]: 2 apart where the largest is 8
  EXPECT_DOUBLE_EQ(d.max_rel, 1.0);          // y[1] and y[2] alike
  EXPECT_EQ(d.beyond_rounding, 1u);          // y[2] only: y[1] is below 1e-3 of the scale
  EXPECT_EQ(d.beyond_tolerance, 0u);         // no tolerance, nothing held to it
  EXPECT_FALSE(check.beyond_tolerance());
  EXPECT_EQ(check.tolerance_status(), "");
}

TEST(OutputComparison, AToleranceIsAllclosesRuleOnEachElement) {
  Case c;
  c.reference.outputs = {f32_array("y", {1.0f, 100.0f, 0.0f})};
  c.optimized.outputs = {f32_array("y", {1.0005f, 100.05f, 2e-5f})};
  auto compare_with = [&](FloatTolerance t) {
    CrossCheck check;
    check.tolerance = t;
    compare_outputs(
        {{"y", true}},
        EmulatedPair{&c.reference, &c.optimized, c.reference_events, c.optimized_events, 1}, check);
    check.ran = true;
    return check;
  };
  // |d| <= abs + rel * |reference|: 5e-4 <= 1e-5 + 1e-3, 0.05 <= 1e-5 + 0.1, 2e-5 > 1e-5.
  CrossCheck check = compare_with({1e-3, 1e-5});
  ASSERT_EQ(check.arrays.size(), 1u);
  EXPECT_EQ(check.arrays[0].beyond_tolerance, 1u);
  EXPECT_EQ(check.arrays[0].beyond_tolerance_example.rfind("y[2] on input 'moderate': 0 (f32)", 0),
            0u)
      << check.arrays[0].beyond_tolerance_example;
  EXPECT_TRUE(check.beyond_tolerance());
  EXPECT_EQ(check.tolerance_status(), "beyond");
  // A wider absolute bound takes y[2] in: within.
  check = compare_with({1e-3, 1e-4});
  EXPECT_EQ(check.arrays[0].beyond_tolerance, 0u);
  EXPECT_EQ(check.tolerance_status(), "within");
  // A tighter relative bound leaves y[0] and y[1] out.
  check = compare_with({1e-4, 1e-4});
  EXPECT_EQ(check.arrays[0].beyond_tolerance, 2u);
  EXPECT_EQ(check.arrays[0].beyond_tolerance_example.rfind("y[0]", 0), 0u);
  // An input that left the reals (an overflow) is excused, not held to the tolerance.
  c.optimized_events.overflow = 1;
  check = compare_with({0, 0});
  EXPECT_EQ(check.arrays[0].beyond_tolerance, 0u);
  // Data in integer-typed arrays is compared by its bytes, never held to a float tolerance.
  c.optimized_events = {};
  c.reference.outputs = {s32_array("y", {1, 2})};
  c.optimized.outputs = {s32_array("y", {1, 3})};
  check = compare_with({0, 0});
  EXPECT_EQ(check.arrays[0].beyond_tolerance, 0u);
  // Not run: the contract is not measured.
  CrossCheck skipped;
  skipped.tolerance = FloatTolerance{1e-3, 0};
  EXPECT_EQ(skipped.tolerance_status(), "not_measured");
}

TEST(OutputComparison, TheReportsNameTheInputSetsAsTheEmulatorDoes) {
  for (uint32_t set = 0; set < kEdgeInputSets; ++set)
    EXPECT_EQ(report::cross_check_input_name(set), edge_input_name(set)) << set;
}

TEST(OutputComparison, InitialContentsLeftAloneAreEqual) {
  // An inout element neither kernel writes holds the same input in both: not compared; one the
  // optimized kernel writes is compared with the reference's initial contents.
  Case c;
  c.reference.outputs = {f32_array("io", {1.0f, 2.0f}, launch::ArrayKind::InOut)};
  c.optimized.outputs = {f32_array("io", {1.0f, kNaN}, launch::ArrayKind::InOut)};
  c.reference.outputs[0].written = {0, 0};
  c.optimized.outputs[0].written = {0, 1};
  const CrossCheck check = c.compare({{"io", true}});
  EXPECT_EQ(check.elements, 1u);
  ASSERT_TRUE(check.contradiction);
  EXPECT_EQ(check.contradiction->element, "io[1]");
}

TEST(OutputComparison, UlpDistance) {
  auto b = [](float x) { return uint64_t{std::bit_cast<uint32_t>(x)}; };
  EXPECT_EQ(ulp_distance(b(1.0f), b(1.0f), 4), 0u);
  EXPECT_EQ(ulp_distance(b(0.0f), b(-0.0f), 4), 0u);
  EXPECT_EQ(ulp_distance(b(1.0f), b(std::nextafter(1.0f, 2.0f)), 4), 1u);
  // Across zero: the smallest subnormals of both signs are two apart.
  EXPECT_EQ(ulp_distance(0x00000001, 0x80000001, 4), 2u);
  EXPECT_EQ(ulp_distance(0x3c00, 0x3c01, 2), 1u);
}

} // namespace
} // namespace volta::emulate
