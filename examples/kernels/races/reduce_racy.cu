// reduce_racy: reduce_ok without the __syncthreads between the reduction steps.
//
// Launch: block (64, 1, 1), grid (1, 1, 1).
// Verifier: DATA_RACE. After the one barrier, thread 16 writes s[16] in the stride-32 step and
// thread 0 reads s[16] in the stride-16 step with no synchronization in between (write by t16,
// read by t0 on shared bytes 64..67). Threads 0 and 16 share a warp, but warp-synchronous code
// without __syncwarp is racy in the model (domain.md §2), as it is under the CUDA memory model.
// nvcc keeps every step as ld.shared/ld.shared/add/st.shared behind `@p bra` on t >= stride.
#define N 64

extern "C" __global__ void reduce_racy(const float* in, float* out) {
  __shared__ float s[N];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int stride = N / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    // BUG: missing __syncthreads();
  }
  if (t == 0) out[0] = s[0];
}
