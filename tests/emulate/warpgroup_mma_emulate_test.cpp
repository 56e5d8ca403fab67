// wgmma on the emulator (emulate/warpgroup_mma.cpp), independently of the symbolic engine: every
// EQUIVALENT pair of the soundness class 38-wgmma (each swizzle mode, K- and MN-major, A from
// registers, a chain of two wgmmas, scale-d with C) runs on random inputs, and both kernels must
// store the product computed here in double from the same inputs. The layouts the kernels store
// their tiles in are written in their CUDA (examples/kernels/soundness/c38_wgmma.cu) from the
// PTX ISA, apart from engine/exec/warpgroup_mma_layout.cpp; the expected product knows no layout.
#include <cmath>
#include <cstring>

#include "engine/emulate/float_semantics.hpp"
#include "engine/exec/run_kernel.hpp"
#include "tests/emulate/emulate_test_util.hpp"

namespace volta::emutest {
namespace {

TEST(EmulateWgmma, EquivalentPairsStoreTheExactProduct) {
  auto m =
      launch::read_manifest(std::string(VOLTA_SOURCE_DIR) + "/examples/soundness/manifest.json");
  ASSERT_TRUE(m.manifest);
  size_t pairs = 0;
  for (const auto& e : m.manifest->entries) {
    if (!e.name.starts_with("c38_wgmma_") || e.kind != launch::EntryKind::Equivalence ||
        e.expected != Verdict::Equivalent)
      continue;
    SCOPED_TRACE(e.name);
    ++pairs;
    const emulate::Inputs inputs = emulate::random_inputs(e.reference, 5);
    const auto& a = inputs.arrays.at("a");
    const auto& b = inputs.arrays.at("b");
    const uint32_t k_dim = static_cast<uint32_t>(a.size() / 2 / 64);
    auto half = [](const std::vector<uint8_t>& bytes, size_t i) {
      uint16_t h;
      std::memcpy(&h, bytes.data() + 2 * i, 2);
      return emulate::decode(emulate::FloatFormat::F16, h);
    };
    const auto c = inputs.arrays.find("c");
    for (const auto* config : {&e.reference, &e.optimized}) {
      auto loaded = exec::load_kernel(config->ptx_path, config->entry);
      ASSERT_TRUE(loaded.kernel) << config->entry;
      const auto run = emulate::emulate(loaded.kernel->program, *config, inputs);
      ASSERT_TRUE(run.ok()) << config->entry << ": " << run.error->text();
      const auto* out = run.find("out");
      ASSERT_NE(out, nullptr);
      for (uint32_t i = 0; i < 64 * 16; ++i) {
        const uint32_t row = i / 16, col = i % 16;
        double exact = 0;
        if (c != inputs.arrays.end()) {
          float f;
          std::memcpy(&f, c->second.data() + 4 * i, 4);
          exact = f;
        }
        for (uint32_t k = 0; k < k_dim; ++k)
          exact += half(a, row * k_dim + k) * half(b, k * 16 + col);
        ASSERT_TRUE(out->is_written(i)) << config->entry << " out[" << i << "]";
        EXPECT_NEAR(out->value(i), exact, 1e-4 * (1 + std::fabs(exact)))
            << config->entry << " out[" << i << "]";
      }
    }
  }
  EXPECT_EQ(pairs, 9u);
}

} // namespace
} // namespace volta::emutest
