// Hopper warp specialization on the emulator, as in the symbolic CTA
// (tests/exec/warp_specialization_test.cpp): elect.sync's leader is the lowest member lane,
// setmaxnreg and griddepcontrol and the proxy fences change no value, setmaxnreg by part of a
// warpgroup is a barrier divergence, the cluster registers of a cluster of one CTA.
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

TEST(EmulateWarpSpecialization, ElectSyncLeaderAndLaneId) {
  // Lanes 4..31 elect (lane 4 leads); out[t] = d * 1000 + p, 7777 for lanes 0..3.
  const std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  mov.u32 %r5, 7777;
  setp.lt.u32 %p2, %r1, 4;
  @%p2 bra $L_store;
  elect.sync %r3|%p1, 0xfffffff0;
  selp.u32 %r4, 1, 0, %p1;
  mad.lo.u32 %r5, %r3, 1000, %r4;
$L_store:
  st.global.u32 [%rd2], %r5;
  ret;)";
  auto r = run_text(sm90(kernel(".param .u64 out", body)),
                    config({32, 1, 1}, {"OUT:0x100000:4:32:out"}, {"ptr:OUT"}));
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(word(r.result.outputs[0], t), t < 4 ? 7777u : 4000u + (t == 4 ? 1 : 0)) << t;
}

std::string store_after(std::string_view before) {
  std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  add.u32 %r2, %r1, 1;
  BEFORE
  st.global.u32 [%rd2], %r2;
  ret;)";
  body.replace(body.find("BEFORE"), 6, before);
  return sm90(kernel(".param .u64 out", body));
}

TEST(EmulateWarpSpecialization, NoEffectInstructions) {
  const std::string all = "griddepcontrol.wait;\n  setmaxnreg.dec.sync.aligned.u32 40;\n"
                          "  fence.proxy.async.shared::cta;\n"
                          "  fence.mbarrier_init.release.cluster;\n"
                          "  griddepcontrol.launch_dependents;";
  auto r = run_text(store_after(all), config({128, 1, 1}, {"OUT:0x100000:4:128:out"}, {"ptr:OUT"}));
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t t = 0; t < 128; ++t)
    EXPECT_EQ(word(r.result.outputs[0], t), t + 1) << t;
}

TEST(EmulateWarpSpecialization, SetmaxnregByPartOfAWarpgroup) {
  const std::string split = R"(setp.lt.u32 %p1, %r1, 64;
  @%p1 bra $L_dec;
  setmaxnreg.inc.sync.aligned.u32 232;
  bra.uni $L_join;
$L_dec:
  setmaxnreg.dec.sync.aligned.u32 40;
$L_join:)";
  auto r =
      run_text(store_after(split), config({128, 1, 1}, {"OUT:0x100000:4:128:out"}, {"ptr:OUT"}));
  ASSERT_FALSE(r.result.ok());
  EXPECT_EQ(r.result.error->kind, "barrier divergence") << r.result.error->text();

  const std::string skip = R"(setp.ge.u32 %p1, %r1, 96;
  @%p1 bra $L_end;
  setmaxnreg.dec.sync.aligned.u32 40;
$L_end:)";
  auto s =
      run_text(store_after(skip), config({128, 1, 1}, {"OUT:0x100000:4:128:out"}, {"ptr:OUT"}));
  ASSERT_FALSE(s.result.ok());
  EXPECT_EQ(s.result.error->kind, "barrier divergence") << s.result.error->text();
}

TEST(EmulateWarpSpecialization, ClusterRegisters) {
  const std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %cluster_ctarank;
  st.global.u32 [%rd0], %r1;
  mov.u32 %r1, %cluster_nctarank;
  st.global.u32 [%rd0+4], %r1;
  mov.u32 %r1, %clusterid.x;
  st.global.u32 [%rd0+8], %r1;
  ret;)";
  auto r = run_text(sm90(kernel(".param .u64 out", body)),
                    config({1, 1, 1}, {"OUT:0x100000:4:3:out"}, {"ptr:OUT"}));
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  EXPECT_EQ(word(r.result.outputs[0], 0), 0u);
  EXPECT_EQ(word(r.result.outputs[0], 1), 1u);
  EXPECT_EQ(word(r.result.outputs[0], 2), 0u);
}

} // namespace
} // namespace volta::emutest
