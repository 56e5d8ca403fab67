// exp2: base-2 exponentials, no fast math.
//   exp2_log2e    out[i] = exp2f(in[i] * log2(e))   (the FlashAttention-2 habit of folding
//                 log2(e) into the scale). Verifier: EQUIVALENT to exp_ref: the PTX is exactly
//                 the __expf idiom (multiply by 0f3FB8AA3B, ex2.approx.ftz), which domain.md §3
//                 reads as exp(x) although 0f3FB8AA3B is log2(e) rounded to f32.
//   exp2_product  out[i] = exp2f(x[i]) * exp2f(y[i]). Verifier: EQUIVALENT to exp2_ref
//                 (2^x * 2^y = 2^(x+y)).
// Launch: block (32, 1, 1), grid (1, 1, 1).
// PTX: exp2_log2e is `mul.f32 t, x, 0f3FB8AA3B; ex2.approx.f32 y, t` (byte for byte the
// exp_fast body); exp2_product is two bare `ex2.approx.f32` and a `mul.f32`. Without fast math
// exp2f is `ex2.approx.f32` (not .ftz, unlike the ex2 inside accurate expf).
#define LOG2E 1.4426950408889634f

extern "C" __global__ void exp2_log2e(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = exp2f(in[i] * LOG2E);
}

extern "C" __global__ void exp2_product(const float* x, const float* y, float* out) {
  int i = threadIdx.x;
  out[i] = exp2f(x[i]) * exp2f(y[i]);
}
