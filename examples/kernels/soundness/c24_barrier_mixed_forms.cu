// c24_barrier_mixed_forms (24-control): expected BARRIER_DIVERGENCE. Odd lanes wait at
// `barrier.sync 0` and even lanes at `bar.sync 0`: one barrier, but the `bar.sync` is .aligned,
// which says every thread of the CTA executes that very instruction; the odd lanes do not
// (undefined behaviour: a tool must not fire the barrier because one of the two forms allows it).
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check.
extern "C" __global__ void c24_barrier_mixed_forms(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  if (i & 1) {
    s[i] = a[i] * 3.0f;
    asm volatile("barrier.sync 0;" ::: "memory");
  } else {
    s[i] = a[i] + 1.0f;
    asm volatile("bar.sync 0;" ::: "memory");
  }
  out[i] = s[63 - i];
}
