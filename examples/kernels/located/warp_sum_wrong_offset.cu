// warp_sum_wrong_offset — warp_sum with the reduction unrolled and one shuffle offset wrong:
// the second step shuffles down by 4 instead of 8, so lanes 8..15 never reach lane 0.
// Launch: block (32, 1, 1), grid (1, 1, 1), as warp_sum.
// Verifier: NOT_EQUIVALENT to warp_sum; the report names the line of the wrong offset.
extern "C" __global__ void warp_sum_wrong_offset(const float* x, float* out) {
  float v = x[threadIdx.x];
  v += __shfl_down_sync(0xffffffffu, v, 16);
  v += __shfl_down_sync(0xffffffffu, v, 4); // BUG: 8
  v += __shfl_down_sync(0xffffffffu, v, 4);
  v += __shfl_down_sync(0xffffffffu, v, 2);
  v += __shfl_down_sync(0xffffffffu, v, 1);
  if (threadIdx.x == 0)
    out[0] = v;
}
