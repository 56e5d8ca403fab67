// volta-nvcc-flags: -use_fast_math
// gelu_tanh — GELU in its tanh form, 0.5 x (1 + tanh(k (x + 0.044715 x^3))), one element per
// thread; with -use_fast_math tanhf is tanh.approx.f32.
// Launch: block (8, 1, 1), grid (1, 1, 1); x and y have 8 elements.
extern "C" __global__ void gelu_tanh(const float* x, float* y) {
  int i = threadIdx.x;
  float v = x[i];
  float u = 0.7978845608f * (v + 0.044715f * v * v * v);
  y[i] = 0.5f * v * (1.0f + tanhf(u));
}
