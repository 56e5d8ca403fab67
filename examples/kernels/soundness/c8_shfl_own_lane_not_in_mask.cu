// c8_shfl_own_lane_not_in_mask (8-sync-cp-async): expected BARRIER_DIVERGENCE: lane 0 calls __shfl_sync with a mask that omits its own bit: undefined behaviour.
// A correct but incomplete tool may answer DATA_RACE or DEADLOCK or UNSUPPORTED or UNKNOWN instead; never RACE_FREE.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_shfl_own_lane_not_in_mask(const float* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __shfl_sync(0xfffffffeu, a[i], (i + 1) & 31);
}
