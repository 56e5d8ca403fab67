// mbarrier objects on the emulator (engine/exec/cta_mbarriers.hpp, emulate/machine.cpp): the
// soundness suite's 37-mbarrier kernels (examples/kernels/soundness/c37_mbarrier.ptx) run
// bit-exactly — the producer/consumer pipeline in both wait-loop forms, a phase that never
// completes (DEADLOCK, naming the barrier), an ordinary store over an mbarrier (refused) — and
// small kernels for the state token, expect_tx/complete_tx and inexact waits.
#include <fstream>
#include <sstream>

#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

std::string c37_ptx() {
  std::ifstream in(std::string(VOLTA_SOURCE_DIR) + "/examples/kernels/soundness/c37_mbarrier.ptx");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

launch::KernelConfig c37_config(const std::string& entry) {
  auto c =
      config({64, 1, 1}, {"A:0x100000:4:32:in", "OUT:0x200000:4:32:out"}, {"ptr:A", "ptr:OUT"});
  c.entry = entry;
  return c;
}

emulate::Inputs c37_inputs() {
  std::vector<float> a(32);
  for (int i = 0; i < 32; ++i)
    a[i] = 0.5f * static_cast<float>(i) - 3.0f;
  emulate::Inputs in;
  in.arrays["A"] = floats(a);
  return in;
}

TEST(EmulateMbarrier, ProducerConsumerInBothWaitForms) {
  for (const std::string entry : {"c37_producer_consumer", "c37_cutlass_wait"}) {
    SCOPED_TRACE(entry);
    auto r = run_text(c37_ptx(), c37_config(entry), c37_inputs());
    ASSERT_TRUE(r.result.ok()) << r.result.error->text();
    for (uint32_t i = 0; i < 32; ++i)
      EXPECT_EQ(as_float(word(r.result.outputs[0], i)), 2 * (0.5f * i - 3.0f)) << i;
  }
}

TEST(EmulateMbarrier, APhaseThatNeverCompletesIsADeadlock) {
  for (const std::string entry : {"c37_parity_waited_twice", "c37_missing_arrive"}) {
    SCOPED_TRACE(entry);
    auto r = run_text(c37_ptx(), c37_config(entry), c37_inputs());
    ASSERT_FALSE(r.result.ok());
    EXPECT_EQ(r.result.error->kind, "deadlock") << r.result.error->text();
    EXPECT_NE(r.result.error->text().find("mbarrier"), std::string::npos) << r.result.error->text();
    EXPECT_NE(r.result.error->text().find("try_wait"), std::string::npos) << r.result.error->text();
  }
}

TEST(EmulateMbarrier, AnOrdinaryStoreOverAnMbarrierIsRefused) {
  auto r = run_text(c37_ptx(), c37_config("c37_store_to_mbarrier"), c37_inputs());
  ASSERT_FALSE(r.result.ok());
  EXPECT_EQ(r.result.error->kind, "unsupported") << r.result.error->text();
  EXPECT_NE(r.result.error->text().find("inside the mbarrier"), std::string::npos)
      << r.result.error->text();
}

constexpr std::string_view kBar = ".shared .align 8 .b64 bar;\n";

TEST(EmulateMbarrier, StateTokenAndTransactionBytes) {
  // One thread: init count 1; arrive.expect_tx 16 bytes (phase 0 pending on its bytes);
  // test_wait with the token is false (stored as 0), complete_tx 16 completes phase 0, a
  // test_wait loop with the token passes; out = {first test, phase-1 parity test}.
  const std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, bar;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r1], 16;
  mbarrier.complete_tx.shared::cta.b64 [%r1], 8;
$L_probe:
  mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r1], 1;
  @!%p1 bra $L_probe;
  mbarrier.complete_tx.shared::cta.b64 [%r1], 8;
$L_wait:
  mbarrier.test_wait.shared::cta.b64 %p2, [%r1], %rd1;
  @!%p2 bra $L_wait;
  mov.u32 %r2, 7;
  st.global.u32 [%rd0], %r2;
  ret;)";
  auto r = run_text(sm90(kernel(".param .u64 out", body, kBar)),
                    config({1, 1, 1}, {"OUT:0x100000:4:1:out"}, {"ptr:OUT"}));
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  EXPECT_EQ(word(r.result.outputs[0], 0), 7u);
}

TEST(EmulateMbarrier, MissingTransactionBytesDeadlock) {
  const std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, bar;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r1], 16;
  mbarrier.complete_tx.shared::cta.b64 [%r1], 8;
$L_wait:
  mbarrier.try_wait.shared::cta.b64 %p2, [%r1], %rd1;
  @!%p2 bra $L_wait;
  ret;)";
  auto r = run_text(sm90(kernel(".param .u64 out", body, kBar)),
                    config({1, 1, 1}, {"OUT:0x100000:4:1:out"}, {"ptr:OUT"}));
  ASSERT_FALSE(r.result.ok());
  EXPECT_EQ(r.result.error->kind, "deadlock") << r.result.error->text();
  EXPECT_NE(r.result.error->text().find("tx-count 8"), std::string::npos) << r.result.error->text();
}

TEST(EmulateMbarrier, UndefinedUsesAreErrors) {
  for (const std::string ops : {
           // over-arrival: an arrive of 2 on a phase with 1 arrival pending
           "mbarrier.init.shared::cta.b64 [%r1], 1;\n  "
           "mbarrier.arrive.shared::cta.b64 %rd1, [%r1], 2;",
           // an arrive before any init
           "mbarrier.arrive.shared::cta.b64 %rd1, [%r1];",
           // init twice
           "mbarrier.init.shared::cta.b64 [%r1], 1;\n  mbarrier.init.shared::cta.b64 [%r1], 2;",
       }) {
    SCOPED_TRACE(ops);
    const std::string body =
        "  ld.param.u64 %rd0, [out];\n  mov.u32 %r1, bar;\n  " + ops + "\n  ret;";
    auto r = run_text(sm90(kernel(".param .u64 out", body, kBar)),
                      config({1, 1, 1}, {"OUT:0x100000:4:1:out"}, {"ptr:OUT"}));
    ASSERT_FALSE(r.result.ok());
    EXPECT_EQ(r.result.error->kind, "undefined") << r.result.error->text();
  }
}

TEST(EmulateMbarrier, AWaitWhoseFalseIsUsedIsRefused) {
  // try_wait's result stored: a false the hardware may or may not give.
  const std::string body = R"(
  ld.param.u64 %rd0, [out];
  mov.u32 %r1, bar;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
  selp.u32 %r2, 1, 0, %p1;
  st.global.u32 [%rd0], %r2;
  ret;)";
  auto r = run_text(sm90(kernel(".param .u64 out", body, kBar)),
                    config({1, 1, 1}, {"OUT:0x100000:4:1:out"}, {"ptr:OUT"}));
  ASSERT_FALSE(r.result.ok());
  EXPECT_EQ(r.result.error->kind, "unsupported") << r.result.error->text();
}

} // namespace
} // namespace volta::emutest
