// c8_warp_reduce_no_syncwarp (8-sync-cp-async): expected DATA_RACE: the volatile warp-synchronous reduction tail without __syncwarp is racy (sm_70+).
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_warp_reduce_no_syncwarp(const float* a, float* out) {
  unsigned i = threadIdx.x;
  volatile __shared__ float s[64];
  s[i] = a[i]; s[i + 32] = 0.0f;
  s[i] += s[i + 16]; s[i] += s[i + 8]; s[i] += s[i + 4];
  out[i] = s[i];
}
