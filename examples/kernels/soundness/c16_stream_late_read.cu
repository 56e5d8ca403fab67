// c16_stream_late_read (16-streamed-groups): expected DATA_RACE: the last CTA reads out[0], which CTA 0 writes; nothing orders the two CTAs (a streamed proof's later group starts from fresh memory and must still see the race).
// Launch: all 64 CTAs of 32 threads; a: 2048 x float, b: 32 x float inputs; out: 2048 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_late_read_ref(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * a[i];
}
extern "C" __global__ void c16_stream_late_read_opt(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i] + a[i];
  if (i == 2047)
    v += out[0] - 2.0f * a[0];
  out[i] = v;
}
