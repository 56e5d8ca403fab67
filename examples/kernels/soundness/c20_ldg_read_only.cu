// c20_ldg_read_only (20-memory-formats): expected RACE_FREE: __ldg of an input array and of the elements of an inout array the kernel never writes is what the non-coherent path is for.
// Launch: 1 CTA of 32 threads; a: 32 x float input; x: 64 x float (inout); out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c20_ldg_read_only(const float* __restrict__ a, float* x, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __ldg(&a[i]) + __ldg(&x[32 + (i ^ 1)]);
  x[i] = 0.0f;
}
