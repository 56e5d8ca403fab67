// Spellings, lookups and equality of the syntax tree.
#include <gtest/gtest.h>

#include "ptx/ast.hpp"
#include "test_util.hpp"

namespace volta::ptx {
namespace {

TEST(Ast, EveryOpcodeSpellingReadsBack) {
  for (size_t i = 1; i < kOpcodeCount; ++i) {
    auto op = static_cast<Opcode>(i);
    EXPECT_EQ(opcode_from(spelling(op)), op) << spelling(op);
  }
  EXPECT_EQ(opcode_from("frobnicate"), Opcode::Other);
  EXPECT_EQ(opcode_from("cp.async"), Opcode::CpAsync);
  EXPECT_EQ(opcode_from("mul24"), Opcode::Mul24);
  // Every opcode with a row in the instruction table has an enumerator (opcodes.def).
  EXPECT_EQ(opcode_from("addc"), Opcode::Addc);
  EXPECT_EQ(opcode_from("bmsk"), Opcode::Bmsk);
  EXPECT_EQ(opcode_from("mapa"), Opcode::Mapa);
  EXPECT_EQ(opcode_from("cp.async.bulk"), Opcode::CpAsyncBulk);
  EXPECT_EQ(opcode_from("mbarrier"), Opcode::Mbarrier);
  EXPECT_EQ(kOpcodeCount, static_cast<size_t>(Opcode::Wgmma) + 1)
      << "Wgmma is opcodes.def's last row";
}

TEST(Ast, EveryTypeSpaceAndModifierSpellingReadsBack) {
  for (int i = 1; i <= static_cast<int>(ScalarType::E5M2x2); ++i) {
    auto t = static_cast<ScalarType>(i);
    EXPECT_EQ(scalar_type_from(spelling(t)), t) << spelling(t);
  }
  for (int i = 1; i <= static_cast<int>(StateSpace::Generic); ++i) {
    auto s = static_cast<StateSpace>(i);
    EXPECT_EQ(state_space_from(spelling(s)), s) << spelling(s);
  }
  for (int i = 0; i < static_cast<int>(Modifier::Count_); ++i) {
    auto m = static_cast<Modifier>(i);
    EXPECT_EQ(modifier_from(spelling(m)), m) << spelling(m);
  }
  EXPECT_FALSE(scalar_type_from("f128"));
  EXPECT_FALSE(scalar_type_from(""));
  EXPECT_FALSE(state_space_from("heap"));
  EXPECT_FALSE(modifier_from("row"));
}

TEST(Ast, WidthsAndKinds) {
  EXPECT_EQ(bit_width(ScalarType::Pred), 1u);
  EXPECT_EQ(bit_width(ScalarType::U8), 8u);
  EXPECT_EQ(bit_width(ScalarType::F16x2), 32u);
  EXPECT_EQ(bit_width(ScalarType::BF16), 16u);
  EXPECT_EQ(bit_width(ScalarType::TF32), 32u);
  EXPECT_EQ(bit_width(ScalarType::F64), 64u);
  EXPECT_EQ(bit_width(ScalarType::B128), 128u);
  EXPECT_EQ(bit_width(ScalarType::E4M3x2), 16u);
  EXPECT_EQ(kind_of(ScalarType::S32), TypeKind::Signed);
  EXPECT_EQ(kind_of(ScalarType::U64), TypeKind::Unsigned);
  EXPECT_EQ(kind_of(ScalarType::B16), TypeKind::Bits);
  EXPECT_EQ(kind_of(ScalarType::BF16x2), TypeKind::Float);
  EXPECT_EQ(kind_of(ScalarType::Pred), TypeKind::Pred);
  EXPECT_EQ(kind_of(ScalarType::None), TypeKind::None);
}

TEST(Ast, SizeBytes) {
  VariableDecl d;
  d.type = ScalarType::F32;
  d.dims = {4, 8};
  EXPECT_EQ(d.size_bytes(), 128u);
  d.vector_width = 4;
  EXPECT_EQ(d.size_bytes(), 512u);
  d.dims.push_back(std::nullopt);
  EXPECT_FALSE(d.size_bytes());
  d.dims = {~uint64_t{0}, ~uint64_t{0}};
  EXPECT_FALSE(d.size_bytes()) << "overflow must not wrap";
  d.dims.clear();
  d.vector_width = 1;
  d.type = ScalarType::Pred;
  EXPECT_FALSE(d.size_bytes());
}

TEST(Ast, LookupsAndHasSuffix) {
  Module m = testing::parse_ok(R"(.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 r) f(.param .b32 a);
.global .align 4 .b8 table[16];
.func (.param .b32 r) f(.param .b32 a)
{
	ret;
}
.visible .entry k1()
{
	ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
	ret;
}
.visible .entry k2()
{
	ret;
}
	.file	1 "a.cu"
)");
  ASSERT_NE(m.find_function("f"), nullptr);
  EXPECT_TRUE(m.find_function("f")->has_body) << "the definition wins over the prototype";
  EXPECT_EQ(m.find_function("nope"), nullptr);
  ASSERT_NE(m.find_variable("table"), nullptr);
  EXPECT_EQ(m.find_variable("table")->size_bytes(), 16u);
  ASSERT_EQ(m.entries().size(), 2u);
  EXPECT_EQ(m.entries()[1]->name, "k2");
  ASSERT_NE(m.find_file(1), nullptr);
  EXPECT_EQ(m.find_file(1)->path, "a.cu");
  EXPECT_EQ(m.find_file(2), nullptr);
  Instruction ld = testing::instructions(m).at(1);
  EXPECT_TRUE(ld.has_suffix("nc"));
  EXPECT_TRUE(ld.has_suffix(".global"));
  EXPECT_FALSE(ld.has_suffix("shared"));
}

TEST(Ast, EqualityIgnoresLocationsAndPath) {
  Module a = testing::parse_ok(testing::kernel("add.s32 %r1, %r2, 1;"), "a.ptx");
  Module b = testing::parse_ok(testing::kernel("\n\n   add.s32   %r1,%r2,1;"), "b.ptx");
  EXPECT_TRUE(a == b);
  Module c = testing::parse_ok(testing::kernel("add.s32 %r1, %r2, 2;"));
  EXPECT_FALSE(a == c);
}

} // namespace
} // namespace volta::ptx
