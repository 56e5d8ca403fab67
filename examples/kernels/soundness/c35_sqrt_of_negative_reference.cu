// c35_sqrt_of_negative_reference (35-vacuous): expected UNKNOWN. The reference computes
// a + s - s with s the square root of -1 - a², which is negative on every input: it is defined on
// no input (a GPU stores NaN). Over the reals it is a, and any optimized kernel would be
// EQUIVALENT to it under the contract; this one stores a. Nothing is proved: UNKNOWN, naming the
// square root.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float (out).
// Part of examples/soundness/manifest.json.
extern "C" __global__ void c35_sqrt_of_negative_reference_ref(float* out, const float* a) {
  unsigned t = threadIdx.x;
  float x = a[t];
  float s = sqrtf(-1.0f - x * x);
  out[t] = x + s - s;
}
extern "C" __global__ void c35_sqrt_of_negative_reference_opt(float* out, const float* a) {
  unsigned t = threadIdx.x;
  out[t] = a[t];
}
