// c16_stream_reversed_ctas (16-streamed-groups): expected EQUIVALENT: the optimized kernel's CTA c writes the reference's tile 63 - c, so no group of CTAs writes the same elements in both kernels; the whole grid is proved at once.
// Launch: all 64 CTAs of 32 threads; a: 2048 x float, b: 32 x float inputs; out: 2048 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_reversed_ctas_ref(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * a[i];
}
extern "C" __global__ void c16_stream_reversed_ctas_opt(const float* a, const float* b, float* out) {
  unsigned i = (gridDim.x - 1 - blockIdx.x) * blockDim.x + threadIdx.x;
  out[i] = a[i] + a[i];
}
