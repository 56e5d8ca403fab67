// c8_shfl_from_exited_lane (8-sync-cp-async): expected UNINITIALIZED: lanes 0..15 read lane i+16 which has exited: the value is undefined and reaches out.
// A correct but incomplete tool may answer DATA_RACE or BARRIER_DIVERGENCE or UNSUPPORTED or UNKNOWN instead; never RACE_FREE.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_shfl_from_exited_lane(const float* a, float* out) {
  unsigned i = threadIdx.x;
  if (i >= 16) return;
  out[i] = __shfl_sync(0x0000ffffu, a[i], i + 16);
}
