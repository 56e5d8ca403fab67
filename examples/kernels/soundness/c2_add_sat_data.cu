// c2_add_sat_data (2-integer-wrap): expected NOT_EQUIVALENT: add.sat.s32 on data: a=INT_MAX, b=1.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_add_sat_data_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a[i]), "r"(b[i])); out[i] = r;
}
extern "C" __global__ void c2_add_sat_data_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)((unsigned)a[i] + (unsigned)b[i]);
}
