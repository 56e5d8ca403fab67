// What an output is: hardware- and schedule-dependent special
// registers are fresh unknowns that no output, address or branch may depend on; output elements
// have a store type, and stores of different types are compared by their bytes; arrays with
// defined initial contents (zero, inout) are compared by their final contents.
#include <gtest/gtest.h>
#include <string>

#include "tests/support/engine_test_util.hpp"

namespace volta::etest {
namespace {

constexpr const char* kOut = ".param .u64 p_out";

std::string store_body(const std::string& lines) {
  return "  ld.param.u64 %rd0, [p_out];\n" + lines + "\n  ret;";
}

// ---------------------------------------------------------------------------------------------
// Item 5: special registers that depend on the hardware and the schedule
// ---------------------------------------------------------------------------------------------

TEST(ScheduleRegisters, AnOutputDependingOnOneIsUnsupported) {
  for (const std::string reg : {"%smid", "%nsmid", "%warpid", "%nwarpid", "%gridid"}) {
    SCOPED_TRACE(reg);
    const std::string text = kernel(kOut, store_body("  mov.u32 %r1, " + reg +
                                                     ";\n  add.u32 %r2, %r1, 1;\n"
                                                     "  st.global.u32 [%rd0], %r2;"));
    // Executing it is safe (the race check does not look at values)...
    EXPECT_EQ(check_ptx(text, one_out(1)).verdict, Verdict::RaceFree);
    // ...but its value is not claimed, not even against itself.
    const auto p = prove_ptx_pair(text, one_out(1), text, one_out(1));
    EXPECT_EQ(p.verdict, Verdict::Unsupported) << p.detail;
    EXPECT_NE(p.detail.find(reg), std::string::npos) << p.detail;
    const std::string line = std::to_string(line_of(text, "mov.u32 %r1, " + reg));
    EXPECT_NE(p.detail.find("PTX line " + line), std::string::npos) << p.detail;
  }
}

TEST(ScheduleRegisters, EveryReadIsFresh) {
  // %smid - %smid is not 0 for the model: two reads are two unknowns (a warp may migrate).
  const auto r = run_ptx(kernel(kOut, store_body("  mov.u32 %r1, %smid;\n  mov.u32 %r2, %smid;\n"
                                                 "  sub.u32 %r3, %r1, %r2;\n"
                                                 "  st.global.u32 [%rd0], %r3;")),
                         one_out(1));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_NE(r.expr("out", 0), "0") << r.describe();
}

TEST(ScheduleRegisters, AnAddressDependingOnOneIsUnsupported) {
  // out[%warpid]: %warpid is not tid / 32.
  const std::string text = kernel(kOut, store_body("  mov.u32 %r1, %warpid;\n"
                                                   "  mul.wide.u32 %rd1, %r1, 4;\n"
                                                   "  add.u64 %rd2, %rd0, %rd1;\n"
                                                   "  st.global.u32 [%rd2], 7;"));
  const auto r = run_ptx(text, one_out(4, {64, 1, 1}));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_NE(r.failure()->message.find("%warpid (read at PTX line " +
                                      std::to_string(line_of(text, "%warpid")) + ")"),
            std::string::npos)
      << r.failure()->message;
}

TEST(ScheduleRegisters, ABranchDependingOnOneIsUnsupported) {
  const std::string text =
      kernel(kOut, store_body("  mov.u32 %r1, %nsmid;\n  setp.gt.u32 %p1, %r1, 1;\n"
                              "  @%p1 bra DONE;\n  st.global.u32 [%rd0], 7;\nDONE:"));
  const auto r = run_ptx(text, one_out(1));
  ASSERT_NE(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.failure()->verdict, Verdict::Unsupported);
  EXPECT_NE(r.failure()->message.find("%nsmid"), std::string::npos) << r.failure()->message;
}

TEST(ScheduleRegisters, AnUnusedReadIsHarmlessAndLaneIdStaysConcrete) {
  const std::string text = kernel(kOut, store_body("  mov.u32 %r1, %smid;\n"
                                                   "  mov.u32 %r2, %laneid;\n"
                                                   "  mov.u32 %r3, %tid.x;\n"
                                                   "  mul.wide.u32 %rd1, %r3, 4;\n"
                                                   "  add.u64 %rd2, %rd0, %rd1;\n"
                                                   "  st.global.u32 [%rd2], %r2;"));
  const auto r = run_ptx(text, one_out(40, {40, 1, 1}));
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 35), "3");
  const auto p = prove_ptx_pair(text, one_out(40, {40, 1, 1}), text, one_out(40, {40, 1, 1}));
  EXPECT_EQ(p.verdict, Verdict::Equivalent) << p.detail;
}

// ---------------------------------------------------------------------------------------------
// Item 6: output elements have a type; stores of different types are compared by their bytes
// ---------------------------------------------------------------------------------------------

entry::EntryResult prove_stores(const std::string& ref, const std::string& opt,
                                const Launch& l = one_out(1)) {
  return prove_ptx_pair(kernel(kOut, store_body(ref)), l, kernel(kOut, store_body(opt)), l);
}

TEST(StoreTypes, AnIntegerOneIsNotAFloatOne) {
  const auto p = prove_stores("  st.global.s32 [%rd0], 1;", "  st.global.f32 [%rd0], 0f3F800000;");
  EXPECT_EQ(p.verdict, Verdict::NotEquivalent) << p.detail;
  ASSERT_TRUE(p.counterexample.has_value());
  EXPECT_NE(p.counterexample->reference_value.find("s32 (bytes 0x00000001)"), std::string::npos)
      << p.counterexample->reference_value;
  EXPECT_NE(p.counterexample->optimized_value.find("f32 (bytes 0x3f800000)"), std::string::npos)
      << p.counterexample->optimized_value;
  ASSERT_EQ(p.output_types.size(), 1u);
  EXPECT_EQ(p.output_types[0].reference_stores, "s32");
  EXPECT_EQ(p.output_types[0].optimized_stores, "f32");
}

TEST(StoreTypes, TheSameBytesUnderDifferentTypesAreEqual) {
  // 0x3F800000 is the f32 encoding of 1.0; -1 as s32 and 0xFFFFFFFF as u32 are the same bytes.
  EXPECT_EQ(
      prove_stores("  st.global.u32 [%rd0], 1065353216;", "  st.global.f32 [%rd0], 0f3F800000;")
          .verdict,
      Verdict::Equivalent);
  EXPECT_EQ(prove_stores("  mov.u32 %r1, 0xFFFFFFFF;\n  st.global.s32 [%rd0], %r1;",
                         "  st.global.u32 [%rd0], 4294967295;")
                .verdict,
            Verdict::Equivalent);
  // A half 1.0 (0x3C00) stored through .u16 against an f16 store of 1.0.
  EXPECT_EQ(prove_stores("  mov.b16 %h1, 0x3C00;\n  st.global.u16 [%rd0], %h1;",
                         "  mov.f32 %f1, 0f3F800000;\n  cvt.rn.f16.f32 %h1, %f1;\n"
                         "  st.global.b16 [%rd0], %h1;",
                         one_out(1, {1, 1, 1}, 2))
                .verdict,
            Verdict::Equivalent);
}

TEST(StoreTypes, SymbolicDataUnderDifferentTypesIsNotCompared) {
  // The same input element, copied through an integer and through a float register: the bytes
  // are the same on a GPU, but the model compares symbolic values of one store type only.
  Launch l = one_out(1);
  l.arrays.push_back("in:0x200000:4:1:in");
  l.params.push_back("ptr:in");
  const std::string params = ".param .u64 p_out, .param .u64 p_in";
  const auto as_int = kernel(params, "  ld.param.u64 %rd0, [p_out];\n  ld.param.u64 %rd1, [p_in];\n"
                                     "  ld.global.s32 %r1, [%rd1];\n  st.global.s32 [%rd0], %r1;\n"
                                     "  ret;");
  const auto as_float =
      kernel(params, "  ld.param.u64 %rd0, [p_out];\n  ld.param.u64 %rd1, [p_in];\n"
                     "  ld.global.f32 %f1, [%rd1];\n  st.global.f32 [%rd0], %f1;\n  ret;");
  const auto p = prove_ptx_pair(as_int, l, as_float, l);
  EXPECT_NE(p.verdict, Verdict::Equivalent) << p.detail;
  EXPECT_NE(p.verdict, Verdict::NotEquivalent) << p.detail;
}

TEST(StoreTypes, ManifestTypeIsParsedAndChecked) {
  auto a = launch::parse_array_flag("out:0x100000:2:8:out:bf16");
  ASSERT_TRUE(a.has_value()) << a.error();
  EXPECT_EQ(a->type, launch::ElemType::BF16);
  const auto narrow = launch::parse_array_flag("out:0x100000:4:8:out:f16");
  ASSERT_FALSE(narrow.has_value());
  EXPECT_NE(narrow.error().find("2 bytes wide"), std::string::npos) << narrow.error();
  const auto unknown = launch::parse_array_flag("out:0x100000:4:8:out:float");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().find("unknown element type"), std::string::npos) << unknown.error();
  EXPECT_EQ(launch::parse_array_flag("out:0x100000:4:8:out")->type, launch::ElemType::Unknown);
}

TEST(StoreTypes, DeclaredTypeIsReported) {
  Launch l = one_out(1);
  l.arrays = {"out:0x100000:4:1:out:f32"};
  const auto p =
      prove_stores("  st.global.f32 [%rd0], 0f3F800000;", "  st.global.f32 [%rd0], 0f3F800000;", l);
  EXPECT_EQ(p.verdict, Verdict::Equivalent) << p.detail;
  ASSERT_EQ(p.output_types.size(), 1u);
  EXPECT_EQ(p.output_types[0].declared, "f32");
}

TEST(StoreTypes, Bf16ArraysReadStoredBitsAsBf16) {
  // 0x3F80 is bf16 1.0 (and f16 1.875): with the array declared bf16, a bf16 1.0 stored as
  // plain bits equals a float-typed store of the same bits, and not of f16 1.875's bits.
  Launch l = one_out(1, {1, 1, 1}, 2);
  l.arrays = {"out:0x100000:2:1:out:bf16"};
  const auto r = run_ptx(kernel(kOut, store_body("  mov.f32 %f1, 0f3F800000;\n"
                                                 "  cvt.rn.bf16.f32 %h1, %f1;\n"
                                                 "  st.global.b16 [%rd0], %h1;")),
                         l);
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 0), "1") << r.describe();
}

// ---------------------------------------------------------------------------------------------
// Item 10: arrays with defined initial contents are compared by their final contents
// ---------------------------------------------------------------------------------------------

TEST(InitialContents, AZeroWrittenByOneKernelOnlyIsNoDifference) {
  Launch l = one_out(2);
  l.arrays = {"out:0x100000:4:2:zero"};
  const auto p =
      prove_stores("  st.global.f32 [%rd0], 0f40000000;\n  st.global.f32 [%rd0+4], 0f00000000;",
                   "  st.global.f32 [%rd0], 0f40000000;", l);
  EXPECT_EQ(p.verdict, Verdict::Equivalent) << p.detail;
  EXPECT_EQ(p.elements.total, 2u);
}

TEST(InitialContents, ANonZeroWrittenByOneKernelOnlyIsADifference) {
  Launch l = one_out(2);
  l.arrays = {"out:0x100000:4:2:zero"};
  const auto p = prove_stores("  st.global.f32 [%rd0+4], 0f3F800000;",
                              "  st.global.f32 [%rd0], 0f00000000;", l);
  EXPECT_EQ(p.verdict, Verdict::NotEquivalent) << p.detail;
  ASSERT_TRUE(p.counterexample.has_value());
  EXPECT_EQ(p.counterexample->element, "out[1]");
}

TEST(InitialContents, InoutElementRewrittenWithItsOwnValue) {
  Launch l = one_out(2);
  l.arrays = {"out:0x100000:4:2:inout"};
  // Reference: out[1] = out[0] and out[0] = out[0] (a no-op); optimized: out[1] = out[0] only.
  const auto p = prove_stores("  ld.global.f32 %f1, [%rd0];\n  st.global.f32 [%rd0], %f1;\n"
                              "  st.global.f32 [%rd0+4], %f1;",
                              "  ld.global.f32 %f1, [%rd0];\n  st.global.f32 [%rd0+4], %f1;", l);
  EXPECT_EQ(p.verdict, Verdict::Equivalent) << p.detail;
  // out[0] = 2 * out[0] in the reference only: a real difference, with a real counterexample.
  const auto q = prove_stores("  ld.global.f32 %f1, [%rd0];\n  add.f32 %f2, %f1, %f1;\n"
                              "  st.global.f32 [%rd0], %f2;\n  st.global.f32 [%rd0+4], %f1;",
                              "  ld.global.f32 %f1, [%rd0];\n  st.global.f32 [%rd0+4], %f1;", l);
  EXPECT_EQ(q.verdict, Verdict::NotEquivalent) << q.detail;
  ASSERT_TRUE(q.counterexample.has_value());
  EXPECT_EQ(q.counterexample->element, "out[0]");
  EXPECT_TRUE(q.counterexample->confirmed);
}

TEST(InitialContents, InoutIntegerElementRewrittenWithItsOwnValue) {
  Launch l = one_out(2);
  l.arrays = {"out:0x100000:4:2:inout"};
  const auto p = prove_stores("  ld.global.s32 %r1, [%rd0];\n  st.global.s32 [%rd0], %r1;\n"
                              "  st.global.s32 [%rd0+4], %r1;",
                              "  ld.global.s32 %r1, [%rd0];\n  st.global.s32 [%rd0+4], %r1;", l);
  EXPECT_EQ(p.verdict, Verdict::Equivalent) << p.detail;
}

TEST(InitialContents, AnOutElementWrittenByOneKernelOnlyIsStillADifference) {
  Launch l = one_out(2);
  const auto p =
      prove_stores("  st.global.f32 [%rd0], 0f00000000;\n  st.global.f32 [%rd0+4], 0f00000000;",
                   "  st.global.f32 [%rd0], 0f00000000;", l);
  EXPECT_EQ(p.verdict, Verdict::NotEquivalent) << p.detail;
  EXPECT_NE(p.detail.find("written by the reference kernel but not by the optimized"),
            std::string::npos)
      << p.detail;
}

} // namespace
} // namespace volta::etest
