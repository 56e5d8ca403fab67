// tanhf as nvcc emits it (copysign around ex2.approx / rcp.approx above |x| >= 0.6, an odd
// polynomial below) against tanh.approx.f32 (tanhf under -use_fast_math, inline here).
extern "C" __global__ void tanh_approx(const float* in, float* out) {
  int i = threadIdx.x;
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(in[i]));
  out[i] = y;
}
extern "C" __global__ void tanh_accurate(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = tanhf(in[i]);
}
