// Soundness category 47: a difference is a counterexample only where the reference is defined.
// The reference divides by x[0] in out[0]; wherever x[0] == 0 it is undefined, and the optimized
// kernel may store anything there (docs/semantics.md, "Domains"). Before, a point with x[0] == 0
// (every unlisted input 0) was reported as a counterexample to out[1].
extern "C" __global__ void c47_ref(const float* x, const float* y, float* out) {
  out[0] = 1.0f / x[0];
  out[1] = y[0];
}

// Differs from the reference only where x[0] == 0: EQUIVALENT (UNKNOWN is sound), never
// NOT_EQUIVALENT.
extern "C" __global__ void c47_differs_where_undefined(const float* x, const float* y, float* out) {
  out[0] = 1.0f / x[0];
  out[1] = (x[0] == 0.0f) ? y[0] + 1.0f : y[0];
}

// The same through a product with the test's 0/1 value.
extern "C" __global__ void c47_product_where_undefined(const float* x, const float* y, float* out) {
  out[0] = 1.0f / x[0];
  out[1] = y[0] + (x[0] == 0.0f ? 1.0f : 0.0f) * y[0];
}

// A real difference: NOT_EQUIVALENT, at a point where x[0] != 0.
extern "C" __global__ void c47_differs_everywhere(const float* x, const float* y, float* out) {
  out[0] = 1.0f / x[0];
  out[1] = y[0] + 1.0f;
}

// Per thread: the reference divides by x[0] only. Thread 0's element is proved where the
// reference is defined (x[0] != 0), but that proof is no template for the other threads: x[k]
// may be 0 where the reference is defined, and there the kernels differ (NOT_EQUIVALENT).
extern "C" __global__ void c47_ref_per_thread(const float* x, const float* y, float* out,
                                              float* inv) {
  const int t = threadIdx.x;
  out[t] = y[t];
  if (t == 0)
    inv[0] = 1.0f / x[0];
}
extern "C" __global__ void c47_per_thread_where_undefined(const float* x, const float* y,
                                                          float* out, float* inv) {
  const int t = threadIdx.x;
  out[t] = (x[t] == 0.0f) ? y[t] + 1.0f : y[t];
  if (t == 0)
    inv[0] = 1.0f / x[0];
}

// Constants that differ: NOT_EQUIVALENT on every input where the reference is defined, shown at
// one (x[0] != 0).
extern "C" __global__ void c47_ref_constant(const float* x, const float* y, float* out) {
  out[0] = 1.0f / x[0];
  out[1] = 1.0f;
}
extern "C" __global__ void c47_other_constant(const float* x, const float* y, float* out) {
  out[0] = 1.0f / x[0];
  out[1] = 2.0f;
}
// A reference defined on no input (it divides by x[0] - x[0]) proves nothing, and is refuted by
// nothing: UNKNOWN, not NOT_EQUIVALENT on the differing constants.
extern "C" __global__ void c47_ref_defined_nowhere(const float* x, const float* y, float* out) {
  const float zero = x[0] - x[0];
  out[0] = 1.0f / zero;
  out[1] = 1.0f;
}
