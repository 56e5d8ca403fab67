// c31_f64_commuted_sum_two_threads (c31_races): expected DATA_RACE.
// Thread 0 stores a0 + a1 and thread 32 a1 + a0 in double precision: the result of an f64
// operation on NaN operands is not specified to be one NaN, so its payload may depend on the
// order; the model commutes only f32 arithmetic for the bits.
// Launch: 1 CTA of 64 threads; a: 2 x double input; out: 1 x double.
extern "C" __global__ void c31_f64_commuted_sum_two_threads(const double* a, double* out) {
  unsigned i = threadIdx.x;
  if (i == 0)
    out[0] = a[0] + a[1];
  if (i == 32)
    out[0] = a[1] + a[0];
}
