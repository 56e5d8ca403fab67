// c24_barrier_if_else (24-control): expected EQUIVALENT (pair) and RACE_FREE (race check of
// c24_barrier_if_else_opt). Even and odd lanes take the two sides of an if/else, and each side
// ends in its own `barrier.sync 0` (no .aligned): on sm_70 and later threads may reach one
// barrier from different instructions (PTX ISA, "barrier"), so this is one CTA-wide barrier that
// orders every write before it with every read after it. The reference does the same with one
// __syncthreads() after the if/else.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float.
extern "C" __global__ void c24_barrier_if_else_ref(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  s[i] = (i & 1) ? a[i] * 3.0f : a[i] + 1.0f;
  __syncthreads();
  out[i] = s[63 - i];
}
extern "C" __global__ void c24_barrier_if_else_opt(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  if (i & 1) {
    s[i] = a[i] * 3.0f;
    asm volatile("barrier.sync 0;" ::: "memory");
  } else {
    s[i] = a[i] + 1.0f;
    asm volatile("barrier.sync 0;" ::: "memory");
  }
  out[i] = s[63 - i];
}
