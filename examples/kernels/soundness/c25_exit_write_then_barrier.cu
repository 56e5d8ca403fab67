// c25_exit_write_then_barrier (25-exits): expected DATA_RACE. Warp 0 stores s[0] and exits; warp 1
// passes __syncthreads() and reads s[0]. A barrier orders only the threads that take part in it
// ("wait for all non-exited threads", PTX ISA, barrier): nothing orders warp 0's store before
// warp 1's read. Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float (out).
// Part of examples/soundness/manifest.json.
extern "C" __global__ void c25_exit_write_then_barrier(float* out, const float* a) {
  __shared__ float s[1];
  unsigned t = threadIdx.x;
  if (t < 32) {
    s[0] = a[0];
    return;
  }
  __syncthreads();
  out[t] = s[0];
}
