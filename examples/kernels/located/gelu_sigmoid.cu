// volta-nvcc-flags: -use_fast_math
// gelu_sigmoid — GELU in its sigmoid form, x / (1 + exp(-2 k (x + 0.044715 x^3))): equal to the
// tanh form over the reals (0.5 (1 + tanh(u)) = 1 / (1 + exp(-2u))), which no shipped rule says.
// Launch: block (8, 1, 1), grid (1, 1, 1), as gelu_tanh.
// Verifier: UNKNOWN against gelu_tanh with a small budget, naming the undecided subterms and a
// rule of their shape; EQUIVALENT with that rule (tests/cli/located_findings_test.cpp).
extern "C" __global__ void gelu_sigmoid(const float* x, float* y) {
  int i = threadIdx.x;
  float v = x[i];
  float u = 0.7978845608f * (v + 0.044715f * v * v * v);
  y[i] = v / (1.0f + __expf(-2.0f * u));
}
