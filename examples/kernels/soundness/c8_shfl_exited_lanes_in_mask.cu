// c8_shfl_exited_lanes_in_mask (8-sync-cp-async): expected RACE_FREE: lanes 16..31 have exited; naming exited lanes in a full mask is legal.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_shfl_exited_lanes_in_mask(const float* a, float* out) {
  unsigned i = threadIdx.x;
  if (i >= 16) return;
  out[i] = __shfl_sync(0xffffffffu, a[i], i ^ 1);
}
