// c20_ldg_inplace_pair (20-memory-formats): expected DATA_RACE: the optimized kernel reads x through __ldg (ld.global.nc) and writes it in place; a plain load would be equivalent to the reference, the non-coherent one is undefined and must never be proved EQUIVALENT.
// Launch: 1 CTA of 32 threads; x: 32 x float (inout). Part of examples/soundness/manifest.json.
extern "C" __global__ void c20_ldg_inplace_pair_ref(float* x) {
  unsigned i = threadIdx.x;
  x[i] = x[i] * 2.0f;
}
extern "C" __global__ void c20_ldg_inplace_pair_opt(float* x) {
  unsigned i = threadIdx.x;
  x[i] = __ldg(&x[i]) * 2.0f;
}
