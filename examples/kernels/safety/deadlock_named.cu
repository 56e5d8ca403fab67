// deadlock_named: two warps wait on different named barriers, each of which expects all 64
// threads of the CTA: warp 0 executes `bar.sync 1, 64`, warp 1 executes `bar.sync 2, 64`.
// Neither barrier can ever collect 64 arrivals and both warps are blocked (none exits).
//
// Launch: block (64, 1, 1), grid (1, 1, 1).
// Verifier: DEADLOCK (no thread can run and no barrier can fire). Warp-uniform conditions, so
// the aligned barrier rule is respected and this is not BARRIER_DIVERGENCE.
#define N 64

extern "C" __global__ void deadlock_named(const float* in, float* out) {
  int t = threadIdx.x;
  float v = in[t];
  if (t < 32) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 2, 64;" ::: "memory");  // BUG: should be barrier 1
  }
  out[t] = v;
}
