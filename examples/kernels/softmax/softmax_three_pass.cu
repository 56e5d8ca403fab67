// softmax_three_pass: row-wise softmax of an 8 x 64 matrix, one thread per row.
//   pass 1: m = max_j x[j]            (starting from -INFINITY)
//   pass 2: s = sum_j expf(x[j] - m)
//   pass 3: y[j] = expf(x[j] - m) / s
// Accurate expf (no fast math): nvcc emits the range-reduction sequence of domain.md §3 twice
// per element (passes 2 and 3), with the final `p * scale` multiply of pass 2 fused into the
// running sum's fma.
//
// Launch: block (8, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE; EQUIVALENT to softmax_online over the reals.
#define ROWS 8
#define COLS 64

extern "C" __global__ void softmax_three_pass(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;

  float m = -INFINITY;
  for (int j = 0; j < COLS; ++j) m = fmaxf(m, xr[j]);

  float s = 0.0f;
  for (int j = 0; j < COLS; ++j) s += expf(xr[j] - m);

  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / s;
}
