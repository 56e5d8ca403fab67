// Every operand form.
#include <bit>
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace volta::ptx {
namespace {

using testing::instruction;
using testing::operand;

NameOperand name_of(const Operand& op) {
  EXPECT_TRUE(op.is<NameOperand>());
  return op.is<NameOperand>() ? op.as<NameOperand>() : NameOperand{};
}

TEST(Operands, Registers) {
  EXPECT_EQ(name_of(operand("add.s32 %r1, %r2, %r3;", 0)).name, "%r1");
  EXPECT_EQ(name_of(operand("add.u64 %rd12, %SPL, 0;", 1)).name, "%SPL");
  EXPECT_FALSE(name_of(operand("add.s32 %r1, %r2, %r3;", 2)).negated);
}

TEST(Operands, SpecialRegisters) {
  for (const char* sreg :
       {"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ctaid.z", "%nctaid.x", "%laneid",
        "%warpid", "%clock64", "%envreg3", "%lanemask_lt", "%smid"}) {
    std::string line = std::string("mov.u32 %r1, ") + sreg + ";";
    EXPECT_EQ(name_of(operand(line, 1)).name, sreg);
  }
}

TEST(Operands, NegatedPredicate) {
  NameOperand n = name_of(operand("and.pred %p1, %p2, !%p3;", 2));
  EXPECT_EQ(n.name, "%p3");
  EXPECT_TRUE(n.negated);
}

TEST(Operands, VectorWithSink) {
  Operand op = operand("ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1];", 0);
  ASSERT_TRUE(op.is<VectorOperand>());
  const auto& v = op.as<VectorOperand>().elements;
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].as<NameOperand>().name, "%f1");
  EXPECT_TRUE(v[2].is<SinkOperand>());
  EXPECT_EQ(v[3].as<NameOperand>().name, "%f4");
}

TEST(Operands, VectorWithImmediates) {
  Operand op = operand("mov.b64 %rd1, {%r1, 0};", 1);
  ASSERT_TRUE(op.is<VectorOperand>());
  EXPECT_EQ(op.as<VectorOperand>().elements[1].as<IntImmediate>().value, 0);
}

TEST(Operands, SinkAlone) {
  EXPECT_TRUE(operand("atom.global.add.u32 _, [%rd1], 1;", 0).is<SinkOperand>());
}

AddressOperand address(std::string_view line, size_t index) {
  Operand op = operand(line, index);
  EXPECT_TRUE(op.is<AddressOperand>()) << line;
  return op.is<AddressOperand>() ? op.as<AddressOperand>() : AddressOperand{};
}

TEST(Operands, Addresses) {
  AddressOperand a = address("ld.global.f32 %f1, [%rd1];", 1);
  EXPECT_EQ(a.base, "%rd1");
  EXPECT_EQ(a.offset, 0);

  a = address("ld.global.nc.v4.u32 {%r1, %r2, %r3, %r4}, [%rd17+131072];", 1);
  EXPECT_EQ(a.base, "%rd17");
  EXPECT_EQ(a.offset, 131072);

  a = address("ld.global.f32 %f1, [%rd4+-4];", 1);
  EXPECT_EQ(a.offset, -4);

  a = address("ld.global.f32 %f1, [%rd4-8];", 1);
  EXPECT_EQ(a.offset, -8);

  a = address("ld.shared.f32 %f1, [_ZZ4testE5sdata];", 1);
  EXPECT_EQ(a.base, "_ZZ4testE5sdata");

  a = address("st.param.f32 [param0+0], %f1;", 0);
  EXPECT_EQ(a.base, "param0");
  EXPECT_EQ(a.offset, 0);

  a = address("ld.shared.f32 %f1, [sdata+64];", 1);
  EXPECT_EQ(a.base, "sdata");
  EXPECT_EQ(a.offset, 64);

  a = address("ld.global.u32 %r1, [1024];", 1);
  EXPECT_FALSE(a.base);
  EXPECT_EQ(a.offset, 1024);

  a = address("ld.global.u32 %r1, [0x100];", 1);
  EXPECT_EQ(a.offset, 256);
}

TEST(Operands, SetpPair) {
  Operand op = operand("shfl.sync.idx.b32 %r150|%p62, %r149, %r145, %r146, %r148;", 0);
  ASSERT_TRUE(op.is<PairOperand>());
  EXPECT_EQ(op.as<PairOperand>().first, "%r150");
  EXPECT_EQ(op.as<PairOperand>().second, "%p62");
  Operand setp = operand("setp.lt.s32 %p1|%p2, %r1, %r2;", 0);
  EXPECT_EQ(setp.as<PairOperand>().second, "%p2");
}

IntImmediate int_of(std::string_view literal) {
  Operand op = operand("mov.u32 %r1, " + std::string(literal) + ";", 1);
  EXPECT_TRUE(op.is<IntImmediate>()) << literal;
  return op.is<IntImmediate>() ? op.as<IntImmediate>() : IntImmediate{};
}

FloatImmediate float_of(std::string_view literal) {
  Operand op = operand("mov.f32 %f1, " + std::string(literal) + ";", 1);
  EXPECT_TRUE(op.is<FloatImmediate>()) << literal;
  return op.is<FloatImmediate>() ? op.as<FloatImmediate>() : FloatImmediate{};
}

TEST(Operands, IntegerImmediates) {
  EXPECT_EQ(int_of("42").value, 42);
  EXPECT_EQ(int_of("0").value, 0);
  EXPECT_EQ(int_of("-2147483648").value, -2147483648LL);
  EXPECT_EQ(int_of("0x1F").value, 31);
  EXPECT_EQ(int_of("0XfF").value, 255);
  EXPECT_EQ(int_of("017").value, 15);
  EXPECT_EQ(int_of("0b101").value, 5);
  EXPECT_EQ(int_of("-0x10").value, -16);
  EXPECT_FALSE(int_of("42").is_unsigned);
  IntImmediate u = int_of("4294967295U");
  EXPECT_TRUE(u.is_unsigned);
  EXPECT_EQ(u.value, 4294967295LL);
  EXPECT_EQ(int_of("18446744073709551615").value, -1) << "two's-complement bits";
  EXPECT_EQ(int_of("0xFFFFFFFFFFFFFFFF").value, -1);
  EXPECT_EQ(int_of("-9223372036854775808").value, std::numeric_limits<int64_t>::min());
}

TEST(Operands, FloatImmediates) {
  FloatImmediate one = float_of("0f3F800000");
  EXPECT_EQ(one.width, 32);
  EXPECT_EQ(one.bits, 0x3F800000u);
  FloatImmediate ninf = float_of("0fFF800000");
  EXPECT_EQ(ninf.bits, 0xFF800000u);
  FloatImmediate d = float_of("0d3FF0000000000000");
  EXPECT_EQ(d.width, 64);
  EXPECT_EQ(d.bits, 0x3FF0000000000000u);
  FloatImmediate dec = float_of("1.5");
  EXPECT_EQ(dec.width, 64) << "PTX reads decimal floats as f64";
  EXPECT_EQ(dec.bits, std::bit_cast<uint64_t>(1.5));
  EXPECT_EQ(float_of("-2.5e-3").bits, std::bit_cast<uint64_t>(-2.5e-3));
  EXPECT_EQ(float_of("1e10").bits, std::bit_cast<uint64_t>(1e10));
  EXPECT_EQ(float_of("-0f3F800000").bits, 0xBF800000u);
}

TEST(Operands, CallParenLists) {
  Instruction call = instruction("call.uni (retval0), \n\t__symexpf, \n\t(\n\tparam0\n\t);");
  ASSERT_EQ(call.operands.size(), 3u);
  EXPECT_EQ(call.operands[0].as<ParenListOperand>().names, std::vector<std::string>{"retval0"});
  EXPECT_EQ(call.operands[1].as<NameOperand>().name, "__symexpf");
  EXPECT_EQ(call.operands[2].as<ParenListOperand>().names, std::vector<std::string>{"param0"});

  Instruction two = instruction("call.uni (r), f, (a, b), proto;");
  EXPECT_EQ(two.operands[2].as<ParenListOperand>().names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(two.operands[3].as<NameOperand>().name, "proto");

  Instruction none = instruction("call.uni g, ();");
  EXPECT_TRUE(none.operands[1].as<ParenListOperand>().names.empty());
}

TEST(Operands, LabelsAsOperands) {
  EXPECT_EQ(name_of(operand("bra.uni $L__BB0_2;", 0)).name, "$L__BB0_2");
}

TEST(Operands, OperandLocations) {
  Instruction i = instruction("\tadd.s32 \t%r1, %r2, 7;");
  // kernel() puts the body on line 8.
  EXPECT_EQ(i.loc, (SourceLocation{8, 2}));
  EXPECT_EQ(i.operands[0].loc, (SourceLocation{8, 11}));
  EXPECT_EQ(i.operands[2].loc, (SourceLocation{8, 21}));
}

} // namespace
} // namespace volta::ptx
