// c2_narrow_sum_s16 (2-integer-wrap): expected NOT_EQUIVALENT: cvt.s32.s16 of a register keeps 16 bits: a=65535, b=1 gives 0, not 65536.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_narrow_sum_s16_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)(short)(a[i] + b[i]);
}
extern "C" __global__ void c2_narrow_sum_s16_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] + b[i];
}
