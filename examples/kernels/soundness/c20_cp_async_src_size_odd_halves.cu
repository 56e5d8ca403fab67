// c20_cp_async_src_size_odd_halves (20-memory-formats): expected NOT_EQUIVALENT: a src-size of 6 bytes copies three f16 halves and zero-fills the rest; the reference keeps two, so half 2 of every slot differs (a copy that drops the third half, as when src-size was read by 4-byte words, is the reference).
// Launch: 1 CTA of 32 threads; a: 256 x f16 input; out: 256 x f16. Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c20_cp_async_src_size_odd_halves_ref(const __half* a, __half* out) {
  unsigned t = threadIdx.x;
  for (unsigned k = 0; k < 8; ++k)
    out[8 * t + k] = k < 2 ? a[8 * t + k] : __float2half(0.0f);
}
extern "C" __global__ void c20_cp_async_src_size_odd_halves_opt(const __half* a, __half* out) {
  unsigned t = threadIdx.x;
  __shared__ __align__(16) __half s[256];
  unsigned slot = static_cast<unsigned>(__cvta_generic_to_shared(&s[8 * t]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, 6;\n" ::"r"(slot), "l"(&a[8 * t]));
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  for (unsigned k = 0; k < 8; ++k)
    out[8 * t + k] = s[8 * t + k];
}
