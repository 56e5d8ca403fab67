// Declarations: registers, variables (module and function scope), parameters, functions.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace volta::ptx {
namespace {

using testing::kHeader;
using testing::parse_ok;

std::vector<VariableDecl> module_variables(const Module& m) {
  std::vector<VariableDecl> out;
  for (const TopLevel& item : m.items) {
    if (const auto* v = std::get_if<VariableDecl>(&item)) {
      out.push_back(*v);
    }
  }
  return out;
}

template <class T>
std::vector<T> body_items(const Function& f) {
  std::vector<T> out;
  for (const Statement& s : f.body) {
    if (const auto* x = std::get_if<T>(&s)) {
      out.push_back(*x);
    }
  }
  return out;
}

TEST(Declarations, RegisterRangesAndLists) {
  Module m = parse_ok(testing::kernel(R"(
	.reg .pred 	%p<5>;
	.reg .b32 	%r<18>;
	.reg .f32 %f1, %f2;
	.reg .v4 .f32 %v<3>, %w;
	.reg .b64 	%SP;
	.reg .b32 temp_param_reg;)"));
  auto regs = body_items<RegisterDecl>(testing::only_function(m));
  ASSERT_EQ(regs.size(), 8u);
  EXPECT_EQ(regs[0].type, ScalarType::Pred);
  EXPECT_EQ(regs[0].name, "%p");
  EXPECT_EQ(regs[0].count, 5u);
  EXPECT_EQ(regs[1].count, 18u);
  EXPECT_EQ(regs[2].name, "%f1");
  EXPECT_FALSE(regs[2].count);
  EXPECT_EQ(regs[3].name, "%f2");
  EXPECT_EQ(regs[4].vector_width, 4);
  EXPECT_EQ(regs[4].count, 3u);
  EXPECT_EQ(regs[5].name, "%w");
  EXPECT_EQ(regs[5].vector_width, 4);
  EXPECT_EQ(regs[6].type, ScalarType::B64);
  EXPECT_EQ(regs[7].name, "temp_param_reg");
}

TEST(Declarations, ModuleVariables) {
  Module m = parse_ok(std::string(kHeader) + R"(
.global .align 4 .u32 SORT_KEY;
.visible .global .align 8 .v2 .f32 pair;
.const .align 4 .b8 cvals[16] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64};
.global .align 8 .u64 gptr = generic(gtable)+12;
.global .u64 plain = gtable+4;
.global .f32 one = 0f3F800000;
.global .f64 half = 0.5;
.weak .global .align 4 .s32 grid[2][3] = {{1, 2, 3}, {4, 5, -6}};
.common .global .u32 shared_flag;
.extern .shared .align 16 .b8 buf[];
.extern .global .b8 cube[2][][4];
.global .u32 a1, a2 = 7, a3[2] = {8, 9};
.global .v4 .f32 vecs[2] = {{1.0, 2.0, 3.0, 4.0}, {5.0, 6.0, 7.0, 8.0}};
.shared .align 16 .b8 smem[1024];
.local .u32 lvar;
)");
  auto v = module_variables(m);
  ASSERT_EQ(v.size(), 17u);
  EXPECT_EQ(v[0].space, StateSpace::Global);
  EXPECT_EQ(v[0].align, 4u);
  EXPECT_EQ(v[0].type, ScalarType::U32);
  EXPECT_EQ(v[0].linkage, Linkage::None);
  EXPECT_FALSE(v[0].has_init);

  EXPECT_EQ(v[1].linkage, Linkage::Visible);
  EXPECT_EQ(v[1].vector_width, 2);

  EXPECT_EQ(v[2].space, StateSpace::Const);
  ASSERT_EQ(v[2].dims.size(), 1u);
  EXPECT_EQ(v[2].dims[0], 16u);
  ASSERT_EQ(v[2].init.size(), 16u);
  EXPECT_EQ(std::get<IntImmediate>(v[2].init[2].value).value, 128);

  ASSERT_EQ(v[3].init.size(), 1u);
  EXPECT_TRUE(v[3].init[0].generic);
  EXPECT_EQ(std::get<std::string>(v[3].init[0].value), "gtable");
  EXPECT_EQ(v[3].init[0].offset, 12);

  EXPECT_FALSE(v[4].init[0].generic);
  EXPECT_EQ(v[4].init[0].offset, 4);

  EXPECT_EQ(std::get<FloatImmediate>(v[5].init[0].value).bits, 0x3F800000u);
  EXPECT_EQ(std::get<FloatImmediate>(v[6].init[0].value).width, 64);

  EXPECT_EQ(v[7].linkage, Linkage::Weak);
  ASSERT_EQ(v[7].dims.size(), 2u);
  ASSERT_EQ(v[7].init.size(), 6u) << "nested braces are flattened";
  EXPECT_EQ(std::get<IntImmediate>(v[7].init[5].value).value, -6);
  EXPECT_EQ(v[7].size_bytes(), 24u);

  EXPECT_EQ(v[8].linkage, Linkage::Common);

  EXPECT_EQ(v[9].linkage, Linkage::Extern);
  EXPECT_EQ(v[9].space, StateSpace::Shared);
  EXPECT_EQ(v[9].align, 16u);
  ASSERT_EQ(v[9].dims.size(), 1u);
  EXPECT_FALSE(v[9].dims[0]) << "dynamic shared memory: unsized";
  EXPECT_FALSE(v[9].size_bytes());

  ASSERT_EQ(v[10].dims.size(), 3u);
  EXPECT_FALSE(v[10].dims[1]);

  EXPECT_EQ(v[11].name, "a1");
  EXPECT_EQ(v[12].name, "a2");
  EXPECT_EQ(std::get<IntImmediate>(v[12].init[0].value).value, 7);
  EXPECT_EQ(v[13].name, "a3");
  EXPECT_EQ(v[13].init.size(), 2u);
  EXPECT_EQ(v[13].type, ScalarType::U32) << "a list shares the attributes";

  EXPECT_EQ(v[14].init.size(), 8u);
  EXPECT_EQ(v[14].size_bytes(), 32u);
  EXPECT_EQ(v[15].space, StateSpace::Shared);
  EXPECT_EQ(v[16].space, StateSpace::Local);
}

TEST(Declarations, FunctionScopeVariables) {
  Module m = parse_ok(testing::kernel(R"(
	.local .align 16 .b8 	__local_depot0[256];
	// demoted variable
	.shared .align 4 .b8 _ZZ4testE5sdata[512];
	{ // callseq 0, 0
	.param .b32 param0;
	.param .align 16 .b8 param1[16];
	.param .b32 retval0;
	}
	ret;)"));
  auto vars = body_items<VariableDecl>(testing::only_function(m));
  ASSERT_EQ(vars.size(), 5u);
  EXPECT_EQ(vars[0].space, StateSpace::Local);
  EXPECT_EQ(vars[0].size_bytes(), 256u);
  EXPECT_EQ(vars[1].space, StateSpace::Shared);
  EXPECT_EQ(vars[2].space, StateSpace::Param);
  EXPECT_EQ(vars[2].name, "param0");
  EXPECT_EQ(vars[3].align, 16u);
  EXPECT_EQ(vars[3].dims[0], 16u);
}

TEST(Declarations, KernelParameters) {
  Module m = parse_ok(std::string(kHeader) + R"(
.visible .entry _Z5sgemmiiifPKfS0_fPf(
	.param .u32 _Z5sgemmiiifPKfS0_fPf_param_0,
	.param .f32 alpha,
	.param .u64 .ptr .global .align 16 a,
	.param .u64 .ptr .shared b,
	.param .align 8 .b8 byval[24]
)
{
	ret;
}
)");
  const Function& f = testing::only_function(m);
  EXPECT_TRUE(f.is_entry);
  EXPECT_EQ(f.linkage, Linkage::Visible);
  EXPECT_EQ(f.name, "_Z5sgemmiiifPKfS0_fPf");
  ASSERT_EQ(f.params.size(), 5u);
  EXPECT_EQ(f.params[0].space, StateSpace::Param);
  EXPECT_EQ(f.params[0].type, ScalarType::U32);
  EXPECT_EQ(f.params[1].type, ScalarType::F32);
  EXPECT_TRUE(f.params[2].is_ptr);
  EXPECT_EQ(f.params[2].ptr_space, StateSpace::Global);
  EXPECT_EQ(f.params[2].ptr_align, 16u);
  EXPECT_FALSE(f.params[2].align);
  EXPECT_EQ(f.params[3].ptr_space, StateSpace::Shared);
  EXPECT_FALSE(f.params[3].ptr_align);
  EXPECT_EQ(f.params[4].align, 8u);
  EXPECT_EQ(f.params[4].size_bytes(), 24u);
  EXPECT_TRUE(f.has_body);
}

TEST(Declarations, ExternPrototypeAndFunctionsWithReturns) {
  Module m = parse_ok(std::string(kHeader) + R"(
.extern .func  (.param .b32 func_retval0) __symexpf
(
	.param .b32 __symexpf_param_0
)
;
.func  (.param .b32 func_retval0) _Z6helperfi(
	.param .b32 _Z6helperfi_param_0,
	.param .b32 _Z6helperfi_param_1
)
.noreturn
{
	ret;
}
.weak .func nothing()
{
	ret;
}
.func (.reg .b32 out) regs(.reg .b32 in)
{
	ret;
}
.visible .entry noparams
{
	exit;
}
)");
  std::vector<const Function*> fs;
  for (const TopLevel& item : m.items) {
    if (const auto* f = std::get_if<Function>(&item)) {
      fs.push_back(f);
    }
  }
  ASSERT_EQ(fs.size(), 5u);
  EXPECT_EQ(fs[0]->linkage, Linkage::Extern);
  EXPECT_FALSE(fs[0]->is_entry);
  EXPECT_FALSE(fs[0]->has_body);
  EXPECT_EQ(fs[0]->name, "__symexpf");
  ASSERT_EQ(fs[0]->returns.size(), 1u);
  EXPECT_EQ(fs[0]->returns[0].name, "func_retval0");
  EXPECT_EQ(fs[0]->returns[0].type, ScalarType::B32);
  ASSERT_EQ(fs[0]->params.size(), 1u);
  EXPECT_EQ(fs[0]->params[0].name, "__symexpf_param_0");

  EXPECT_EQ(fs[1]->params.size(), 2u);
  ASSERT_EQ(fs[1]->directives.size(), 1u);
  EXPECT_EQ(fs[1]->directives[0].name, "noreturn");
  EXPECT_TRUE(fs[1]->directives[0].values.empty());

  EXPECT_EQ(fs[2]->linkage, Linkage::Weak);
  EXPECT_TRUE(fs[2]->returns.empty());
  EXPECT_TRUE(fs[2]->params.empty());

  EXPECT_EQ(fs[3]->returns[0].space, StateSpace::Reg);
  EXPECT_EQ(fs[3]->params[0].space, StateSpace::Reg);

  EXPECT_TRUE(fs[4]->is_entry);
  EXPECT_TRUE(fs[4]->params.empty());
}

TEST(Declarations, PerformanceDirectives) {
  Module m = parse_ok(std::string(kHeader) + R"(
.visible .entry main_kernel(
	.param .u64 main_kernel_param_0
)
.maxntid 128, 1, 1
.minnctapersm 1
.reqntid 256
.maxnreg 64
.maxnctapersm 2
{
	ret;
}
)");
  const auto& d = testing::only_function(m).directives;
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0].name, "maxntid");
  EXPECT_EQ(d[0].values, (std::vector<uint64_t>{128, 1, 1}));
  EXPECT_EQ(d[1].name, "minnctapersm");
  EXPECT_EQ(d[1].values, std::vector<uint64_t>{1});
  EXPECT_EQ(d[2].name, "reqntid");
  EXPECT_EQ(d[3].name, "maxnreg");
  EXPECT_EQ(d[3].values, std::vector<uint64_t>{64});
  EXPECT_EQ(d[4].name, "maxnctapersm");
}

TEST(Declarations, ScopesAndLabels) {
  Module m = parse_ok(testing::kernel(R"(
$L__BB0_2:
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	{
	}
	}
$L__BB0_3 :
	ret;)"));
  const auto& body = testing::only_function(m).body;
  ASSERT_EQ(body.size(), 8u);
  EXPECT_EQ(std::get<Label>(body[0]).name, "$L__BB0_2");
  EXPECT_TRUE(std::holds_alternative<ScopeBegin>(body[1]));
  EXPECT_TRUE(std::holds_alternative<RegisterDecl>(body[2]));
  EXPECT_TRUE(std::holds_alternative<ScopeBegin>(body[3]));
  EXPECT_TRUE(std::holds_alternative<ScopeEnd>(body[4]));
  EXPECT_TRUE(std::holds_alternative<ScopeEnd>(body[5]));
  EXPECT_EQ(std::get<Label>(body[6]).name, "$L__BB0_3");
  EXPECT_TRUE(std::holds_alternative<Instruction>(body[7]));
}

} // namespace
} // namespace volta::ptx
