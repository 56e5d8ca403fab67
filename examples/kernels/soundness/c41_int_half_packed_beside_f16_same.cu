// c41_int_half_packed_beside_f16_same (41-views): expected EQUIVALENT: out is f16; the optimized kernel selects the integer bits 0x3C00 or 0x4000 (f16 1 or 2) by a[i] > 0, packs them beside the f16 a[i] + a[i] (mov.b32 {bits, 2a}), unpacks and adds the halves as f16: 2a[i] + 1 or 2a[i] + 2; the reference adds 1 or 2: the same f16 values, so the integer half read as f16 is its bits (the positive beside c41_int_half_packed_beside_f16).
// Launch: 1 CTA of 32 threads; a: 32 x f16 input; out: 32 x f16. Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c41_int_half_packed_beside_f16_same_ref(const __half* a, __half* out) {
  unsigned i = threadIdx.x;
  __half x = a[i];
  out[i] = __hadd(__hadd(x, x), __half2float(x) > 0.0f ? __float2half(1.0f) : __float2half(2.0f));
}
extern "C" __global__ void c41_int_half_packed_beside_f16_same_opt(const __half* a, __half* out) {
  unsigned i = threadIdx.x;
  __half x = a[i];
  unsigned short bits = __half2float(x) > 0.0f ? 0x3C00 : 0x4000;
  unsigned short sum;
  asm("{\n\t.reg .b32 r;\n\t.reg .b16 lo, hi;\n\tmov.b32 r, {%1, %2};\n\tmov.b32 {lo, hi}, r;\n\t"
      "add.rn.f16 %0, lo, hi;\n\t}"
      : "=h"(sum)
      : "h"(bits), "h"(__half_as_ushort(__hadd(x, x))));
  out[i] = __ushort_as_half(sum);
}
