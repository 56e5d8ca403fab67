// c24_barrier_partial_exit (24-control): expected RACE_FREE. Odd lanes return at once; even
// lanes write, wait at `barrier.sync 0` (no .aligned) and read another even lane's element. A
// barrier without .aligned waits for the threads that have not exited, lanes of its own warp
// included (PTX ISA, "barrier": "wait for all non-exited threads from its warp"), and the exits
// release it ("exit"): legal, and the barrier orders every write before every read. (With
// `bar.sync` the warps would be split: examples/safety divergent_barrier.)
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check.
extern "C" __global__ void c24_barrier_partial_exit(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  if (i & 1)
    return;
  s[i] = a[i] * 2.0f;
  asm volatile("barrier.sync 0;" ::: "memory");
  out[i] = s[i ^ 34];
}
