// exp_pair_mul — mutation of idioms/exp_pair (wrong exp law): expf(x[i] * y[i]) instead of
// expf(x[i]) * expf(y[i]) (= exp(x + y)).
// Launch: block (32, 1, 1), grid (1, 1, 1), as the base.
// Verifier: NOT_EQUIVALENT to exp_pair (e.g. x = y = 1: e vs e^2).
extern "C" __global__ void exp_pair_mul(const float* x, const float* y, float* out) {
  int i = threadIdx.x;
  out[i] = expf(x[i] * y[i]);  // BUG: exp(a*b)
}
