// c9_int_copy_twice (9-proof-cache): expected EQUIVALENT: an integer copied to an s32 output, directly or through a mov (fills the cache for the next entry).
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c9_int_copy_twice_ref(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  ((int*)out)[i] = a[i];
}
extern "C" __global__ void c9_int_copy_twice_opt(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("mov.b32 %0, %1;" : "=r"(r) : "r"(a[i])); ((int*)out)[i] = r;
}
