// exp_accurate: out[i] = expf(in[i]), 32 threads, compiled WITHOUT fast math.
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: EQUIVALENT to exp_ref (lifting the accurate-expf idiom to exp(x)).
// PTX: the range reduction of domain.md §3 (nvcc 13.0, sm_80), constants first moved into
// registers, no branch and no special-casing of large |x|:
//   fma.rn.f32 t, x, 0f3BBB989D, 0f3F000000     // x * log2(e)/252 + 0.5
//   cvt.sat.f32.f32 s, t
//   fma.rm.f32 j, s, 0f437C0000, 0f4B400001     // 252 s + 2^23 + 2^22 + 1, rounded down
//   add.f32 k, j, 0fCB40007F; neg.f32 nk, k     // integer part n = j - (2^23 + 2^22 + 127)
//   fma.rn.f32 f, x, 0f3FB8AA3B, nk             // x * log2(e) - n (hi part)
//   fma.rn.f32 f, x, 0f32A57060, f              // + x * (log2(e) lo part)
//   mov.b32 b, j; shl.b32 b, b, 23; mov.b32 scale, b  // 2^n from the bits of j
//   ex2.approx.ftz.f32 p, f
//   mul.f32 r, p, scale                          // exp(x) = 2^f * 2^n
extern "C" __global__ void exp_accurate(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = expf(in[i]);
}
