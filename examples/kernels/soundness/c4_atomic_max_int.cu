// c4_atomic_max_int (4-atomic-returns): expected EQUIVALENT: atomicMax of every a[i] into out is the serial max (order-independent).
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 1 x s32 (inout). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_atomic_max_int_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  atomicMax(&out[0], a[i]);
}
extern "C" __global__ void c4_atomic_max_int_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  if (i == 0) { int m = out[0]; for (int k = 0; k < 32; ++k) m = max(m, a[k]); out[0] = m; }
}
