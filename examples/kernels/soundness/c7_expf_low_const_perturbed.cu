// c7_expf_low_const_perturbed (7-expf-idiom): expected NOT_EQUIVALENT: the low part of log2(e) is 0f32A57061 instead of 0f32A57060: not exp(a) over the reals.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c7_expf_low_const_perturbed_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = expf(a[i]);
}
extern "C" __global__ void c7_expf_low_const_perturbed_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  float r; asm volatile("{ .reg .f32 t, s, s0, j, k, nk, f, g, p, sc; .reg .b32 bj, bs;\n\t"
    "fma.rn.f32 t, %1, 0f3BBB989D, 0f3F000000;\n\t"
    "cvt.sat.f32.f32 s, t;\n\t"
    "fma.rm.f32 j, s, 0f437C0000, 0f4B400001;\n\t"
    "add.f32 k, j, 0fCB40007F;\n\t"
    "neg.f32 nk, k;\n\t"
    "fma.rn.f32 f, %1, 0f3FB8AA3B, nk;\n\t"
    "fma.rn.f32 g, %1, 0f32A57061, f;\n\t"
    "mov.b32 bj, j;\n\tshl.b32 bs, bj, 23;\n\tmov.b32 sc, bs;\n\t"
    "ex2.approx.ftz.f32 p, g;\n\tmul.f32 %0, p, sc;\n\t}" : "=f"(r) : "f"(a[i]));
  out[i] = r;
}
