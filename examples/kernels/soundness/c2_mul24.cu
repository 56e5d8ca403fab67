// c2_mul24 (2-integer-wrap): expected NOT_EQUIVALENT: mul24 uses the low 24 bits: a=2^24, b=1 gives 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_mul24_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __mul24(a[i], b[i]);
}
extern "C" __global__ void c2_mul24_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] * b[i];
}
