// exp_pair: out[i] = expf(x[i]) * expf(y[i]), accurate expf (no fast math), 32 threads.
// Base of the mutation mutations/exp_pair_mul (expf(x * y)).
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: EQUIVALENT to exp_pair_ref (exp(x) * exp(y) = exp(x + y)).
// PTX: two accurate-expf sequences (domain.md §3, each ending in `mul.f32 p*scale`) sharing
// their constant registers, then `mul.f32 out, e1, e2`.
extern "C" __global__ void exp_pair(const float* x, const float* y, float* out) {
  int i = threadIdx.x;
  out[i] = expf(x[i]) * expf(y[i]);
}
