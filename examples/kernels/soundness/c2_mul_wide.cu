// c2_mul_wide (2-integer-wrap): expected NOT_EQUIVALENT: a=b=65536: mul.wide gives 2^32, mul.lo gives 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s64 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_mul_wide_ref(const int* a, const int* b, long long* out) {
  unsigned i = threadIdx.x;
  out[i] = (long long)a[i] * (long long)b[i];
}
extern "C" __global__ void c2_mul_wide_opt(const int* a, const int* b, long long* out) {
  unsigned i = threadIdx.x;
  out[i] = (long long)(int)((unsigned)a[i] * (unsigned)b[i]);
}
