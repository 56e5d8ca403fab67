// c8_syncwarp_across_warps (8-sync-cp-async): expected DATA_RACE: __syncwarp does not order warp 0's write with warp 1's read.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_syncwarp_across_warps(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[64];
  s[i] = a[i];
  __syncwarp();
  out[i] = s[i ^ 32];
}
