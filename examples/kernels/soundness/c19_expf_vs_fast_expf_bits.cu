// c19_expf_vs_fast_expf_bits (19-float-bits-modifiers): expected NOT_EQUIVALENT: expf and __expf lift to one exp(a) over the reals, but their f32 bits differ (a = 10).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_expf_vs_fast_expf_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(expf(a[i]));
}
extern "C" __global__ void c19_expf_vs_fast_expf_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(__expf(a[i]));
}
