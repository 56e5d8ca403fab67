// Valid PTX outside the model is UNSUPPORTED with its PTX location, never bad input; PTX that
// ptxas rejects is bad input with a located error (exit status 2).
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace volta::cli_test {
namespace {

// A kernel that ptxas 13 accepts (checked with `ptxas -arch=sm_80`): it stores the result of an
// indirect call, declared by a `.callprototype`, through a function's address. Line 17 is the
// call.
constexpr const char* kIndirectCall = R"(.version 8.0
.target sm_80
.address_size 64
.visible .func (.param .b32 r) one(.param .b32 a)
{
	.reg .b32 %q;
	ld.param.b32 %q, [a];
	st.param.b32 [r], %q;
	ret;
}
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u64 %rd3, one;
	{
	.param .b32 p0;
	.param .b32 r0;
	st.param.b32 [p0], 1;
	call (r0), %rd3, (p0), proto;
	ld.param.b32 %r1, [r0];
	}
	st.global.u32 [%rd2], %r1;
	ret;
}
)";

std::vector<std::string> check_args() {
  return {"check",    "--ptx",   "k.ptx",
          "--kernel", "k",       "--block",
          "1",        "--array", "out:0x100000:4:1:out",
          "--param",  "ptr:out"};
}

TEST(UnmodeledPtx, IndirectCallIsUnsupportedWithItsLocationNotBadInput) {
  const auto dir = scratch_dir("indirect-call");
  write_file(dir / "k.ptx", kIndirectCall);
  ToolRun r = run_tool(check_args(), dir);
  // UNSUPPORTED is a verdict (not the expected RACE_FREE): status 1, never 2 (bad input).
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("UNSUPPORTED"), std::string::npos) << all;
  // The first unmodeled instruction a thread reaches: the function's address taken on line 18.
  EXPECT_NE(all.find("k.ptx:18:"), std::string::npos) << all;
  EXPECT_NE(all.find("function pointers are not modeled"), std::string::npos) << all;
}

TEST(UnmodeledPtx, CallThroughARegisterIsRefusedByName) {
  std::string text = kIndirectCall;
  // The register gets its value from a parameter instead: the call itself is the first refusal.
  const std::string from = "\tmov.u64 %rd3, one;";
  text.replace(text.find(from), from.size(), "\tmov.u64 %rd3, %rd1;");
  const auto dir = scratch_dir("indirect-call-register");
  write_file(dir / "k.ptx", text);
  ToolRun r = run_tool(check_args(), dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("UNSUPPORTED"), std::string::npos) << all;
  EXPECT_NE(all.find("k.ptx:23:"), std::string::npos) << all;
  EXPECT_NE(all.find("indirect call through register %rd3"), std::string::npos) << all;
}

TEST(UnmodeledPtx, PtxThatPtxasRejectsIsBadInputWithItsLocation) {
  std::string text = kIndirectCall;
  const std::string from = "\tst.global.u32 [%rd2], %r1;";
  text.replace(text.find(from), from.size(), "\tst.global.u33 [%rd2], %r1;");
  const auto dir = scratch_dir("invalid-type");
  write_file(dir / "k.ptx", text);
  ToolRun r = run_tool(check_args(), dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("k.ptx:26:11: error: unknown type '.u33'"), std::string::npos) << r.err;
}

} // namespace
} // namespace volta::cli_test
