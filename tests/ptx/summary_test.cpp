// The summary behind `volta-eg parse`.
#include <gtest/gtest.h>

#include "ptx/summary.hpp"
#include "test_util.hpp"

namespace volta::ptx {
namespace {

constexpr std::string_view kModule = R"(.version 8.7
.target sm_80
.address_size 64
.func f()
{
	add.s32 %r1, %r1, 1;
	ret;
}
.visible .entry k(
	.param .u64 k_param_0,
	.param .align 8 .b8 k_param_1[16],
	.param .u64 .ptr .global .align 16 k_param_2
)
{
	ld.global.nc.f32 %f1, [%rd1];
	ld.global.nc.f32 %f2, [%rd1+4];
	@%p1 add.s32 %r1, %r1, 1;
	add.s32 %r2, %r1, 1;
	ret;
}
.visible .entry empty()
{
	ret;
}
)";

TEST(Summary, KernelsParametersAndHistogram) {
  ModuleSummary s = summarize(testing::parse_ok(kModule));
  EXPECT_EQ(s.version_major, 8u);
  EXPECT_EQ(s.version_minor, 7u);
  EXPECT_EQ(s.functions, 3u);
  EXPECT_EQ(s.instructions, 8u);
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].name, "k");
  EXPECT_EQ(s.kernels[0].instructions, 5u);
  ASSERT_EQ(s.kernels[0].params.size(), 3u);
  EXPECT_EQ(s.kernels[0].params[0].type, ".u64");
  EXPECT_EQ(s.kernels[0].params[1].type, ".align 8 .b8 [16]");
  EXPECT_EQ(s.kernels[0].params[2].type, ".u64 .ptr .global .align 16");
  ASSERT_EQ(s.histogram.size(), 3u);
  EXPECT_EQ(s.histogram[0].form, "add.s32");
  EXPECT_EQ(s.histogram[0].count, 3u);
  EXPECT_EQ(s.histogram[1].form, "ret");
  EXPECT_EQ(s.histogram[2].form, "ld.global.nc.f32");
  EXPECT_EQ(s.histogram[2].count, 2u);
}

TEST(Summary, Format) {
  std::string text = format_summary("m.ptx", summarize(testing::parse_ok(kModule)));
  EXPECT_EQ(text.rfind("m.ptx\n  PTX 8.7, target sm_80, address size 64\n", 0), 0u) << text;
  EXPECT_NE(text.find("  kernel k (3 parameters, 5 instructions)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    k_param_0  .u64\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  kernel empty (0 parameters, 1 instruction)\n"), std::string::npos);
  EXPECT_NE(text.find("    ld.global.nc.f32       2\n"), std::string::npos) << text;
}

} // namespace
} // namespace volta::ptx
