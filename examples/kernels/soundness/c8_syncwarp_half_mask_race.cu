// c8_syncwarp_half_mask_race (8-sync-cp-async): expected DATA_RACE: lanes 0..15 sync among themselves but read s[i+16], written by lanes that did not take part.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_syncwarp_half_mask_race(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  s[i] = a[i];
  if (i < 16) { __syncwarp(0x0000ffffu); out[i] = s[i + 16]; }
}
