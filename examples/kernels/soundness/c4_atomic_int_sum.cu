// c4_atomic_int_sum (4-atomic-returns): expected EQUIVALENT: integer atomicAdd of every a[i] into a zeroed output is the serial sum modulo 2^32.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 1 x s32 (zero). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_atomic_int_sum_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  atomicAdd(&out[0], a[i]);
}
extern "C" __global__ void c4_atomic_int_sum_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  if (i == 0) { int s = 0; for (int k = 0; k < 32; ++k) s += a[k]; out[0] = s; }
}
