// c31_butterfly_contractible_squares (c31_races): expected DATA_RACE.
// The xor butterfly of c31_layernorm_xor_butterfly over plain squares d*d: the first step adds a
// lane's own product (mul.f32 without a rounding mode) to its partner's, and ptxas may contract
// the own product into an fma (fma(d0, d0, d1*d1) in one lane, fma(d1, d1, d0*d0) in the other):
// the lanes' sums may differ in their bits, and every lane stores its sum to stats[0].
// Launch: 1 CTA of 32 threads; a: 32 x float input; stats: 2 x float.
extern "C" __global__ void c31_butterfly_contractible_squares(const float* a, float* stats) {
  unsigned i = threadIdx.x;
  float d = a[i];
  float sq = d * d;
  for (int offset = 16; offset > 0; offset /= 2)
    sq += __shfl_xor_sync(0xffffffffu, sq, offset);
  stats[0] = sq;
}
