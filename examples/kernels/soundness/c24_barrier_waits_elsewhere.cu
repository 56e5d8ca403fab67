// c24_barrier_waits_elsewhere (24-control): expected DEADLOCK. Warp 0 waits at `barrier.sync 0`
// and warp 1 at `barrier.sync 1` (both without .aligned, so arriving from different instructions
// is allowed): barrier 0 waits for warp 1, which neither arrives nor exits, and barrier 1 for
// warp 0. Neither completes.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check.
extern "C" __global__ void c24_barrier_waits_elsewhere(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  s[i] = a[i];
  if (i < 32)
    asm volatile("barrier.sync 0;" ::: "memory");
  else
    asm volatile("barrier.sync 1;" ::: "memory");
  out[i] = s[63 - i];
}
