// mapa (engine/exec/cluster_address.hpp) in both CTA machines, in a cluster of one CTA: a shared
// variable mapped into the executing CTA's own rank is the variable itself, for stores and for
// a remote mbarrier arrive (CUTLASS's consumers release a pipeline stage that way); a rank
// outside the cluster is an out-of-bounds error; a mapped address read as data is refused.
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

// Each thread stores tid + 1 to buf[tid] through `mapa` to rank RANK, then out[tid] = buf[tid]
// read through its own shared::cta address.
std::string mapped_store(std::string_view rank, std::string_view use = "") {
  std::string body = R"(
  .shared .align 4 .b32 buf[32];
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  add.u64 %rd2, %rd0, %rd1;
  mov.u32 %r2, buf;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  mapa.shared::cluster.u32 %r5, %r4, RANK;
  add.u32 %r6, %r1, 1;
  st.shared::cluster.u32 [%r5], %r6;
  USE
  bar.sync 0;
  ld.shared.u32 %r7, [%r4];
  st.global.u32 [%rd2], %r7;
  ret;)";
  body.replace(body.find("RANK"), 4, rank);
  body.replace(body.find("USE"), 3, use);
  return sm90(kernel(".param .u64 out", body));
}

launch::KernelConfig out32() {
  return config({32, 1, 1}, {"OUT:0x100000:4:32:out"}, {"ptr:OUT"});
}

TEST(ClusterAddress, MapaToTheOwnRankIsTheVariableItself) {
  for (const char* rank : {"0", "%cluster_ctarank"}) {
    SCOPED_TRACE(rank);
    const std::string text = mapped_store(rank);
    auto r = run_text(text, out32());
    ASSERT_TRUE(r.result.ok()) << r.result.error->text();
    for (uint32_t t = 0; t < 32; ++t)
      EXPECT_EQ(word(r.result.outputs[0], t), t + 1) << t;
    EXPECT_FALSE(engine_failure(text, out32()).has_value());
  }
}

TEST(ClusterAddress, MapaToARankOutsideTheClusterIsOutOfBounds) {
  const std::string text = mapped_store("1");
  auto r = run_text(text, out32());
  ASSERT_FALSE(r.result.ok());
  EXPECT_EQ(r.result.error->kind, "out of bounds") << r.result.error->text();
  const auto f = engine_failure(text, out32());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->verdict, Verdict::OutOfBounds) << f->message;
  EXPECT_NE(f->message.find("outside its cluster of 1 CTA"), std::string::npos) << f->message;
}

TEST(ClusterAddress, AMappedAddressReadAsDataIsRefused) {
  // The mapped address stored as data: its bits are not documented.
  const std::string text =
      mapped_store("0", "st.global.u32 [%rd2], %r5;\n  bar.sync 0;\n  mov.u32 %r5, %r4;");
  const auto f = engine_failure(text, out32());
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->verdict, Verdict::Unsupported) << f->message;
  EXPECT_NE(f->message.find("mapped address"), std::string::npos) << f->message;
  auto r = run_text(text, out32());
  ASSERT_FALSE(r.result.ok());
  EXPECT_EQ(r.result.error->kind, "unsupported") << r.result.error->text();
}

TEST(ClusterAddress, RemoteArriveOnTheOwnBarrierCompletesItsPhase) {
  // Warp 1 stores, then arrives through mapa on the own rank's barrier (count 32); warp 0 waits
  // on parity 0 and reads what warp 1 stored.
  const std::string body = R"(
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 buf[32];
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r9, %r1, 31;
  mov.u32 %r2, bar;
  mov.u32 %r3, buf;
  shl.b32 %r4, %r9, 2;
  add.u32 %r5, %r3, %r4;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_init_done;
  mbarrier.init.shared::cta.b64 [%r2], 32;
$L_init_done:
  fence.mbarrier_init.release.cluster;
  bar.sync 0;
  setp.lt.u32 %p2, %r1, 32;
  @%p2 bra $L_consumer;
  add.u32 %r6, %r9, 100;
  st.shared.u32 [%r5], %r6;
  mapa.shared::cluster.u32 %r7, %r2, 0;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r7];
  bra.uni $L_end;
$L_consumer:
  mov.u32 %r8, 0;
$L_wait:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], %r8;
  @!%p3 bra $L_wait;
  ld.shared.u32 %r10, [%r5];
  mul.wide.u32 %rd1, %r9, 4;
  add.u64 %rd2, %rd0, %rd1;
  st.global.u32 [%rd2], %r10;
$L_end:
  ret;)";
  const std::string text = sm90(kernel(".param .u64 out", body));
  const auto c = config({64, 1, 1}, {"OUT:0x100000:4:32:out"}, {"ptr:OUT"});
  auto r = run_text(text, c);
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(word(r.result.outputs[0], t), t + 100) << t;
  const auto f = engine_failure(text, c);
  EXPECT_FALSE(f.has_value()) << f->message;
}

} // namespace
} // namespace volta::emutest
