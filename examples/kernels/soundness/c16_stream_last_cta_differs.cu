// c16_stream_last_cta_differs (16-streamed-groups): expected NOT_EQUIVALENT: only the last element of the last CTA differs (the last group of a streamed proof).
// Launch: all 64 CTAs of 32 threads; a: 2048 x float, b: 32 x float inputs; out: 2048 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_last_cta_differs_ref(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * a[i];
}
extern "C" __global__ void c16_stream_last_cta_differs_opt(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i] + a[i];
  if (i == 2047)
    v += b[0];
  out[i] = v;
}
