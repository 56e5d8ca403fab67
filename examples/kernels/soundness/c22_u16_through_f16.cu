// c22_u16_through_f16 (22-crosscheck): expected NOT_EQUIVALENT: the optimized kernel converts a[i] to f16 first, which is infinite from 65520 on (and rounds above 2048).
// Launch: 1 CTA of 32 threads; a: 32 x u16 input, b: unused; out: 32 x f32. Part of examples/soundness/manifest.json; the emulator cross-check's own tests run it on 65535 (tests/emulate/cross_check_run_test.cpp).
#include <cuda_fp16.h>
extern "C" __global__ void c22_u16_through_f16_ref(const unsigned short* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (float)a[i];
}
extern "C" __global__ void c22_u16_through_f16_opt(const unsigned short* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __half2float(__ushort2half_rn(a[i]));
}
