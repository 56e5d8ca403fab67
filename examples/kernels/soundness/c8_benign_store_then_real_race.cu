// c8_benign_store_then_real_race (8-sync-cp-async): expected DATA_RACE: a benign same-value store first, then a real race (s[i^1] read without a barrier).
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_benign_store_then_real_race(const float* a, float* out) {
  unsigned i = threadIdx.x;
  volatile __shared__ float s[33];
  s[32] = 1.0f;
  s[i] = a[i];
  out[i] = s[i ^ 1] + s[32];
}
