// c16_stream_equal (16-streamed-groups): expected EQUIVALENT: a*s + a = a*(s+1) in every element of a 64-CTA grid, proved a group of CTAs at a time.
// Launch: all 64 CTAs of 32 threads; a: 2048 x float, b: 32 x float inputs; out: 2048 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_equal_ref(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * b[0] + a[i];
}
extern "C" __global__ void c16_stream_equal_opt(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * (b[0] + 1.0f);
}
