// Candidate: cand_block without the barrier after each step of the sum: a thread reads
// red[t + step] while its owner may still be writing it. Wrong (data race).
// Launch: block (64, 1, 1), grid (4, 1, 1).
#define COLS 40
#define THREADS 64

extern "C" __global__ void cand_block_no_barrier(const float* x, float* y) {
  __shared__ float red[THREADS];
  int row = blockIdx.x, t = threadIdx.x;
  const float* xr = x + row * COLS;
  float* yr = y + row * COLS;
  red[t] = t < COLS ? xr[t] : xr[0];
  __syncthreads();
  for (int step = THREADS / 2; step > 0; step /= 2) {
    if (t < step) red[t] = fmaxf(red[t], red[t + step]);
    __syncthreads();
  }
  float m = red[0];
  __syncthreads();
  red[t] = t < COLS ? expf(xr[t] - m) : 0.0f;
  __syncthreads();
  for (int step = THREADS / 2; step > 0; step /= 2) {
    if (t < step) red[t] += red[t + step];
  }
  __syncthreads();
  float s = red[0];
  if (t < COLS) yr[t] = expf(xr[t] - m) / s;
}
