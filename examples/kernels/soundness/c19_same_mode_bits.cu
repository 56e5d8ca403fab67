// c19_same_mode_bits (19-float-bits-modifiers): expected EQUIVALENT: both kernels compute __fadd_rz(a, b): the same IEEE operation, the same bits.
// A correct tool must decide it: EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; b: 32 x f32 input; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c19_same_mode_bits_ref(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __float_as_int(__fadd_rz(a[i], b[i]));
}
extern "C" __global__ void c19_same_mode_bits_opt(const float* a, const float* b, int* out) {
  unsigned i = threadIdx.x;
  float s = __fadd_rz(a[i], b[i]); int r = __float_as_int(s); out[i] = r;
}
