// Small TMA tensor-load kernels shared by the symbolic engine's tests (tests/exec/
// tensor_load_test.cpp) and the emulator's (tests/emulate/emulate_tensor_load_test.cpp): one
// thread inits an mbarrier, arrives with expect_tx and issues a 2-D tile load of a tensor map
// given as the first (aggregate) kernel parameter; every thread waits on phase 0 and stores one
// f32 of the tile to out[tid].
#pragma once

#include <fmt/format.h>
#include <string>

#include "engine/launch/launch_config.hpp"

namespace volta::tma_test {

// CUtensorMapDataType / CUtensorMapSwizzle values (cuda.h).
inline constexpr uint32_t kFloat32 = 7;
inline constexpr uint32_t kSwizzle128B = 3;

// A 2-D f32 map of array A: `width` x `height` elements, rows `stride` bytes apart, box
// `box_w` x `box_h`.
inline launch::TensorMap f32_map(uint64_t width, uint64_t height, uint64_t stride, uint32_t box_w,
                                 uint32_t box_h, uint32_t swizzle = 0) {
  launch::TensorMap m;
  m.data_type = kFloat32;
  m.rank = 2;
  m.array = "A";
  m.global_dim = {width, height, 0, 0, 0};
  m.global_strides = {stride, 0, 0, 0};
  m.box_dim = {box_w, box_h, 0, 0, 0};
  m.element_strides = {1, 1, 0, 0, 0};
  m.swizzle = swizzle;
  return m;
}

// The launch's first parameter: a 128-byte struct whose only field is the map.
inline launch::ParamSpec map_param(const launch::TensorMap& m) {
  launch::ParamSpec p;
  p.kind = launch::ParamSpec::Kind::Struct;
  p.text = "struct";
  p.struct_size = 128;
  launch::StructField f;
  f.offset = 0;
  f.type = launch::StructField::Type::TensorMap;
  f.tensor_map = m;
  f.text = "tensormap " + launch::describe(m);
  p.struct_fields.push_back(f);
  return p;
}

struct TileKernel {
  uint32_t tile_bytes = 256;
  uint32_t expect_tx = 256;    // arrive.expect_tx's byte count
  std::string early;           // instructions of thread 0 right after the issue (before its wait)
  std::string coords = "0, 0"; // the two coordinates
  bool wait = true;            // the threads wait on the phase before reading
};

// The PTX of the kernel (entry `k`, params (map struct, out)).
inline std::string tile_kernel(const TileKernel& k) {
  return fmt::format(R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .align 64 .b8 k_param_0[128], .param .u64 p_out)
{{
  .reg .pred %p<4>;
  .reg .b16 %h<2>;
  .reg .b32 %r<16>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  .shared .align 1024 .b8 tile[{0}];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd0, [p_out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, bar;
  mov.u32 %r9, tile;
  setp.ne.u32 %p0, %r0, 0;
  @%p0 bra $L_inited;
  mbarrier.init.shared::cta.b64 [%r1], 1;
$L_inited:
  bar.sync 0;
  @%p0 bra $L_wait;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r1], {1};
  mov.u64 %rd1, k_param_0;
  cvta.param.u64 %rd2, %rd1;
  cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r9], [%rd2, {{{2}}}], [%r1];
{3}
$L_wait:
{4}
  shl.b32 %r6, %r0, 2;
  add.u32 %r7, %r9, %r6;
  ld.shared.f32 %f1, [%r7];
  mul.wide.u32 %rd3, %r0, 4;
  add.u64 %rd4, %rd0, %rd3;
  st.global.f32 [%rd4], %f1;
  ret;
}}
)",
                     k.tile_bytes, k.expect_tx, k.coords, k.early,
                     k.wait ? "  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;\n"
                              "  @!%p1 bra $L_wait;"
                            : "");
}

} // namespace volta::tma_test
