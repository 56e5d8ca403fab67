// c8_syncthreads_after_exit (8-sync-cp-async): expected RACE_FREE: threads 32..63 exit before __syncthreads; exited threads count as arrived.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_syncthreads_after_exit(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i >= 32) return;
  s[i] = a[i];
  __syncthreads();
  out[i] = s[i ^ 1];
}
