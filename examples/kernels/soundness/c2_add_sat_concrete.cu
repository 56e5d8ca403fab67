// c2_add_sat_concrete (2-integer-wrap): expected NOT_EQUIVALENT: add.sat.s32 clamps: 0x7fffffff + 1 is 0x7fffffff, the wrapping add gives INT_MIN (concrete values).
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_add_sat_concrete_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(0x7fffffff), "r"((int)i)); out[i] = r;
}
extern "C" __global__ void c2_add_sat_concrete_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r; asm volatile("add.s32 %0, %1, %2;" : "=r"(r) : "r"(0x7fffffff), "r"((int)i)); out[i] = r;
}
