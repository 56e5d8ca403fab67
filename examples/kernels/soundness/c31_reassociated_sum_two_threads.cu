// c31_reassociated_sum_two_threads (c31_races): expected DATA_RACE.
// Thread 0 stores (a0 + a1) + a2 and thread 32 stores a0 + (a1 + a2): equal over the reals, not
// in their bits ((1e8 + -1e8) + 1 is 1, 1e8 + (-1e8 + 1) is 0 in f32).
// Launch: 1 CTA of 64 threads; a: 3 x float input; out: 1 x float.
extern "C" __global__ void c31_reassociated_sum_two_threads(const float* a, float* out) {
  unsigned i = threadIdx.x;
  if (i == 0)
    out[0] = (a[0] + a[1]) + a[2];
  if (i == 32)
    out[0] = a[0] + (a[1] + a[2]);
}
