// c31_fmax_same_order_two_threads (c31_races): expected RACE_FREE.
// Threads 0 and 32 both store fmaxf(a0, a1), operands in one order: one term, the same bits.
// Launch: 1 CTA of 64 threads; a: 2 x float input; out: 1 x float.
extern "C" __global__ void c31_fmax_same_order_two_threads(const float* a, float* out) {
  unsigned i = threadIdx.x;
  if (i == 0 || i == 32)
    out[0] = fmaxf(a[0], a[1]);
}
