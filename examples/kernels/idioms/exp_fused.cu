// exp_fused: accumulations of accurate expf (no fast math), 4 rows of 32, one thread per row.
//   exp_fused  out[r] = sum_j expf(x[r][j]) * v[r][j]   Verifier: EQUIVALENT to exp_dot_ref.
//   exp_sum    out[r] = sum_j expf(x[r][j])             Verifier: EQUIVALENT to exp_sum_ref.
// Launch: block (4, 1, 1), grid (1, 1, 1).
// PTX: both loops are unrolled by 4 inside a 8-trip loop. In exp_fused each expf is the accurate
// sequence ending in `mul.f32 e, p, scale`, and the consumer is `fma.rn.f32 acc, e, v, acc`
// (the product with v is what gets fused). In exp_sum the `p * scale` multiply itself is fused
// into the accumulation: `ex2.approx.ftz.f32 p, f; fma.rn.f32 acc, p, scale, acc` (domain.md §3).
#define ROWS 4
#define COLS 32

extern "C" __global__ void exp_fused(const float* x, const float* v, float* out) {
  int r = threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < COLS; ++j) acc += expf(x[r * COLS + j]) * v[r * COLS + j];
  out[r] = acc;
}

extern "C" __global__ void exp_sum(const float* x, float* out) {
  int r = threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < COLS; ++j) acc += expf(x[r * COLS + j]);
  out[r] = acc;
}
