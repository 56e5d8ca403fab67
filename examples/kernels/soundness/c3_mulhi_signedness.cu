// c3_mulhi_signedness (3-opaque-ops): expected NOT_EQUIVALENT: a=-1, b=1: mul.hi.s32 = -1, mul.hi.u32 = 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_mulhi_signedness_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __mulhi(a[i], b[i]);
}
extern "C" __global__ void c3_mulhi_signedness_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)__umulhi((unsigned)a[i], (unsigned)b[i]);
}
