// Small TMA tensor-store kernels shared by the symbolic engine's tests (tests/exec/
// tensor_store_test.cpp) and the emulator's (tests/emulate/emulate_tensor_store_test.cpp): 64
// threads each write in[tid] into a shared tile (st.shared, the generic proxy), fence the write
// to the async proxy and meet at a barrier; thread 0 stores the tile to array `out` through a
// 2-D f32 tensor map (the first, aggregate, kernel parameter), commits the bulk group and waits
// for its read of the tile.
#pragma once

#include <fmt/format.h>
#include <string>

#include "tests/support/tensor_load_kernels.hpp"

namespace volta::tma_test {

struct StoreKernel {
  bool fence = true;  // fence.proxy.async.shared::cta after each thread's write
  std::string before; // instructions of thread 0 before its store
  std::string after;  // instructions of thread 0 right after its store (before waiting)
  std::string wait = "  cp.async.bulk.commit_group;\n  cp.async.bulk.wait_group.read 0;";
  std::string end;             // instructions of every thread at the end
  std::string coords = "0, 0"; // the two coordinates
};

// The PTX of the kernel (entry `k`, params (map struct, in)); the tile holds 64 f32.
inline std::string store_kernel(const StoreKernel& k) {
  return fmt::format(R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .align 64 .b8 k_param_0[128], .param .u64 p_in)
{{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  .shared .align 1024 .b8 tile[256];
  ld.param.u64 %rd0, [p_in];
  mov.u32 %r0, %tid.x;
  mov.u32 %r9, tile;
  mul.wide.u32 %rd3, %r0, 4;
  add.u64 %rd4, %rd0, %rd3;
  ld.global.f32 %f1, [%rd4];
  shl.b32 %r6, %r0, 2;
  add.u32 %r7, %r9, %r6;
  st.shared.f32 [%r7], %f1;
{0}
  bar.sync 0;
  setp.ne.u32 %p0, %r0, 0;
  @%p0 bra $L_end;
  mov.u64 %rd1, k_param_0;
  cvta.param.u64 %rd2, %rd1;
{1}
  cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd2, {{{2}}}], [%r9];
{3}
{4}
$L_end:
{5}
  ret;
}}
)",
                     k.fence ? "  fence.proxy.async.shared::cta;" : "", k.before, k.coords, k.after,
                     k.wait, k.end);
}

// A 2-D f32 map of array `out`: 6 x 5 elements, rows 32 bytes apart, box 8 x 8 (elements with
// x >= 6 or y >= 5 lie outside the global dims: not stored).
inline launch::TensorMap out_map() {
  launch::TensorMap m = f32_map(6, 5, 32, 8, 8);
  m.array = "out";
  return m;
}

} // namespace volta::tma_test
