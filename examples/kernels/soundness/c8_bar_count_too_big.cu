// c8_bar_count_too_big (8-sync-cp-async): expected DEADLOCK: bar.sync 1, 128 in a CTA of 64 threads waits for threads that do not exist.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never RACE_FREE.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_bar_count_too_big(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[64];
  s[i] = a[i];
  asm volatile("bar.sync 1, 128;" ::: "memory");
  out[i] = s[i ^ 32];
}
