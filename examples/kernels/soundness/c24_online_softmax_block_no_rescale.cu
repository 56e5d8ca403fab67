// c24_online_softmax_block_no_rescale (24-control): expected NOT_EQUIVALENT. The online update
// of c24_online_softmax_block without its rescale (`sum *= expf(maxval - val)` dropped): each
// thread's select then has arms that differ, and its per-thread proof by cases must not hide it.
// A block-wide online softmax in the style of training codebases: each thread runs the online update over a strided part of the
// row with an `if`,
//     if (val > maxval) { sum *= expf(maxval - val); maxval = val; }  sum += expf(val - maxval);
// (a branch on data, both sides merged with select), the warp combines maxima with
// __shfl_xor_sync and fmaxf, rescales and sums, and the warps combine through shared memory;
// against a three-pass softmax of the row by one thread. One row per CTA.
// Launch: 1 CTA of 64 threads; x: 128 x float (one row); out: 128 x float.
#define C 128
extern "C" __global__ void c24_online_softmax_block_no_rescale_ref(const float* x, float* out) {
  if (threadIdx.x != 0)
    return;
  float m = -INFINITY;
  for (int i = 0; i < C; ++i)
    m = fmaxf(m, x[i]);
  float sum = 0.0f;
  for (int i = 0; i < C; ++i)
    sum += expf(x[i] - m);
  for (int i = 0; i < C; ++i)
    out[i] = expf(x[i] - m) / sum;
}
extern "C" __global__ void c24_online_softmax_block_no_rescale_opt(const float* x, float* out) {
  __shared__ float warp_max[32], warp_sum[32];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32, warps = blockDim.x / 32;
  float maxval = -INFINITY, sum = 0.0f;
  for (unsigned i = tid; i < C; i += blockDim.x) {
    const float val = x[i];
    if (val > maxval) {
      maxval = val; // the rescale of `sum` forgotten
    }
    sum += expf(val - maxval);
  }
  float m = maxval;
  for (int offset = 16; offset > 0; offset /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
  sum *= expf(maxval - m);
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0) {
    warp_max[warp] = m;
    warp_sum[warp] = sum;
  }
  __syncthreads();
  float row_max = -INFINITY;
  for (unsigned w = 0; w < warps; ++w)
    row_max = fmaxf(row_max, warp_max[w]);
  float row_sum = 0.0f;
  for (unsigned w = 0; w < warps; ++w)
    row_sum += warp_sum[w] * expf(warp_max[w] - row_max);
  for (unsigned i = tid; i < C; i += blockDim.x)
    out[i] = expf(x[i] - row_max) / row_sum;
}
