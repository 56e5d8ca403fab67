// cp.async.bulk.tensor tile loads (TMA) on the emulator (emulate/tensor_load.cpp, the shared
// plan engine/exec/tensor_copy.hpp): the box lands with zeros outside the global dims and the
// map's swizzle, its complete_tx completes the waited phase; an expect_tx above the box's bytes
// is a DEADLOCK; a map beyond its array an out-of-bounds read. The symbolic engine's side:
// tests/exec/tensor_load_test.cpp (the same kernels, tests/support/tensor_load_kernels.hpp).
#include "engine/exec/tma_box.hpp"
#include "tests/emulate/emulate_test_util.hpp"
#include "tests/support/tensor_load_kernels.hpp"

namespace volta::emutest {
namespace {

using tma_test::TileKernel;

launch::KernelConfig tile_config(const launch::TensorMap& map, uint64_t len,
                                 uint32_t threads = 64) {
  auto c = config({threads, 1, 1},
                  {"A:0x200000:4:" + std::to_string(len) + ":in",
                   "out:0x100000:4:" + std::to_string(threads) + ":out"},
                  {"ptr:out"});
  c.params.insert(c.params.begin(), tma_test::map_param(map));
  return c;
}

emulate::Inputs a_inputs(uint64_t len) {
  std::vector<float> a(len);
  for (uint64_t i = 0; i < len; ++i)
    a[i] = 1.0f + static_cast<float>(i);
  emulate::Inputs in;
  in.arrays["A"] = floats(a);
  return in;
}

TEST(EmulateTensorLoad, TheBoxLandsWithZerosOutsideTheGlobalDims) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  auto r = run_text(tma_test::tile_kernel(TileKernel{}), tile_config(map, 40), a_inputs(40));
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t x = t % 8, y = t / 8;
    const float expected = x < 6 && y < 5 ? 1.0f + static_cast<float>(y * 8 + x) : 0.0f;
    EXPECT_EQ(as_float(word(r.result.outputs[0], t)), expected) << t;
  }
}

TEST(EmulateTensorLoad, ASwizzledBoxIsLaidOutByTheSwizzle) {
  const auto map = tma_test::f32_map(32, 8, 128, 32, 8, tma_test::kSwizzle128B);
  TileKernel k;
  k.tile_bytes = 1024;
  k.expect_tx = 1024;
  auto r = run_text(tma_test::tile_kernel(k), tile_config(map, 256, 256), a_inputs(256));
  ASSERT_TRUE(r.result.ok()) << r.result.error->text();
  for (uint32_t t = 0; t < 256; ++t) {
    const uint64_t element = exec::tma_swizzle(tma_test::kSwizzle128B, 4 * t) / 4;
    EXPECT_EQ(as_float(word(r.result.outputs[0], t)), 1.0f + static_cast<float>(element)) << t;
  }
}

TEST(EmulateTensorLoad, AnExpectTxAboveTheBoxBytesIsADeadlock) {
  const auto map = tma_test::f32_map(6, 5, 32, 8, 8);
  TileKernel k;
  k.expect_tx = 512;
  auto r = run_text(tma_test::tile_kernel(k), tile_config(map, 40), a_inputs(40));
  ASSERT_FALSE(r.result.ok());
  EXPECT_EQ(r.result.error->kind, "deadlock") << r.result.error->text();
}

TEST(EmulateTensorLoad, AMapLargerThanItsArrayIsAnOutOfBoundsRead) {
  const auto map = tma_test::f32_map(6, 6, 32, 8, 8);
  auto r = run_text(tma_test::tile_kernel(TileKernel{}), tile_config(map, 40), a_inputs(40));
  ASSERT_FALSE(r.result.ok());
  EXPECT_NE(r.result.error->kind.find("out of bounds"), std::string::npos)
      << r.result.error->kind << ": " << r.result.error->text();
}

} // namespace
} // namespace volta::emutest
