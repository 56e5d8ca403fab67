// Valid PTX that the engine does not model parses (ptxas 13 accepts every module below), keeps
// what it needs to print back, and survives the round trip; the engine then refuses its use as
// UNSUPPORTED (tests/cli/unmodeled_ptx_test.cpp). And every kernel we know of parses, the
// production kernels (Hopper's included) among them.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace volta::ptx {
namespace {

// Checked with `ptxas -arch=sm_90`: rc 0.
constexpr std::string_view kUnmodeled = R"(.version 8.7
.target sm_90
.address_size 64
.global .texref tex0;
.global .surfref surf0;
.global .attribute(.managed) .s32 managed_g;
.visible .func (.param .b32 r) f1(.param .b32 a)
{
	.reg .b32 %q;
	ld.param.b32 %q, [a];
	st.param.b32 [r], %q;
	ret;
}
.visible .func (.param .b32 r2) f2(.param .b32 a2);
.alias f2, f1;
.visible .entry k(.param .u64 k_p0)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .f32 %f<8>;
proto: .callprototype (.param .b32 _) _ (.param .b32 _);
ts: .branchtargets L1, L2;
ct: .calltargets f1;
	mov.u64 %rd1, f1;
	{
	.param .b32 p0;
	.param .b32 r0;
	st.param.b32 [p0], 1;
	call (r0), %rd1, (p0), proto;
	ld.param.b32 %r1, [r0];
	}
	brx.idx %r1, ts;
L1:
	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];
L2:
	ret;
}
)";

TEST(Unmodeled, ValidPtxOutsideTheModelParses) {
  Module m = testing::parse_ok(kUnmodeled);
  const VariableDecl* tex = m.find_variable("tex0");
  ASSERT_NE(tex, nullptr);
  EXPECT_EQ(tex->opaque, OpaqueType::Texref);
  EXPECT_EQ(tex->type, ScalarType::None);
  EXPECT_EQ(m.find_variable("surf0")->opaque, OpaqueType::Surfref);
  EXPECT_TRUE(m.find_variable("managed_g")->managed);
  EXPECT_EQ(m.find_variable("managed_g")->type, ScalarType::S32);

  size_t alias = 0;
  for (const TopLevel& item : m.items) {
    if (const auto* u = std::get_if<UnmodeledDirective>(&item)) {
      EXPECT_EQ(u->text, ".alias f2, f1");
      EXPECT_EQ(u->loc.line, 15u);
      ++alias;
    }
  }
  EXPECT_EQ(alias, 1u);

  const Function* k = m.find_function("k");
  ASSERT_NE(k, nullptr);
  std::vector<std::string> directives;
  for (const Statement& s : k->body) {
    if (const auto* u = std::get_if<UnmodeledDirective>(&s)) {
      directives.push_back(u->text);
    }
  }
  EXPECT_EQ(directives,
            (std::vector<std::string>{".callprototype (.param .b32 _) _ (.param .b32 _)",
                                      ".branchtargets L1, L2", ".calltargets f1"}));

  bool saw_tex = false;
  for (const Instruction& i : testing::instructions(*k)) {
    if (i.opcode_name == "tex") {
      saw_tex = true;
      const auto& a = i.operands[1].as<AddressOperand>();
      EXPECT_EQ(a.base, "tex0");
      ASSERT_EQ(a.coordinates.size(), 1u);
      EXPECT_EQ(a.coordinates[0].as<VectorOperand>().elements.size(), 2u);
    }
  }
  EXPECT_TRUE(saw_tex);
  testing::expect_round_trip(kUnmodeled, "unmodeled.ptx");
}

TEST(Unmodeled, TensorCoordinatesAndSamplers) {
  Instruction bulk = testing::instruction(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes "
      "[%r1], [%rd19, {%r7, %r2, %r6}], [%r8];");
  const auto& a = bulk.operands[1].as<AddressOperand>();
  EXPECT_EQ(a.base, "%rd19");
  ASSERT_EQ(a.coordinates.size(), 1u);
  EXPECT_EQ(print(bulk), "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::"
                         "bytes\t[%r1], [%rd19, {%r7, %r2, %r6}], [%r8];");
  Instruction sampled =
      testing::instruction("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, samp0, {%f5, %f6}];");
  EXPECT_EQ(sampled.operands[1].as<AddressOperand>().coordinates.size(), 2u);
}

// Every PTX file of the project, the Volta corpus and the production kernels parses: the
// instruction table must never refuse what compilers emit.
TEST(Unmodeled, EveryKernelWeKnowParses) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const char* dir : {"examples", "tests/ptx/data", "tests/cli/data", "bench"}) {
    auto more = testing::files_under(fs::path(VOLTA_SOURCE_DIR) / dir, ".ptx");
    files.insert(files.end(), more.begin(), more.end());
  }
  ASSERT_GT(files.size(), 300u);
  size_t shared = 0;
  for (const fs::path& dir :
       {fs::path(VOLTA_CORPUS_DIR), fs::path(VOLTA_CORPUS_DIR).parent_path() / "production"}) {
    auto more = testing::files_under(dir, ".ptx");
    shared += more.size();
    files.insert(files.end(), more.begin(), more.end());
  }
  for (const fs::path& f : files) {
    ParseResult r = parse_file(f.string());
    EXPECT_TRUE(r.ok()) << render_all(r.diagnostics);
  }
  if (shared == 0) {
    GTEST_SKIP() << "the project's " << files.size() << " kernels parse; /work/shared "
                 << "(volta-corpus, production) not found, its kernels were not checked";
  }
}

} // namespace
} // namespace volta::ptx
