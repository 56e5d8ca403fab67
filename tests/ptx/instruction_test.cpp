// Opcodes, suffix decoding, guards.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace volta::ptx {
namespace {

using testing::instruction;

TEST(Instructions, LoadDecoding) {
  Instruction i = instruction("ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];");
  EXPECT_EQ(i.opcode, Opcode::Ld);
  EXPECT_EQ(i.opcode_name, "ld");
  EXPECT_EQ(i.suffixes, (std::vector<std::string>{"global", "nc", "v4", "f32"}));
  EXPECT_EQ(i.space, StateSpace::Global);
  EXPECT_TRUE(i.modifiers.has(Modifier::Nc));
  EXPECT_FALSE(i.modifiers.has(Modifier::Volatile));
  EXPECT_EQ(i.vector_width, 4);
  EXPECT_EQ(i.types, std::vector<ScalarType>{ScalarType::F32});
  EXPECT_EQ(i.type(), ScalarType::F32);
  EXPECT_EQ(i.cmp, CmpOp::None);

  Instruction v = instruction("ld.volatile.shared.f32 %f1, [%r1];");
  EXPECT_TRUE(v.modifiers.has(Modifier::Volatile));
  EXPECT_EQ(v.space, StateSpace::Shared);
  EXPECT_EQ(v.vector_width, 1);
}

TEST(Instructions, ConversionTypesInOrder) {
  Instruction i = instruction("cvt.rn.f32.s32 %f1, %r1;");
  EXPECT_EQ(i.opcode, Opcode::Cvt);
  EXPECT_TRUE(i.modifiers.has(Modifier::Rn));
  EXPECT_EQ(i.types, (std::vector<ScalarType>{ScalarType::F32, ScalarType::S32}));
  Instruction t = instruction("cvta.to.global.u64 %rd4, %rd3;");
  EXPECT_EQ(t.opcode, Opcode::Cvta);
  EXPECT_TRUE(t.modifiers.has(Modifier::To));
  EXPECT_EQ(t.space, StateSpace::Global);
}

TEST(Instructions, ComparisonsAndBooleanCombination) {
  Instruction s = instruction("setp.lt.u32 %p1, %r3, 2;");
  EXPECT_EQ(s.opcode, Opcode::Setp);
  EXPECT_EQ(s.cmp, CmpOp::Lt);
  EXPECT_EQ(s.types, std::vector<ScalarType>{ScalarType::U32});

  Instruction a = instruction("setp.gt.and.s32 %p1, %r1, %r2, %p3;");
  EXPECT_EQ(a.cmp, CmpOp::Gt);
  EXPECT_EQ(a.bool_op, BoolOp::And);

  // `.lo` / `.hi` are comparisons for setp and modifiers elsewhere.
  Instruction lo = instruction("setp.lo.u32 %p1, %r1, %r2;");
  EXPECT_EQ(lo.cmp, CmpOp::Lo);
  EXPECT_FALSE(lo.modifiers.has(Modifier::Lo));
  Instruction mul = instruction("mul.lo.s32 %r1, %r2, %r3;");
  EXPECT_TRUE(mul.modifiers.has(Modifier::Lo));
  EXPECT_EQ(mul.cmp, CmpOp::None);
  Instruction hi = instruction("mul.hi.s32 %r1, %r2, %r3;");
  EXPECT_TRUE(hi.modifiers.has(Modifier::Hi));

  Instruction ftz = instruction("setp.leu.ftz.f32 %p1, %f1, %f2;");
  EXPECT_EQ(ftz.cmp, CmpOp::Leu);
  EXPECT_TRUE(ftz.modifiers.has(Modifier::Ftz));

  Instruction set = instruction("set.ne.xor.u32.s32 %r1, %r2, %r3, !%p1;");
  EXPECT_EQ(set.opcode, Opcode::Set);
  EXPECT_EQ(set.cmp, CmpOp::Ne);
  EXPECT_EQ(set.bool_op, BoolOp::Xor);
  EXPECT_EQ(set.types, (std::vector<ScalarType>{ScalarType::U32, ScalarType::S32}));

  // `.and` of an atomic is not a boolean combination.
  Instruction atom = instruction("atom.global.and.b32 %r1, [%rd1], %r2;");
  EXPECT_EQ(atom.bool_op, BoolOp::None);
  EXPECT_EQ(atom.opcode, Opcode::Atom);
}

TEST(Instructions, TensorCoreForms) {
  Instruction mma =
      instruction("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, "
                  "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};");
  EXPECT_EQ(mma.opcode, Opcode::Mma);
  EXPECT_TRUE(mma.modifiers.has(Modifier::Sync));
  EXPECT_TRUE(mma.modifiers.has(Modifier::Aligned));
  EXPECT_TRUE(mma.has_suffix("m16n8k16"));
  EXPECT_TRUE(mma.has_suffix("row"));
  EXPECT_EQ(mma.types, (std::vector<ScalarType>{ScalarType::F32, ScalarType::F16, ScalarType::F16,
                                                ScalarType::F32}));
  EXPECT_EQ(mma.operands.size(), 4u);

  Instruction w = instruction("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, "
                              "%r4, %r5, %r6, %r7, %r8}, [%r10], %r135;");
  EXPECT_EQ(w.opcode, Opcode::Wmma);
  EXPECT_EQ(w.suffixes.front(), "load");
  EXPECT_EQ(w.space, StateSpace::Shared);
  EXPECT_EQ(w.types, std::vector<ScalarType>{ScalarType::F16});
  EXPECT_EQ(w.operands[0].as<VectorOperand>().elements.size(), 8u);

  Instruction l = instruction("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%r93, %r94, %r95, %r96}, "
                              "[%r1];");
  EXPECT_EQ(l.opcode, Opcode::Ldmatrix);
  EXPECT_EQ(l.vector_width, 1) << ".x4 is not a vector width";
  EXPECT_TRUE(l.has_suffix("x4"));
  EXPECT_EQ(l.types, std::vector<ScalarType>{ScalarType::B16});
}

TEST(Instructions, AsyncCopiesAndScopedSpaces) {
  Instruction cp = instruction("cp.async.ca.shared.global [%r1], [%rd1], 16;");
  EXPECT_EQ(cp.opcode, Opcode::CpAsync);
  EXPECT_EQ(cp.opcode_name, "cp");
  EXPECT_EQ(cp.space, StateSpace::Shared);
  EXPECT_TRUE(cp.modifiers.has(Modifier::Ca));
  EXPECT_EQ(instruction("cp.async.commit_group;").opcode, Opcode::CpAsync);
  EXPECT_EQ(instruction("cp.async.wait_group 0;").opcode, Opcode::CpAsync);

  Instruction bulk = instruction("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
                                 "bytes [%r1], [%rd1], %r2, [%r3];");
  EXPECT_EQ(bulk.space, StateSpace::Shared);
  EXPECT_EQ(bulk.suffixes[2], "shared::cluster");
  EXPECT_EQ(bulk.suffixes[4], "mbarrier::complete_tx::bytes");
}

TEST(Instructions, ShuffleVoteAndSync) {
  Instruction s = instruction("shfl.sync.bfly.b32 %r37|%p4, %r33, %r35, %r34, %r36;");
  EXPECT_EQ(s.opcode, Opcode::Shfl);
  EXPECT_TRUE(s.modifiers.has(Modifier::Sync));
  EXPECT_TRUE(s.has_suffix("bfly"));
  EXPECT_EQ(instruction("activemask.b32 %r62;").opcode, Opcode::Activemask);
  EXPECT_EQ(instruction("bar.sync 0;").opcode, Opcode::Bar);
  EXPECT_EQ(instruction("barrier.sync.aligned 0;").opcode, Opcode::Barrier);
  Instruction f = instruction("fence.acq_rel.gpu;");
  EXPECT_EQ(f.opcode, Opcode::Fence);
  EXPECT_TRUE(f.modifiers.has(Modifier::Gpu));
  Instruction a = instruction("atom.relaxed.gpu.global.add.f32 %f1, [%rd1], %f2;");
  EXPECT_TRUE(a.modifiers.has(Modifier::Relaxed));
  EXPECT_EQ(a.space, StateSpace::Global);
}

TEST(Instructions, UnknownOpcodesKeepTheirName) {
  Instruction i = instruction("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1];");
  EXPECT_EQ(i.opcode, Opcode::Other);
  EXPECT_EQ(i.opcode_name, "tex");
  EXPECT_EQ(i.suffixes.front(), "2d");
  Instruction g = instruction("getctarank.shared::cluster.u32 %r1, %rd1;");
  EXPECT_EQ(g.opcode, Opcode::Other);
  EXPECT_EQ(g.opcode_name, "getctarank");
}

TEST(Instructions, NoOperands) {
  Instruction r = instruction("ret;");
  EXPECT_EQ(r.opcode, Opcode::Ret);
  EXPECT_TRUE(r.operands.empty());
  EXPECT_TRUE(r.suffixes.empty());
  EXPECT_EQ(instruction("trap;").opcode, Opcode::Trap);
  EXPECT_EQ(instruction("exit;").opcode, Opcode::Exit);
}

TEST(Instructions, Guards) {
  Instruction g = instruction("@%p1 bra 	$L__BB0_7;");
  ASSERT_TRUE(g.guard);
  EXPECT_EQ(g.guard->predicate, "%p1");
  EXPECT_FALSE(g.guard->negated);
  EXPECT_EQ(g.opcode, Opcode::Bra);

  Instruction n = instruction("@!%p2 st.global.f32 [%rd1], %f1;");
  ASSERT_TRUE(n.guard);
  EXPECT_TRUE(n.guard->negated);
  EXPECT_EQ(n.guard->predicate, "%p2");

  EXPECT_FALSE(instruction("ret;").guard);
}

TEST(Instructions, RoundingAndMiscModifiers) {
  Instruction f = instruction("fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;");
  EXPECT_TRUE(f.modifiers.has(Modifier::Rn));
  EXPECT_TRUE(f.modifiers.has(Modifier::Ftz));
  EXPECT_TRUE(f.modifiers.has(Modifier::Sat));
  EXPECT_TRUE(instruction("div.full.f32 %f1, %f2, %f3;").modifiers.has(Modifier::Full));
  EXPECT_TRUE(instruction("rsqrt.approx.f32 %f1, %f2;").modifiers.has(Modifier::Approx));
  EXPECT_TRUE(instruction("mul.wide.u32 %rd5, %r1, 4;").modifiers.has(Modifier::Wide));
  EXPECT_TRUE(instruction("bra.uni $L1;").modifiers.has(Modifier::Uni));
  EXPECT_TRUE(instruction("cvt.rzi.s32.f32 %r1, %f1;").modifiers.has(Modifier::Rzi));
  EXPECT_TRUE(instruction("ld.global.cg.f32 %f1, [%rd1];").modifiers.has(Modifier::Cg));
  EXPECT_TRUE(instruction("ld.acquire.sys.global.u32 %r1, [%rd1];").modifiers.has(Modifier::Sys));
  EXPECT_TRUE(instruction("cvt.rn.relu.f16.f32 %rs1, %f1;").modifiers.has(Modifier::Relu));
}

TEST(Instructions, DecodedFieldsOfBf16AndFp8Types) {
  Instruction c = instruction("cvt.rn.bf16x2.f32 %r1, %f1, %f2;");
  EXPECT_EQ(c.types, (std::vector<ScalarType>{ScalarType::BF16x2, ScalarType::F32}));
  Instruction e = instruction("cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;");
  EXPECT_EQ(e.types.front(), ScalarType::E4M3x2);
  EXPECT_TRUE(e.has_suffix("satfinite"));
}

TEST(Instructions, MultiLineInstruction) {
  Module m = testing::parse_ok(testing::kernel(
      "\tcall.uni (retval0), \n\t__symexpf, \n\t(\n\tparam0\n\t);\n\tld.param.f32 %f1, "
      "[retval0+0];"));
  auto all = testing::instructions(m);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].opcode, Opcode::Call);
  EXPECT_TRUE(all[0].modifiers.has(Modifier::Uni));
  EXPECT_EQ(all[1].loc.line, 13u);
}

} // namespace
} // namespace volta::ptx
