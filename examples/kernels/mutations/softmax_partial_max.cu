// softmax_partial_max — an EQUIVALENT mutant of softmax/softmax_three_pass: the max pass starts
// at j = 1, so m is the maximum of x[1..63] only. Softmax is invariant under any common shift
// of its inputs, exp(x_j - m) / sum_k exp(x_k - m) = exp(x_j) / sum_k exp(x_k) for every finite
// m, so this "bug" only changes the floating-point overflow behaviour, not the real value.
// Launch: block (8, 1, 1), grid (1, 1, 1), as the base.
// Verifier: EQUIVALENT to softmax_three_pass (a checker that says NOT_EQUIVALENT here is unsound
// in the other direction: no counterexample exists over the reals).
#define ROWS 8
#define COLS 64

extern "C" __global__ void softmax_partial_max(const float* x, float* y) {
  int row = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;

  float m = -INFINITY;
  for (int j = 1; j < COLS; ++j) m = fmaxf(m, xr[j]);  // "BUG": j = 1

  float s = 0.0f;
  for (int j = 0; j < COLS; ++j) s += expf(xr[j] - m);

  for (int j = 0; j < COLS; ++j) yr[j] = expf(xr[j] - m) / s;
}
