// nvcc's accurate logf sequence written out in inline PTX (as in log.ptx), once exactly and
// with one constant changed: the changed ones compute something else and must never be lifted
// to log (against log_approx: never EQUIVALENT).
#define LOGF(OFFSET, C0, LN2, BIAS)                                                            \
  asm("{\n"                                                                                  \
      ".reg .pred sub, fin, zero;\n"                                                         \
      ".reg .f32 f, s, k, m, e, t, p, q, r;\n"                                               \
      ".reg .b32 b, u, v, w;\n"                                                              \
      "setp.lt.f32 sub, %1, 0f00800000;\n"                                                   \
      "mul.f32 s, %1, 0f4B000000;\n"                                                         \
      "selp.f32 f, s, %1, sub;\n"                                                            \
      "selp.f32 k, " BIAS ", 0f00000000, sub;\n"                                             \
      "mov.b32 b, f;\n"                                                                      \
      "add.s32 u, b, " OFFSET ";\n"                                                          \
      "and.b32 v, u, -8388608;\n"                                                            \
      "sub.s32 w, b, v;\n"                                                                   \
      "mov.b32 m, w;\n"                                                                      \
      "cvt.rn.f32.s32 e, v;\n"                                                               \
      "fma.rn.f32 e, e, 0f34000000, k;\n"                                                    \
      "add.f32 t, m, 0fBF800000;\n"                                                          \
      "fma.rn.f32 p, " C0 ", t, 0f3E1039F6;\n"                                               \
      "fma.rn.f32 p, p, t, 0fBDF8CDCC;\n"                                                    \
      "fma.rn.f32 p, p, t, 0f3E0F2955;\n"                                                    \
      "fma.rn.f32 p, p, t, 0fBE2AD8B9;\n"                                                    \
      "fma.rn.f32 p, p, t, 0f3E4CED0B;\n"                                                    \
      "fma.rn.f32 p, p, t, 0fBE7FFF22;\n"                                                    \
      "fma.rn.f32 p, p, t, 0f3EAAAA78;\n"                                                    \
      "fma.rn.f32 p, p, t, 0fBF000000;\n"                                                    \
      "mul.f32 q, t, p;\n"                                                                   \
      "fma.rn.f32 q, q, t, t;\n"                                                             \
      "fma.rn.f32 r, e, " LN2 ", q;\n"                                                       \
      "setp.lt.u32 fin, b, 2139095040;\n"                                                    \
      "@fin bra DONE;\n"                                                                     \
      "fma.rn.f32 r, f, 0f7F800000, 0f7F800000;\n"                                           \
      "DONE:\n"                                                                              \
      "setp.eq.f32 zero, f, 0f00000000;\n"                                                   \
      "selp.f32 %0, 0fFF800000, r, zero;\n"                                                  \
      "}"                                                                                    \
      : "=f"(y)                                                                              \
      : "f"(x))

extern "C" __global__ void log_inline(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  LOGF("-1059760811", "0fBE055027", "0f3F317218", "0fC1B80000");
  out[threadIdx.x] = y;
}
// The split of the mantissa one unit off (the reduction no longer lands in [2/3, 4/3)).
extern "C" __global__ void log_wrong_offset(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  LOGF("-1059760812", "0fBE055027", "0f3F317218", "0fC1B80000");
  out[threadIdx.x] = y;
}
// The leading polynomial coefficient one ulp off.
extern "C" __global__ void log_wrong_poly(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  LOGF("-1059760811", "0fBE055028", "0f3F317218", "0fC1B80000");
  out[threadIdx.x] = y;
}
// log2(e) where ln 2 belongs.
extern "C" __global__ void log_wrong_ln2(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  LOGF("-1059760811", "0fBE055027", "0f3FB8AA3B", "0fC1B80000");
  out[threadIdx.x] = y;
}
// The subnormal exponent bias -22 instead of -23.
extern "C" __global__ void log_wrong_bias(const float* in, float* out) {
  float x = in[threadIdx.x], y;
  LOGF("-1059760811", "0fBE055027", "0f3F317218", "0fC1B00000");
  out[threadIdx.x] = y;
}
// __logf with log2(e) where ln 2 belongs: lg2(x) * log2(e) is not log(x).
extern "C" __global__ void log_fast_wrong(const float* in, float* out) {
  int i = threadIdx.x;
  float y;
  asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(in[i]));
  out[i] = y * 1.44269502f;
}
