// c31_fmax_commuted_two_threads (c31_races): expected DATA_RACE.
// Thread 0 stores fmaxf(a0, a1), thread 32 fmaxf(a1, a0): equal over the reals, but which zero
// max(-0, +0) returns is not the same on every GPU operation, so the model does not commute min
// and max for the bits: values that may differ.
// Launch: 1 CTA of 64 threads; a: 2 x float input; out: 1 x float.
extern "C" __global__ void c31_fmax_commuted_two_threads(const float* a, float* out) {
  unsigned i = threadIdx.x;
  if (i == 0)
    out[0] = fmaxf(a[0], a[1]);
  if (i == 32)
    out[0] = fmaxf(a[1], a[0]);
}
