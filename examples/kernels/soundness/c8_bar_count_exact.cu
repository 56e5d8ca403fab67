// c8_bar_count_exact (8-sync-cp-async): expected RACE_FREE: bar.sync 1, 64 with exactly 64 threads is a full barrier.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_bar_count_exact(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[64];
  s[i] = a[i];
  asm volatile("bar.sync 1, 64;" ::: "memory");
  out[i] = s[i ^ 32];
}
