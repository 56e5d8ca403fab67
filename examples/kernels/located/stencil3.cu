// stencil3 — reference of the located-difference examples: a 3-point stencil over a tile of 64
// points, out[i] = in[i] + 2 in[i+1] + in[i+2], one thread per point.
// Launch: block (64, 1, 1), grid (1, 1, 1); in has 66 elements, out 64.
extern "C" __global__ void stencil3(const float* in, float* out) {
  int i = threadIdx.x;
  float left = in[i];
  float mid = in[i + 1];
  float right = in[i + 2];
  out[i] = left + 2.0f * mid + right;
}
