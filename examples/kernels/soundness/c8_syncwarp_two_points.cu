// c8_syncwarp_two_points (8-sync-cp-async): expected RACE_FREE: __syncwarp reached from two program points is legal on sm_70+ and orders s[] between the halves.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_syncwarp_two_points(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 16) { s[i] = a[i]; __syncwarp(); out[i] = s[i ^ 16]; }
  else { s[i] = 2.0f * a[i]; __syncwarp(); out[i] = s[i ^ 16] + 1.0f; }
}
