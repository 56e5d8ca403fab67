// c8_different_symbolic_store (8-sync-cp-async): expected DATA_RACE: 32 lanes store a[lane] to one shared word: values may differ.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_different_symbolic_store(const float* a, float* out) {
  unsigned i = threadIdx.x;
  volatile __shared__ float s[1];
  s[0] = a[i];
  __syncwarp();
  out[i] = s[0];
}
