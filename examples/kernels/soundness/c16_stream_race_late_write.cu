// c16_stream_race_late_write (16-streamed-groups): expected DATA_RACE: the last CTA writes out[0] again, which CTA 0 wrote; a race check run a group of CTAs at a time must still see the race between the first and the last group.
// Launch: all 64 CTAs of 32 threads; a: 2048 x float input; out: 2048 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_race_late_write(const float* a, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i];
  if (i == 2047)
    out[0] = a[0];
}
