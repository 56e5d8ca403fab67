// c25_exit_read_then_overwrite (25-exits): expected DATA_RACE. Warp 0 reads s[32] and exits; warp 1
// passes a second __syncthreads() and overwrites s[32]. The exited warp took no part in that
// barrier, so its read is unordered with the write (a write-after-read race).
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float (out).
// Part of examples/soundness/manifest.json.
extern "C" __global__ void c25_exit_read_then_overwrite(float* out, const float* a) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = a[t];
  __syncthreads();
  if (t < 32) {
    out[t] = s[32];
    return;
  }
  __syncthreads();
  s[32] = 1.0f;
  out[t] = s[t];
}
