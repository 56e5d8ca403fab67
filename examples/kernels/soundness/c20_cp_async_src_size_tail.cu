// c20_cp_async_src_size_tail (20-memory-formats): expected EQUIVALENT: thread t copies its first t % 9 halves with a src-size of 2 * (t % 9) bytes and cp.async zero-fills the rest of its 16 bytes, which is the reference's loop (a tail copy as CUTLASS's predicated iterators make).
// Launch: 1 CTA of 32 threads; a: 256 x f16 input; out: 256 x f16. Part of examples/soundness/manifest.json.
#include <cuda_fp16.h>
extern "C" __global__ void c20_cp_async_src_size_tail_ref(const __half* a, __half* out) {
  unsigned t = threadIdx.x;
  unsigned n = t % 9;
  for (unsigned k = 0; k < 8; ++k)
    out[8 * t + k] = k < n ? a[8 * t + k] : __float2half(0.0f);
}
extern "C" __global__ void c20_cp_async_src_size_tail_opt(const __half* a, __half* out) {
  unsigned t = threadIdx.x;
  __shared__ __align__(16) __half s[256];
  unsigned slot = static_cast<unsigned>(__cvta_generic_to_shared(&s[8 * t]));
  unsigned bytes = 2 * (t % 9);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(slot), "l"(&a[8 * t]),
               "r"(bytes));
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  reinterpret_cast<uint4*>(out)[t] = reinterpret_cast<const uint4*>(s)[t];
}
