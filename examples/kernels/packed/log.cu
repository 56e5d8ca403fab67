// logf as nvcc emits it (subnormal scaling, a bit-level range reduction to [2/3, 4/3), an
// odd-degree polynomial, the exponent times ln 2, and the +inf / 0 special cases) against
// lg2.approx.f32 times ln 2 (logf under -use_fast_math, inline here).
extern "C" __global__ void log_approx(const float* in, float* out) {
  int i = threadIdx.x;
  float y;
  asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(in[i]));
  out[i] = y * 0.693147182f;
}
extern "C" __global__ void log_accurate(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = logf(in[i]);
}
