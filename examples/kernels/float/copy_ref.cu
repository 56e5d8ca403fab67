// The reference of the cancellation example (docs/semantics.md, "Float divergence"): y = x.
extern "C" __global__ void copy_ref(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
}
