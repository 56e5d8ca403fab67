// c16_stream_race_free (16-streamed-groups): expected RACE_FREE: every thread of 64 CTAs writes its own element; checked a group of CTAs at a time.
// Launch: all 64 CTAs of 32 threads; a: 2048 x float input; out: 2048 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_race_free(const float* a, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * a[i];
}
