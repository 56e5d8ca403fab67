// c3_mad_hi_sat (3-opaque-ops): expected NOT_EQUIVALENT: mad.hi.sat.s32 saturates the sum where mad.hi.s32 wraps (hi(a*b) + b past 2^31 - 1); the engine ran it as mad.hi.s32 and answered EQUIVALENT.
// A correct but incomplete tool may answer UNSUPPORTED instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_mad_hi_sat_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r;
  asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a[i]), "r"(b[i]), "r"(b[i]));
  out[i] = r;
}
extern "C" __global__ void c3_mad_hi_sat_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r;
  asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a[i]), "r"(b[i]), "r"(b[i]));
  out[i] = r;
}
