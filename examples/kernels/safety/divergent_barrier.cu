// divergent_barrier: a __syncthreads inside `if (threadIdx.x < 16)` in a 32-thread CTA: threads
// 0..15 execute `bar.sync 0`, threads 16..31 never execute any barrier and exit.
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: BARRIER_DIVERGENCE. `bar.sync 0` is `barrier.sync.aligned`: every thread of the CTA
// must execute the same barrier instruction, which threads 16..31 do not (undefined behaviour
// in PTX). It is not a DEADLOCK in the model of domain.md §2: the other threads exit and an
// exited thread counts as arrived, so the barrier could fire; reporting the divergence is the
// honest finding.
#define N 32

extern "C" __global__ void divergent_barrier(const float* in, float* out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  if (t < 16) {
    s[t] = in[t];
    __syncthreads();  // BUG: only half of the CTA reaches this barrier
    out[t] = s[15 - t];
  }
}
