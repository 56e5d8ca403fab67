// warp_sum — reference of the located-difference examples: each warp sums its 32 inputs with a
// shuffle-down tree and lane 0 stores the sum.
// Launch: block (32, 1, 1), grid (1, 1, 1); x has 32 elements, out 1.
extern "C" __global__ void warp_sum(const float* x, float* out) {
  float v = x[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x == 0)
    out[0] = v;
}
