// c2_cvt_sat_u8 (2-integer-wrap): expected NOT_EQUIVALENT: a=256: truncation to u8 gives 0, cvt.sat.u8 gives 255.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_cvt_sat_u8_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = (unsigned char)a[i];
}
extern "C" __global__ void c2_cvt_sat_u8_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned short r; asm volatile("cvt.sat.u8.u32 %0, %1;" : "=h"(r) : "r"(a[i])); out[i] = r;
}
