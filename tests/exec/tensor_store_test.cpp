// cp.async.bulk.tensor tile stores (TMA, shared -> global) in the symbolic CTA
// (engine/exec/exec_tensor_store.cpp, tensor_copy.hpp): the box's in-bounds elements reach the
// output as the values the tile held, out-of-bounds ones are not stored; a source byte written
// through the generic proxy without a fence.proxy.async, or written again before the
// wait_group.read that retires the store, is a DATA_RACE; a store never retired, and any other
// access of the bytes it writes, are refused. The emulator's side:
// tests/emulate/emulate_tensor_store_test.cpp.
#include <gtest/gtest.h>

#include "tests/support/engine_test_util.hpp"
#include "tests/support/tensor_store_kernels.hpp"

namespace volta::etest {
namespace {

using tma_test::StoreKernel;

// 64 threads; `in` holds 64 f32 inputs; `out` 40 f32 (5 rows of 8, the map's 6 x 5 of them).
KernelConfig store_config() {
  Launch l;
  l.block = {64, 1, 1};
  l.arrays = {"in:0x200000:4:64:in", "out:0x100000:4:40:out"};
  l.params = {"ptr:in"};
  KernelConfig c = make_config(l);
  c.params.insert(c.params.begin(), tma_test::map_param(tma_test::out_map()));
  return c;
}

TEST(TensorStore, TheBoxsInBoundsElementsReachTheOutput) {
  const auto r = run_ptx(tma_test::store_kernel(StoreKernel{}), store_config());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  for (uint32_t i = 0; i < 40; ++i) {
    const uint32_t x = i % 8;
    EXPECT_EQ(r.expr("out", i), x < 6 ? "in[" + std::to_string(i) + "]" : "<unwritten>") << i;
  }
}

TEST(TensorStore, ABoxAtAnOffsetStoresItsElementsThere) {
  // At (2, 1): tile element (x, y) goes to out row y + 1, column x + 2 (in bounds: x < 4, y < 4).
  StoreKernel k;
  k.coords = "2, 1";
  const auto r = run_ptx(tma_test::store_kernel(k), store_config());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 8 + 2), "in[0]");
  EXPECT_EQ(r.expr("out", 4 * 8 + 5), "in[27]");
  EXPECT_EQ(r.expr("out", 0), "<unwritten>");
}

TEST(TensorStore, AWriteWithoutFenceProxyAsyncIsARace) {
  StoreKernel k;
  k.fence = false;
  const auto r = run_ptx(tma_test::store_kernel(k), store_config());
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
  ASSERT_NE(r.failure(), nullptr);
  EXPECT_NE(r.failure()->message.find("fence.proxy.async"), std::string::npos) << r.describe();
}

TEST(TensorStore, AFenceAfterTheBarrierIsNotOrderedBeforeTheStore) {
  // Each thread fences its write only after the barrier: the fences of the other threads are not
  // ordered before thread 0's issue, whichever order this schedule ran them in.
  StoreKernel k;
  k.fence = false;
  std::string text = tma_test::store_kernel(k);
  text.replace(text.find("  bar.sync 0;\n"), 14,
               "  bar.sync 0;\n  fence.proxy.async.shared::cta;\n");
  const auto r = run_ptx(text, store_config());
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
  ASSERT_NE(r.failure(), nullptr);
  EXPECT_NE(r.failure()->message.find("fence.proxy.async"), std::string::npos) << r.describe();
}

TEST(TensorStore, OverwritingTheSourceBeforeTheWaitIsARace) {
  StoreKernel k;
  k.after = "  st.shared.f32 [%r9+4], 0f3F800000;";
  const auto r = run_ptx(tma_test::store_kernel(k), store_config());
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
  ASSERT_NE(r.failure(), nullptr);
  EXPECT_NE(r.failure()->message.find("retires it"), std::string::npos) << r.describe();
}

TEST(TensorStore, ASourceWrittenAndRestoredBeforeTheWaitIsARace) {
  // The bytes are the same again at the retirement, but the async read may have seen the 1.0.
  StoreKernel k;
  k.after = "  ld.shared.f32 %f2, [%r9+4];\n  st.shared.f32 [%r9+4], 0f3F800000;\n"
            "  st.shared.f32 [%r9+4], %f2;";
  const auto r = run_ptx(tma_test::store_kernel(k), store_config());
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
}

TEST(TensorStore, WritingAnElementOutsideTheGlobalDimsBeforeTheWaitIsARace) {
  // Element (7, 0) is not stored, but it is in the box the store reads from shared memory.
  StoreKernel k;
  k.after = "  st.shared.f32 [%r9+28], 0f3F800000;";
  const auto r = run_ptx(tma_test::store_kernel(k), store_config());
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
}

TEST(TensorStore, OtherThreadsWritingTheSourceUnorderedWithTheWaitIsARace) {
  StoreKernel k;
  k.end = "  st.shared.f32 [%r7], 0f3F800000;";
  const auto r = run_ptx(tma_test::store_kernel(k), store_config());
  EXPECT_EQ(r.verdict(), Verdict::DataRace) << r.describe();
}

TEST(TensorStore, WritingTheSourceAfterTheWaitAndABarrierIsNoRace) {
  StoreKernel k;
  k.end = "  bar.sync 0;\n  st.shared.f32 [%r7], 0f3F800000;";
  const auto r = run_ptx(tma_test::store_kernel(k), store_config());
  ASSERT_EQ(r.failure(), nullptr) << r.describe();
  EXPECT_EQ(r.expr("out", 9), "in[9]");
}

TEST(TensorStore, AStoreNeverWaitedForIsRefused) {
  for (const std::string wait : {std::string(), std::string("  cp.async.bulk.commit_group;"),
                                 std::string("  cp.async.bulk.wait_group.read 0;")}) {
    SCOPED_TRACE(wait);
    StoreKernel k;
    k.wait = wait; // uncommitted, or committed and never waited for
    const auto r = run_ptx(tma_test::store_kernel(k), store_config());
    EXPECT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
    ASSERT_NE(r.failure(), nullptr);
    EXPECT_NE(r.failure()->message.find("not retired"), std::string::npos) << r.describe();
  }
}

TEST(TensorStore, AWaitThatKeepsTheLastGroupDoesNotRetireIt) {
  StoreKernel k;
  k.wait = "  cp.async.bulk.commit_group;\n  cp.async.bulk.wait_group.read 1;";
  const auto r = run_ptx(tma_test::store_kernel(k), store_config());
  EXPECT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
}

TEST(TensorStore, AnyOtherAccessOfTheStoredBytesIsRefused) {
  // Read back after the store, stored to before it, and stored twice by tensor stores.
  for (const auto& [before, after] : std::vector<std::pair<std::string, std::string>>{
           {"", "  mov.u64 %rd5, 0x100000;\n  ld.global.f32 %f2, [%rd5+36];"},
           {"  mov.u64 %rd5, 0x100000;\n  st.global.f32 [%rd5+36], 0f00000000;", ""},
           {"", "  cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd2, {1, 1}], [%r9];"},
       }) {
    SCOPED_TRACE(before + after);
    StoreKernel k;
    k.before = before;
    k.after = after;
    const auto r = run_ptx(tma_test::store_kernel(k), store_config());
    EXPECT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
    ASSERT_NE(r.failure(), nullptr);
    EXPECT_NE(r.failure()->message.find("async proxy"), std::string::npos) << r.describe();
  }
}

TEST(TensorStore, AReadOnlyDestinationIsRefused) {
  KernelConfig c = store_config();
  for (auto& a : c.arrays) {
    if (a.name == "out")
      a.kind = launch::ArrayKind::In;
  }
  const auto r = run_ptx(tma_test::store_kernel(StoreKernel{}), c);
  EXPECT_EQ(r.verdict(), Verdict::Unsupported) << r.describe();
  ASSERT_NE(r.failure(), nullptr);
  EXPECT_NE(r.failure()->message.find("read-only"), std::string::npos) << r.describe();
}

} // namespace
} // namespace volta::etest
