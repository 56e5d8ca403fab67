// oob_shared: a 64-element shared buffer, filled by 64 threads, then each thread reads its right
// neighbour s[t + 1]; thread 63 reads s[64], one past the end of the only shared variable
// (`.shared .align 4 .b8 ..._s[256]`).
//
// Launch: block (64, 1, 1), grid (1, 1, 1).
// Verifier: OUT_OF_BOUNDS (shared load at offset 256 of a 256-byte variable). The barrier
// orders the writes before the reads, so there is no race to report first.
#define N 64

extern "C" __global__ void oob_shared(const float* in, float* out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[t + 1];  // BUG: s[N] for the last thread
}
