// c4_exch_final_value (4-atomic-returns): expected NOT_EQUIVALENT: the value left by 32 atomicExch is the last exchanger's, schedule-dependent; 31 is thread order.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 1 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c4_exch_final_value_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  __shared__ unsigned s; if (i == 0) s = 0; __syncthreads(); atomicExch(&s, i); __syncthreads(); if (i == 0) out[0] = s;
}
extern "C" __global__ void c4_exch_final_value_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  if (i == 0) out[0] = 31u;
}
