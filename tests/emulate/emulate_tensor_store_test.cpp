// cp.async.bulk.tensor tile stores (TMA, shared -> global) on the emulator
// (emulate/tensor_store.cpp, the shared plan engine/exec/tensor_copy.hpp): the box's in-bounds
// elements are stored where the map places them, the out-of-bounds ones are not; the bulk
// async-groups wait for nothing. The symbolic engine's side: tests/exec/tensor_store_test.cpp
// (the same kernels, tests/support/tensor_store_kernels.hpp).
#include "tests/emulate/emulate_test_util.hpp"
#include "tests/support/tensor_store_kernels.hpp"

namespace volta::emutest {
namespace {

using tma_test::StoreKernel;

launch::KernelConfig store_config() {
  auto c = config({64, 1, 1}, {"in:0x200000:4:64:in", "out:0x100000:4:40:out"}, {"ptr:in"});
  c.params.insert(c.params.begin(), tma_test::map_param(tma_test::out_map()));
  return c;
}

emulate::Inputs in_inputs() {
  std::vector<float> a(64);
  for (uint32_t i = 0; i < 64; ++i)
    a[i] = 1.0f + static_cast<float>(i);
  emulate::Inputs in;
  in.arrays["in"] = floats(a);
  return in;
}

TEST(EmulateTensorStore, TheBoxsInBoundsElementsReachTheOutput) {
  auto r = run_text(tma_test::store_kernel(StoreKernel{}), store_config(), in_inputs());
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t i = 0; i < 40; ++i) {
    const uint32_t x = i % 8;
    // The output starts as zeros: what the store skips stays so.
    const float expected = x < 6 ? 1.0f + static_cast<float>(i) : 0.0f;
    EXPECT_EQ(as_float(word(r.result.outputs[0], i)), expected) << i;
  }
}

TEST(EmulateTensorStore, ABoxAtAnOffsetStoresItsElementsThere) {
  StoreKernel k;
  k.coords = "2, 1";
  auto r = run_text(tma_test::store_kernel(k), store_config(), in_inputs());
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  EXPECT_EQ(as_float(word(r.result.outputs[0], 8 + 2)), 1.0f);
  EXPECT_EQ(as_float(word(r.result.outputs[0], 4 * 8 + 5)), 28.0f);
}

} // namespace
} // namespace volta::emutest
