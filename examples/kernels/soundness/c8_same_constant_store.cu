// c8_same_constant_store (8-sync-cp-async): expected RACE_FREE: 32 lanes store the same constant to one shared word in one instruction: one write lands, no race.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_same_constant_store(const float* a, float* out) {
  unsigned i = threadIdx.x;
  volatile __shared__ float s[1];
  s[0] = 7.0f;
  __syncwarp();
  out[i] = s[0];
}
