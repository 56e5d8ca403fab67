// c2_narrow_s16 (2-integer-wrap): expected NOT_EQUIVALENT: cvt.s32.s16 keeps 16 bits: a=65536 gives 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_narrow_s16_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)(short)a[i];
}
extern "C" __global__ void c2_narrow_s16_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
