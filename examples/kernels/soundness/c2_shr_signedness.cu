// c2_shr_signedness (2-integer-wrap): expected NOT_EQUIVALENT: a=-2: shr.s32 gives -1, shr.u32 gives 0x7fffffff.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_shr_signedness_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] >> 1;
}
extern "C" __global__ void c2_shr_signedness_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)((unsigned)a[i] >> 1);
}
