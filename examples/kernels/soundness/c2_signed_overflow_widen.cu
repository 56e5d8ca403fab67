// c2_signed_overflow_widen (2-integer-wrap): expected NOT_EQUIVALENT: a=b=INT_MAX: the 64-bit sum is 2^32-2, the 32-bit sum wraps to -2.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s64 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_signed_overflow_widen_ref(const int* a, const int* b, long long* out) {
  unsigned i = threadIdx.x;
  out[i] = (long long)a[i] + (long long)b[i];
}
extern "C" __global__ void c2_signed_overflow_widen_opt(const int* a, const int* b, long long* out) {
  unsigned i = threadIdx.x;
  out[i] = (long long)(int)((unsigned)a[i] + (unsigned)b[i]);
}
