// reduce_ok: sum of 64 floats by one CTA, shared-memory tree reduction (sequential addressing)
// with a __syncthreads after every step.
//   s[t] = in[t]; sync;
//   for stride = 32, 16, ..., 1: { if (t < stride) s[t] += s[t + stride]; sync }
//   thread 0: out[0] = s[0]
//
// Launch: block (64, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE (each step's reads of s[t + stride] follow the barrier after the step that
// wrote them, and a step's writes s[t], t < stride, never overlap its reads s[t + stride]).
// out[0] = sum of in[0..63] over the reals (EQUIVALENT to sum_serial with n = 64).
#define N 64

extern "C" __global__ void reduce_ok(const float* in, float* out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int stride = N / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}
