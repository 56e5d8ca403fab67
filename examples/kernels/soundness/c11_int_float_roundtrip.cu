// c11_int_float_roundtrip (11-float-bits): expected NOT_EQUIVALENT: (int)(float)a rounds: a=16777217 gives 16777216 (cvt.rn.f32.s32 is not exact).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c11_int_float_roundtrip_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = (int)(float)a[i];
}
extern "C" __global__ void c11_int_float_roundtrip_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
