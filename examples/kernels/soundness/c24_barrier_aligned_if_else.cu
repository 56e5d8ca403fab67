// c24_barrier_aligned_if_else (24-control): expected BARRIER_DIVERGENCE. The if/else of
// c24_barrier_if_else with `barrier.sync.aligned 0` in each side: .aligned says every thread
// executes that one barrier instruction, and even and odd lanes execute two (undefined
// behaviour), whatever the barrier id.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check.
extern "C" __global__ void c24_barrier_aligned_if_else(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  if (i & 1) {
    s[i] = a[i] * 3.0f;
    asm volatile("barrier.sync.aligned 0;" ::: "memory");
  } else {
    s[i] = a[i] + 1.0f;
    asm volatile("barrier.sync.aligned 0;" ::: "memory");
  }
  out[i] = s[63 - i];
}
