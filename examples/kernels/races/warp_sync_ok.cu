// warp_sync_ok: sum of 32 floats by one warp with register shuffles:
//   v = in[lane]; for off = 16, 8, 4, 2, 1: v += __shfl_down_sync(0xffffffff, v, off)
//   lane 0: out[0] = v
// Lanes whose source lane + off is >= 32 get their own value back (shfl.sync.down clamps), which
// only pollutes lanes that are never read by lane 0's chain.
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE (no shared memory at all; each shfl.sync with the full mask synchronizes
// the warp); out[0] = sum of in[0..31], EQUIVALENT to sum_serial with n = 32 over the reals.

extern "C" __global__ void warp_sync_ok(const float* in, float* out) {
  int lane = threadIdx.x;
  float v = in[lane];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if (lane == 0) out[0] = v;
}
