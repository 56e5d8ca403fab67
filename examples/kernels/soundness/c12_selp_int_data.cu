// c12_selp_int_data (12-select-sign): expected NOT_EQUIVALENT: signed select a < b ? a : b vs unsigned min: a=-1, b=0.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c12_selp_int_data_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("{ .reg .pred p; setp.lt.s32 p, %1, %2; selp.b32 %0, %1, %2, p; }" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
extern "C" __global__ void c12_selp_int_data_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("min.u32 %0, %1, %2;" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
