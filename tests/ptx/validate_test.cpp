// The instruction table's checks: what ptxas rejects is a located error, what it accepts parses.
// Every "rejected" case below was checked against ptxas 13 (sm_90), and so was every accepted
// one (tests/ptx/ptxas_differential_test.cpp repeats such checks on mutants of our kernels).
#include <gtest/gtest.h>

#include "ptx/instruction_set.hpp"
#include "test_util.hpp"

namespace volta::ptx {
namespace {

// Registers of every common type, declared the way nvcc names them.
constexpr std::string_view kRegisters =
    ".reg .pred %p<4>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    ".reg .f32 %f<8>;\n.reg .f64 %fd<4>;\n";

std::string with_registers(std::string_view line) {
  return testing::kernel(std::string(kRegisters) + "\t" + std::string(line));
}

// The single error of a body line: its line, column and message.
Diagnostic rejected(std::string_view line) {
  std::vector<Diagnostic> d = testing::parse_bad(with_registers(line));
  EXPECT_EQ(d.size(), 1u) << render_all(d);
  return d.empty() ? Diagnostic{} : d.front();
}

void accepted(std::string_view line) {
  ParseResult r = parse(with_registers(line), "t.ptx");
  EXPECT_TRUE(r.ok()) << line << "\n" << render_all(r.diagnostics);
}

// The line under test follows the header (3 lines), the entry (4) and the registers (6).
constexpr uint32_t kLine = 14;

TEST(Validate, UnknownTypeIsLocatedAtItsSuffix) {
  Diagnostic d = rejected("mad.lo.s33 %r1, %r2, %r3, %r4;");
  EXPECT_EQ(d.message, "unknown type '.s33'");
  EXPECT_EQ(d.where.line, kLine);
  EXPECT_EQ(d.where.column, 8u); // the dot before s33 (after a tab)
  EXPECT_NE(d.render().find("bad.ptx:14:8: error: unknown type '.s33'"), std::string::npos)
      << d.render();
  EXPECT_EQ(rejected("ld.global.f32x %f1, [%rd1];").message, "unknown type '.f32x'");
}

TEST(Validate, TypeNotAllowedForTheOpcode) {
  EXPECT_EQ(rejected("and.s32 %r1, %r2, %r3;").message, "type '.s32' is not allowed for 'and'");
  EXPECT_EQ(rejected("abs.u32 %r1, %r2;").message, "type '.u32' is not allowed for 'abs'");
  EXPECT_EQ(rejected("ld.global.f16 %rs1, [%rd1];").message, "type '.f16' is not allowed for 'ld'");
  EXPECT_EQ(rejected("add.f32.f32 %f1, %f2, %f3;").message,
            "'add' takes at most 1 type suffix, found 2");
  EXPECT_EQ(rejected("add %r1, %r2, %r3;").message, "'add' needs 1 type suffix, found 0");
}

TEST(Validate, ModifiersTheOpcodeDoesNotTake) {
  EXPECT_EQ(rejected("add.ftz.s32 %r1, %r2, %r3;").message,
            "modifier '.ftz' does not apply to '.s32' of 'add'");
  EXPECT_EQ(rejected("add.rn.s32 %r1, %r2, %r3;").message,
            "modifier '.rn' does not apply to '.s32' of 'add'");
  EXPECT_EQ(rejected("add.bogus.s32 %r1, %r2, %r3;").message,
            "modifier '.bogus' is not allowed for 'add'");
  EXPECT_EQ(rejected("add.rn.rz.f32 %f1, %f2, %f3;").message, "more than one rounding modifier");
  EXPECT_EQ(rejected("mul.s32 %r1, %r2, %r3;").message,
            "'mul' '.s32' needs one of .lo, .hi, .wide");
  EXPECT_EQ(rejected("div.f32 %f1, %f2, %f3;").message,
            "'div' '.f32' needs one of .approx, .full, .rn, .rz, .rm, .rp");
  EXPECT_EQ(rejected("setp.lt.b32 %p1, %r1, %r2;").message,
            "modifier '.lt' does not apply to '.b32' of 'setp'");
  // .relu on cvt needs a narrow float destination (the ptxas differential's mutant).
  EXPECT_EQ(rejected("cvt.f32.bf16.relu %f2, %h1;").message,
            "modifier '.relu' does not apply to '.f32' of 'cvt'");
}

// Between integers cvt takes .sat only where it can clamp: ptxas 13 rejects the others with
// "Illegal modifier '.sat'" (the ptxas differential's mutant cvt.s32.s16.sat).
TEST(Validate, CvtSatOnlyWhereTheDestinationCanOverflow) {
  for (const char* line : {"cvt.s32.s16.sat %r1, %rs1;", "cvt.sat.s32.u16 %r1, %rs1;",
                           "cvt.sat.u64.u32 %rd1, %r1;", "cvt.sat.u32.u32 %r1, %r2;"}) {
    SCOPED_TRACE(line);
    EXPECT_NE(rejected(line).message.find("'.sat' is illegal"), std::string::npos);
  }
  for (const char* line :
       {"cvt.sat.u32.s16 %r1, %rs1;", "cvt.sat.s16.u16 %rs2, %rs1;", "cvt.sat.u16.u32 %rs1, %r1;",
        "cvt.sat.s32.u32 %r1, %r2;", "cvt.rzi.sat.s32.f32 %r1, %f1;"})
    accepted(line);
}

// redux.sync and match.sync as ptxas 13 takes them (the test header targets sm_80).
TEST(Validate, ReduxAndMatchForms) {
  accepted("redux.sync.add.u32 %r1, %r2, 0xffffffff;");
  accepted("redux.sync.min.s32 %r1, %r2, %r3;");
  accepted("redux.sync.xor.b32 %r1, %r2, 0xffffffff;");
  accepted("match.any.sync.b64 %r1, %rd2, 0xffffffff;");
  accepted("match.all.sync.b32 %r1|%p1, %r2, 0xffffffff;");
  EXPECT_EQ(rejected("redux.sync.add.b32 %r1, %r2, 0xffffffff;").message,
            "'redux' of add, min or max takes .u32 or .s32, not .b32");
  EXPECT_EQ(rejected("redux.sync.and.u32 %r1, %r2, 0xffffffff;").message,
            "'redux' of and, or or xor takes .b32, not .u32");
  EXPECT_NE(rejected("redux.sync.min.f32 %f1, %f2, 0xffffffff;")
                .message.find("needs an sm_10x target with the a or f suffix"),
            std::string::npos);
  // bar.arrive needs its thread count (the ptxas differential's mutant of c8_bar_arrive_producer).
  accepted("bar.arrive 1, 64;");
  EXPECT_EQ(rejected("bar.arrive 1;").message,
            "'bar.arrive' takes a barrier and a thread count, found 1 operand(s)");
  EXPECT_EQ(rejected("match.any.sync.b32 %r1|%p1, %r2, 0xffffffff;").message,
            "'match.any' has no predicate output (only 'match.all' has one)");
  // Older targets: redux came with sm_80.
  const std::vector<Diagnostic> d = testing::parse_bad(
      std::string(".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n") +
      std::string(kRegisters) + "\tredux.sync.add.u32 %r1, %r2, 0xffffffff;\n\tret;\n}\n");
  ASSERT_EQ(d.size(), 1u) << render_all(d);
  EXPECT_EQ(d.front().message, "'redux' needs sm_80 or newer, the target is sm_75");
}

TEST(Validate, StateSpacesAndVectorWidths) {
  EXPECT_EQ(rejected("add.global.f32 %f1, %f2, %f3;").message,
            "state space '.global' is not allowed for 'add'");
  EXPECT_EQ(rejected("add.v2.f32 %f1, %f2, %f3;").message,
            "vector width '.v2' is not allowed for 'add'");
  // 256-bit loads need sm_100 (the test header targets sm_80).
  EXPECT_NE(rejected("ld.global.v8.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd1];")
                .message.find("needs sm_100"),
            std::string::npos);
  EXPECT_EQ(rejected("ld.global.v2.f32 %f1, [%rd1];").message,
            "'.v2' needs a vector of 2 elements here");
  EXPECT_EQ(rejected("cvta.to.u64 %rd1, %rd2;").message, "'cvta' needs a state space");
  // min/max .abs (and .xorsign.abs) need sm_86: ptxas 13 refuses them on sm_80.
  EXPECT_EQ(rejected("max.abs.f32 %f3, %f1, %f2;").message, "'max' with .abs needs sm_86 or newer");
  EXPECT_EQ(rejected("cvt.rn.bf16.u32 %rs1, %r1;").message,
            "'cvt' to .bf16 from .u32 needs sm_90 or newer");
  // bf16 comparisons need sm_90 (the ptxas differential's mutant setp.eq.bf16x2).
  EXPECT_EQ(rejected("setp.eq.bf16x2 %p1, %r1, %r2;").message,
            "'.bf16x2' 'setp' needs sm_90 or newer");
  EXPECT_EQ(rejected("set.eq.u32.bf16 %r3, %rs1, %rs2;").message,
            "'.bf16' 'set' needs sm_90 or newer");
  // Vector red and atom need sm_90 (the ptxas differential's mutant red.global.add.v2.f32).
  EXPECT_EQ(rejected("red.global.add.v2.f32 [%rd1], {%f1, %f2};").message,
            "a vector 'red' needs sm_90 or newer, the target is sm_80");
}

TEST(Validate, OperandCountsAndKinds) {
  Diagnostic d = rejected("add.s32 %r1, %r2;");
  EXPECT_EQ(d.message, "'add' takes 3 operands, found 2");
  EXPECT_EQ(d.where.column, 2u);
  EXPECT_EQ(rejected("add.s32 %r1, %r2, %r3, %r4;").message, "'add' takes 3 operands, found 4");
  EXPECT_EQ(rejected("add.s32 5, %r2, %r3;").message,
            "operand 1 of 'add' is a destination: it must be a register");
  EXPECT_EQ(rejected("add.s32 %r1, %r2, [%rd1];").message,
            "operand 3 of 'add' must be a register or an immediate");
  EXPECT_EQ(rejected("ld.global.f32 %f1, %rd1;").message,
            "operand 2 of 'ld' must be an address in '[ ]'");
  EXPECT_EQ(rejected("bra 5;").message, "operand 1 of 'bra' must be a label");
  // sm_80's cp.async has no table row; its counts are checked on their own (ptxas: "Arguments
  // mismatch"; found by the ptxas differential test: `cp.async.wait_all` with its suffix dropped).
  EXPECT_EQ(rejected("cp.async;").message, "'cp.async' takes 3 to 5 operands, found 0");
  EXPECT_EQ(rejected("cp.async.wait_group;").message,
            "'cp.async' of this form takes 1 operands, found 0");
  EXPECT_EQ(rejected("cp.async.commit_group 1;").message,
            "'cp.async' of this form takes no operands, found 1");
  accepted("cp.async.ca.shared.global [%r1], [%rd1], 4;");
  accepted("cp.async.wait_group 0;");
  accepted("cp.async.wait_all;");
  // Found by the differential test too: packing takes a bit type, and cvt's .bf16 a 16-bit
  // register (its .f16 may be a wider bit register).
  EXPECT_EQ(rejected("mov.f32 {%rs1, %rs2}, %r1;").message,
            "'mov' packs or unpacks with a bit type (.b16, .b32, .b64, .b128), not .f32");
  EXPECT_EQ(rejected("mov.u32 {%rs1, %rs2}, %r1;").message,
            "'mov' packs or unpacks with a bit type (.b16, .b32, .b64, .b128), not .u32");
  accepted("mov.b32 {%rs1, %rs2}, %r1;");
  EXPECT_EQ(
      rejected("cvt.f32.bf16 %f1, %r1;").message,
      "operand %r1 is declared .b32, which cannot hold the .bf16 of 'cvt' (a 16-bit register)");
  accepted("cvt.f32.bf16 %f1, %rs1;");
  accepted("cvt.f32.f16 %f1, %r1;");
}

TEST(Validate, RegisterTypesMustFitTheInstructionType) {
  Diagnostic d = rejected("add.s32 %f1, %f2, %f3;");
  EXPECT_EQ(d.message,
            "operand %f1 is declared .f32, which does not fit the instruction type .s32");
  EXPECT_EQ(d.where.column, 10u);
  EXPECT_EQ(rejected("add.s32 %r1, %r2, %rd1;").message,
            "operand %rd1 is declared .b64, which does not fit the instruction type .s32");
  EXPECT_EQ(rejected("setp.eq.s32 %r1, %r2, %r3;").message,
            "operand %r1 of 'setp' must be a predicate, it is declared .b32");
}

TEST(Validate, MemoryForms) {
  EXPECT_EQ(rejected("ld.volatile.local.u32 %r1, [%rd1];").message,
            "modifier '.volatile' cannot be applied to the .local space");
  EXPECT_EQ(rejected("ld.shared.nc.u32 %r1, [%rd1];").message,
            "modifier '.nc' needs the .global space");
  EXPECT_EQ(
      rejected("ld.relaxed.global.u32 %r1, [%rd1];").message,
      "'ld' with .relaxed, .acquire or .release needs a scope (.cta, .cluster, .gpu or .sys)");
  EXPECT_EQ(rejected("ld.global.cta.u32 %r1, [%rd1];").message,
            "a scope on 'ld' needs a memory order (.relaxed, .acquire or .release)");
  EXPECT_EQ(rejected("ld.global.ca.cg.u32 %r1, [%rd1];").message, "more than one cache operator");
  EXPECT_EQ(rejected("ld.global.L2::cache_hint.u32 %r1, [%rd1];").message,
            "'.L2::cache_hint' needs a cache policy operand");
  EXPECT_EQ(rejected("ld.shared.u64 %rd1, [k_param_0];").message,
            "'k_param_0' is a .param variable, but the instruction accesses the .shared space");
  EXPECT_EQ(rejected("ld.global.u64 %r1, [%rd1];").message,
            "operand %r1 is declared .b32, which cannot hold the instruction type .u64");
  EXPECT_EQ(rejected("st.const.u32 [%rd1], %r1;").message,
            "state space '.const' is not allowed for 'st'");
  // ld has no .reg form (ptxas 13: "Parsing error near '.reg'"); found by the ptxas
  // differential test on a mutant of gemm_split_k.
  EXPECT_EQ(rejected("ld.reg.f32 %f1, [%rd1];").message,
            "state space '.reg' is not allowed for 'ld'");
  accepted("ld.global.b16 %f1, [%rd1];");  // a bit type into a wider register
  accepted("ld.global.f32 %rd1, [%rd2];"); // anything into a wider bit register
  accepted("ld.relaxed.gpu.global.u32 %r1, [%rd1];");
  accepted("ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;");
}

TEST(Validate, ImmediatesAndSpecialRegisters) {
  EXPECT_EQ(rejected("add.f32 %f1, %f2, 0;").message,
            "operand 3 of 'add' is an integer immediate for .f32 (write a float, 0f... or 0d...)");
  EXPECT_EQ(rejected("add.s32 %r1, %r2, 1.5;").message,
            "operand 3 of 'add' is a float immediate for .s32");
  EXPECT_EQ(rejected("mov.f32 %f1, %tid.x;").message,
            "the special register %tid.x cannot be read as .f32");
  EXPECT_EQ(rejected("bar.sync 16;").message, "barrier number 16 is out of range (0 to 15)");
  EXPECT_EQ(rejected("shfl.sync.bfly.b32 %r1, %r2, 1, 31;").message,
            "'shfl.sync' takes 5 operands, found 4");
  EXPECT_EQ(rejected("atom.global.cas.b32 %r1, [%rd1], %r2;").message,
            "'atom' of this form takes 4 operands, found 3");
  accepted("add.f32 %f1, %f2, 0f3F800000;");
  accepted("mov.b32 %r1, 0f3F800000;"); // a bit type takes a float's bits
  accepted("mov.u32 %r1, %laneid;");
}

TEST(Validate, ConversionRounding) {
  EXPECT_NE(rejected("cvt.f32.s32 %f1, %r1;").message.find("needs a rounding"), std::string::npos);
  EXPECT_NE(rejected("cvt.s32.f32 %r1, %f1;").message.find("needs an integer rounding"),
            std::string::npos);
  EXPECT_NE(rejected("cvt.rn.f32.f16 %f1, %rs1;").message.find("takes no rounding"),
            std::string::npos);
  EXPECT_NE(rejected("cvt.rn.f32.f32 %f1, %f2;").message.find("only an integer rounding"),
            std::string::npos);
  EXPECT_NE(rejected("cvt.rn.s32.s16 %r1, %rs1;").message.find("takes no rounding"),
            std::string::npos);
}

// .ftz flushes an f32: ptxas 13 takes it only where the source or the destination is one (the
// ptxas differential's mutant cvt.ftz.u64.u32 parsed before).
TEST(Validate, ConversionFlushNeedsAnF32) {
  for (std::string_view line : {"cvt.ftz.u64.u32 %rd1, %r2;", "cvt.rn.ftz.f16.s32 %rs1, %r2;",
                                "cvt.rzi.ftz.s32.f64 %r1, %fd1;"}) {
    SCOPED_TRACE(std::string(line));
    EXPECT_NE(rejected(line).message.find("'.ftz' applies only to a 'cvt' with an .f32"),
              std::string::npos);
  }
  for (std::string_view line : {"cvt.rn.ftz.f32.s32 %f1, %r2;", "cvt.ftz.f64.f32 %fd1, %f1;",
                                "cvt.rn.ftz.f16.f32 %rs1, %f1;", "cvt.rn.ftz.f32.f64 %f1, %fd1;"})
    accepted(line);
}

TEST(Validate, WhatPtxasAcceptsParses) {
  for (std::string_view line : {
           "add.f32 %f1, %r2, %r3;",       // a bit-typed register fits any 32-bit type
           "add.u32 %r1, %r2, 7;",         // immediates are untyped
           "mul.wide.s32 %rd1, %r1, %r2;", // .wide: the result is twice as wide
           "mad.wide.u32 %rd1, %r1, %r2, %rd3;",
           "cvt.f32.f16 %f1, %rs1;",    // widening float: exact, no rounding
           "cvt.rn.f16.f32 %rs1, %f1;", // narrowing float: rounding required
           "cvt.rni.f32.f32 %f1, %f2;", // same format: integer rounding allowed
           "cvt.rzi.ftz.s32.f32 %r1, %f1;",
           "cvt.u32.u64 %r1, %rd1;", // integer narrowing: no rounding
           "cvt.rn.f16x2.f32 %r1, %f1, %f2;",
           "ld.f32 %f1, [%rd1];",
           "ld.global.u8 %r1, [%rd1];", // ld and st allow wider registers
           "st.global.f32 [%rd1], 0f3F800000;",
           "setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3;",
           "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;",
           "max.relu.s32 %r1, %r2, %r3;",
           "prmt.b32.f4e %r1, %r2, %r3, %r4;",
           "barrier.cluster.arrive;",
           "bar.sync 0;",
           "mov.b64 %rd1, {%r1, %r2};",
           "mov.u32 %r1, %tid.x;",
           "cp.async.ca.shared.global [%rd1], [%rd2], 16;", // checked only for type-like words
           "griddepcontrol.wait;",                          // not modelled, still parses
       }) {
    accepted(line);
  }
}

TEST(Validate, EveryRowIsWellFormed) {
  for (const InstructionRule& rule : instruction_rules()) {
    SCOPED_TRACE(std::string(rule.opcode));
    EXPECT_LE(rule.min_types, rule.max_types);
    EXPECT_LE(rule.min_operands, rule.max_operands);
    EXPECT_EQ(instruction_rule(rule.opcode), &rule) << "a second row for the same opcode";
    EXPECT_TRUE(rule.max_types == 0 || !rule.types.empty());
  }
  EXPECT_TRUE(looks_like_type("s33"));
  EXPECT_TRUE(looks_like_type("f32x"));
  EXPECT_FALSE(looks_like_type("sync"));
  EXPECT_TRUE(is_ptx_type("bf16x2"));
  EXPECT_FALSE(is_ptx_type("s33"));
}

} // namespace
} // namespace volta::ptx
