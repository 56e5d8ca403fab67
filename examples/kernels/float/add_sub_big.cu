// y = (x + 1e20f) - 1e20f: equal to x over the reals (EQUIVALENT to copy_ref), but in float x is
// absorbed by 1e20f and the subtraction cancels catastrophically: every y is 0. The measured
// float divergence flags it (docs/semantics.md, "Float divergence").
extern "C" __global__ void add_sub_big(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = (x[i] + 1e20f) - 1e20f;
}
