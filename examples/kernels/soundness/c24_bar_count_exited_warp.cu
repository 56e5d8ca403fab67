// c24_bar_count_exited_warp (24-control): expected DEADLOCK. Warp 0 returns; warp 1 waits at
// `bar.sync 1, 64` in a CTA of 64 threads. A barrier with a thread count completes after that
// many arrivals, counted by warp, and an exited warp never arrives: exits release only a barrier
// that waits for all the threads of the CTA, one without a count (PTX ISA, "exit"). A tool that
// read "count = the CTA's size" as "all threads" would let the exit release it.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check.
extern "C" __global__ void c24_bar_count_exited_warp(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  if (i < 32)
    return;
  s[i] = a[i];
  asm volatile("bar.sync 1, 64;" ::: "memory");
  out[i] = s[95 - i];
}
