// c31_two_warps_different_values (c31_races): expected DATA_RACE.
// Warp 0 stores a[0], warp 1 stores a[1] to one shared word: values that may differ.
// Launch: 1 CTA of 64 threads; a: 2 x float input; out: 64 x float.
extern "C" __global__ void c31_two_warps_different_values(const float* a, float* out) {
  __shared__ float s;
  s = a[threadIdx.x / 32];
  __syncthreads();
  out[threadIdx.x] = s;
}
