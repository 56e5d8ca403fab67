// c8_different_constant_store (8-sync-cp-async): expected DATA_RACE: 32 lanes store their lane id to one shared word: a write conflict.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_different_constant_store(const float* a, float* out) {
  unsigned i = threadIdx.x;
  volatile __shared__ float s[1];
  s[0] = (float)i;
  __syncwarp();
  out[i] = s[0];
}
