// c2_max_not_translation_invariant (2-integer-wrap): expected NOT_EQUIVALENT: max(a,b)+c = max(a+c,b+c) fails under wrap-around: a=INT_MAX, b=0, c=1.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_max_not_translation_invariant_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)((unsigned)max(a[i], b[i]) + (unsigned)a[i ^ 1]);
}
extern "C" __global__ void c2_max_not_translation_invariant_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = max((int)((unsigned)a[i] + (unsigned)a[i ^ 1]), (int)((unsigned)b[i] + (unsigned)a[i ^ 1]));
}
