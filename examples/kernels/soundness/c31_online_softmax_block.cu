// c31_online_softmax_block (31-guards): the online-softmax rescale of d13_online_softmax_if,
// written block-wide as training codebases write it: each thread keeps a running maximum and
// sum over its strided part of the row with `if (val > maxval)` (a branch on data, merged with
// select), the block maximum comes from a warp-shuffle max and a shared-memory max across warps,
// each thread rescales its sum to the block maximum, and the sums are added the same way.
// Against the plain three-pass softmax. Equal over the reals: in each case of val > maxval the
// rescaled sum is the same, sum_j exp(x_j - M). The running values share deeply (each maximum
// names the one before it in its condition and both arms): the DAG the guards of issue 31 walk.
// Launch: 1 CTA of 64 threads (2 warps), one row of C = 128 scores; x: 128 x f32; out: 128 x f32.
#define C 128
#define THREADS 64
#define WARPS (THREADS / 32)

extern "C" __global__ void c31_online_softmax_block_ref(const float* x, float* out) {
  __shared__ float maxval, sum;
  if (threadIdx.x == 0) {
    float m = -INFINITY;
    for (int j = 0; j < C; ++j) m = fmaxf(m, x[j]);
    float s = 0.0f;
    for (int j = 0; j < C; ++j) s += expf(x[j] - m);
    maxval = m;
    sum = s;
  }
  __syncthreads();
  for (int j = threadIdx.x; j < C; j += THREADS) out[j] = expf(x[j] - maxval) / sum;
}

__device__ float warp_max(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void c31_online_softmax_block_opt(const float* x, float* out) {
  __shared__ float warp_maxes[WARPS], warp_sums[WARPS];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // One pass over this thread's values: the online rescale, as an if.
  float maxval = -INFINITY, sum = 0.0f;
  for (int j = threadIdx.x; j < C; j += THREADS) {
    const float val = x[j];
    if (val > maxval) {
      sum *= expf(maxval - val);
      maxval = val;
    }
    sum += expf(val - maxval);
  }
  // The block maximum: shuffles within a warp, shared memory across warps.
  float block_max = warp_max(maxval);
  if (lane == 0)
    warp_maxes[warp] = block_max;
  __syncthreads();
  block_max = warp_maxes[0];
  for (int w = 1; w < WARPS; ++w) block_max = fmaxf(block_max, warp_maxes[w]);
  // Every thread's sum rescaled to the block maximum, then added up the same way.
  float block_sum = warp_sum(sum * expf(maxval - block_max));
  if (lane == 0)
    warp_sums[warp] = block_sum;
  __syncthreads();
  block_sum = 0.0f;
  for (int w = 0; w < WARPS; ++w) block_sum += warp_sums[w];
  for (int j = threadIdx.x; j < C; j += THREADS) out[j] = expf(x[j] - block_max) / block_sum;
}
