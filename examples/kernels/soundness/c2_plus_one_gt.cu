// c2_plus_one_gt (2-integer-wrap): expected NOT_EQUIVALENT: (int)(a+1u) > a is false at a=INT_MAX.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_plus_one_gt_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)((unsigned)a[i] + 1u) > a[i] ? 1 : 0;
}
extern "C" __global__ void c2_plus_one_gt_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 1;
}
