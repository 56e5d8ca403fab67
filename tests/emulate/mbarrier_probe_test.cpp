// CUTLASS's ClusterBarrier::wait in both CTA machines (lower.cpp, probe_then_wait): one
// try_wait probe whose outcome only chooses whether the exact wait loop runs. Warp 1 stores and
// arrives (count 32); warp 0 probes, loops if the probe said no, then reads what warp 1 stored.
// The probe runs as an exact wait where nothing else reads its outcome; a kernel that stores the
// outcome is refused at the probe (the hardware may say yes or no there).
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

std::string probe_kernel(std::string_view after_probe) {
  std::string body = R"(
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 buf[32];
  .reg .b32 %q<4>;
  .reg .pred %z<2>;
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r9, %r1, 31;
  mov.u32 %r2, bar;
  mov.u32 %r3, buf;
  shl.b32 %r4, %r9, 2;
  add.u32 %r5, %r3, %r4;
  mul.wide.u32 %rd1, %r9, 4;
  add.u64 %rd2, %rd0, %rd1;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_init_done;
  mbarrier.init.shared::cta.b64 [%r2], 32;
$L_init_done:
  bar.sync 0;
  setp.lt.u32 %p2, %r1, 32;
  @%p2 bra $L_consumer;
  add.u32 %r6, %r9, 100;
  st.shared.u32 [%r5], %r6;
  mbarrier.arrive.shared::cta.b64 _, [%r2];
  bra.uni $L_end;
$L_consumer:
  mov.u32 %r8, 0;
  {
  .reg .pred P1;
  mbarrier.try_wait.parity.shared::cta.b64 P1, [%r2], %r8;
  selp.b32 %q1, 1, 0, P1;
  }
  setp.ne.s32 %z1, %q1, 0;
  @%z1 bra $L_ready;
  mov.u32 %q2, 10000000;
  {
  .reg .pred P1;
  LAB_WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 P1, [%r2], %r8, %q2;
  @P1 bra DONE;
  bra LAB_WAIT;
  DONE:
  }
$L_ready:
  AFTER
  ld.shared.u32 %r10, [%r5];
  st.global.u32 [%rd2], %r10;
$L_end:
  ret;)";
  body.replace(body.find("AFTER"), 5, after_probe);
  return sm90(kernel(".param .u64 out", body));
}

launch::KernelConfig out32() {
  return config({64, 1, 1}, {"OUT:0x100000:4:32:out"}, {"ptr:OUT"});
}

TEST(MbarrierProbe, AProbeThenTheWaitLoopIsAnExactWait) {
  const std::string text = probe_kernel("");
  auto r = run_text(text, out32());
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(word(r.result.outputs[0], t), t + 100) << t;
  const auto f = engine_failure(text, out32());
  EXPECT_FALSE(f.has_value()) << f->message;
}

TEST(MbarrierProbe, AProbeWhoseOutcomeIsReadIsRefused) {
  // The outcome stored: 1 or 0 as the hardware's schedule gives.
  const std::string text = probe_kernel("st.global.u32 [%rd2], %q1;\n  bar.warp.sync -1;");
  const auto f = engine_failure(text, out32());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->verdict, Verdict::Unsupported) << f->message;
  EXPECT_NE(f->message.find("false outcome"), std::string::npos) << f->message;
}

} // namespace
} // namespace volta::emutest
