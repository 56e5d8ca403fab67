// uninitialized: only threads 0..31 fill the 64-element shared buffer; after the barrier every
// thread copies s[t] to out[t], so threads 32..63 store shared values nobody wrote.
//
// Launch: block (64, 1, 1), grid (1, 1, 1).
// Verifier: UNINITIALIZED (the value of s[32] read by thread 32 reaches the output out[32]).
#define N 64

extern "C" __global__ void uninitialized(const float* in, float* out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  if (t < N / 2) s[t] = in[t];  // BUG: the upper half of s is never written
  __syncthreads();
  out[t] = s[t];
}
