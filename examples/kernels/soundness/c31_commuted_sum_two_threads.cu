// c31_commuted_sum_two_threads (c31_races): expected RACE_FREE.
// Thread 0 stores a0 + a1 and a0 * a1, thread 32 stores a1 + a0 and a1 * a0 (its operands are
// loaded the other way round): f32 addition and multiplication are commutative bit for bit (a
// result with a NaN operand is the one quiet NaN), so the stores are of provably equal values.
// Launch: 1 CTA of 64 threads; a: 2 x float input; out: 2 x float.
extern "C" __global__ void c31_commuted_sum_two_threads(const float* a, float* out) {
  unsigned i = threadIdx.x;
  if (i != 0 && i != 32)
    return;
  unsigned j = i / 32;
  float x = a[j], y = a[1 - j];
  out[0] = x + y;
  out[1] = x * y;
}
