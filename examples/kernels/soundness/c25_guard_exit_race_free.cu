// c25_guard_exit_race_free (25-exits): expected RACE_FREE. Warp 1 exits before touching memory (a
// bounds guard); warp 0 stores, synchronizes and reads its neighbours' elements: the barrier
// orders every access made, since the exited warp made none.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float (out).
// Part of examples/soundness/manifest.json.
extern "C" __global__ void c25_guard_exit_race_free(float* out, const float* a) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  if (t >= 32)
    return;
  s[t] = a[t];
  __syncthreads();
  out[t] = s[(t + 1) % 32];
}
