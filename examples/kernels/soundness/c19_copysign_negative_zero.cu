// c19_copysign_negative_zero (19-float-bits-modifiers): expected NOT_EQUIVALENT: copysignf(1, a) reads the sign bit of a: at a = -0.0 it is -1, where a < 0 ? -1 : 1 gives 1 (reals have one zero, the device two).
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_copysign_negative_zero_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = copysignf(1.0f, a[i]);
}
extern "C" __global__ void c19_copysign_negative_zero_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i] < 0.0f ? -1.0f : 1.0f;
}
