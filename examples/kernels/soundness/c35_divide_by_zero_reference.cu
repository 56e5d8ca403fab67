// c35_divide_by_zero_reference (35-vacuous): expected UNKNOWN. The reference computes
// a + q - q with q = a / 0, a division by the constant 0 on every input: it is defined on no
// input (over the reals a division by 0 is undefined; on a GPU q is ±inf or NaN and so is the
// result). Over the reals a + q - q = a, and the contract (the reference is the specification)
// would make any optimized kernel EQUIVALENT to it; this one stores a, which differs from what a
// GPU stores. Nothing is proved: the answer is UNKNOWN, naming the division. Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float (out).
// Part of examples/soundness/manifest.json.
extern "C" __global__ void c35_divide_by_zero_reference_ref(float* out, const float* a) {
  unsigned t = threadIdx.x;
  float q = a[t] / 0.0f;
  out[t] = a[t] + q - q;
}
extern "C" __global__ void c35_divide_by_zero_reference_opt(float* out, const float* a) {
  unsigned t = threadIdx.x;
  out[t] = a[t];
}
