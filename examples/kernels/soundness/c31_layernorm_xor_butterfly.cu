// c31_layernorm_xor_butterfly (c31_races): expected RACE_FREE.
// A warp-wide layernorm: the sum of x over the warp by an xor butterfly (__shfl_xor_sync with
// offsets 16, 8, 4, 2, 1): at each step a lane adds its partner's value to its own, and the partner
// adds them the other way round (a+b and b+a, the same bits for f32), so every lane ends with the
// same bits although each associates the 32 terms in its own order. The squares are rounded
// products (__fmul_rn: mul.rn, which ptxas never contracts into an fma), so the variance is the
// same bits in every lane too. Every lane stores mean and rstd to stats[0] and stats[1]: stores of
// provably equal values, no race.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float; stats: 2 x float.
extern "C" __global__ void c31_layernorm_xor_butterfly(const float* a, float* out, float* stats) {
  unsigned i = threadIdx.x;
  float x = a[i];
  float sum = x;
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  float mean = sum * (1.0f / 32.0f);
  float d = x - mean;
  float sq = __fmul_rn(d, d);
  for (int offset = 16; offset > 0; offset /= 2)
    sq += __shfl_xor_sync(0xffffffffu, sq, offset);
  float rstd = rsqrtf(sq * (1.0f / 32.0f) + 1e-5f);
  stats[0] = mean;
  stats[1] = rstd;
  out[i] = d * rstd;
}
