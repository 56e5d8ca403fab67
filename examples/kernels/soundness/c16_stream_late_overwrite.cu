// c16_stream_late_overwrite (16-streamed-groups): expected DATA_RACE: the last CTA writes out[0] again (the value CTA 0 wrote there); unordered CTAs make it a write-write race, and a streamed proof must not take out[0] as final after the first group.
// Launch: all 64 CTAs of 32 threads; a: 2048 x float, b: 32 x float inputs; out: 2048 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_late_overwrite_ref(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * a[i];
}
extern "C" __global__ void c16_stream_late_overwrite_opt(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] + a[i];
  if (i == 2047)
    out[0] = a[0] + a[0];
}
