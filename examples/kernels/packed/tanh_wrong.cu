// nvcc's accurate tanhf sequence written out in inline PTX (as in tanh.ptx), once exactly and
// with one constant changed: the changed ones compute something else and must never be lifted
// to tanh (against tanh_approx: never EQUIVALENT).
#define TANHF(SMALL, TWO_LOG2E, ONE_AT, C2)                                                    \
  asm("{\n"                                                                                  \
      ".reg .f32 a, t, e, d, r, q, c, s, p;\n"                                               \
      ".reg .pred big, sat;\n"                                                               \
      "abs.f32 a, %1;\n"                                                                     \
      "mul.f32 t, a, " TWO_LOG2E ";\n"                                                       \
      "ex2.approx.ftz.f32 e, t;\n"                                                           \
      "add.f32 d, e, 0f3F800000;\n"                                                          \
      "rcp.approx.ftz.f32 r, d;\n"                                                           \
      "fma.rn.f32 q, r, 0fC0000000, 0f3F800000;\n"                                           \
      "setp.ge.f32 sat, a, " ONE_AT ";\n"                                                    \
      "selp.f32 q, 0f3F800000, q, sat;\n"                                                    \
      "copysign.f32 c, %1, q;\n"                                                             \
      "mul.f32 s, %1, %1;\n"                                                                 \
      "fma.rn.f32 p, 0f3C80F082, s, 0fBD563CAE;\n"                                           \
      "fma.rn.f32 p, p, s, " C2 ";\n"                                                        \
      "fma.rn.f32 p, p, s, 0fBEAAA9ED;\n"                                                    \
      "fma.rn.f32 p, p, s, 0f00000000;\n"                                                    \
      "fma.rn.f32 p, p, %1, %1;\n"                                                           \
      "setp.ge.f32 big, a, " SMALL ";\n"                                                     \
      "selp.f32 %0, c, p, big;\n"                                                            \
      "}"                                                                                    \
      : "=f"(y)                                                                              \
      : "f"(x))

extern "C" __global__ void tanh_inline(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  TANHF("0f3F19999A", "0f4038AA3B", "0f41102CB4", "0f3E085941");
  out[threadIdx.x] = y;
}
// The polynomial's middle coefficient one ulp off.
extern "C" __global__ void tanh_wrong_poly(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  TANHF("0f3F19999A", "0f4038AA3B", "0f41102CB4", "0f3E085942");
  out[threadIdx.x] = y;
}
// The switch to the exponential form at 0.5 instead of 0.6.
extern "C" __global__ void tanh_wrong_threshold(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  TANHF("0f3F000000", "0f4038AA3B", "0f41102CB4", "0f3E085941");
  out[threadIdx.x] = y;
}
// e^|x| instead of e^(2|x|): log2(e) where 2 log2(e) belongs.
extern "C" __global__ void tanh_wrong_scale(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  TANHF("0f3F19999A", "0f3FB8AA3B", "0f41102CB4", "0f3E085941");
  out[threadIdx.x] = y;
}
// The saturation to 1 from |x| >= 1 instead of ~9.01.
extern "C" __global__ void tanh_wrong_clamp(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  TANHF("0f3F19999A", "0f4038AA3B", "0f3F800000", "0f3E085941");
  out[threadIdx.x] = y;
}
