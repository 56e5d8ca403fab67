// c31_tree_differently_associated (c31_races): expected DATA_RACE.
// Even lanes compute (a0 + a1) + (a2 + a3), odd lanes (a0 + a2) + (a1 + a3): equal over the reals,
// not in their bits (float addition is not associative), and every lane stores its sum to s.
// Launch: 1 CTA of 32 threads; a: 4 x float input; out: 32 x float.
extern "C" __global__ void c31_tree_differently_associated(const float* a, float* out) {
  __shared__ float s;
  unsigned i = threadIdx.x;
  float v = (i & 1) ? (a[0] + a[2]) + (a[1] + a[3]) : (a[0] + a[1]) + (a[2] + a[3]);
  s = v;
  __syncthreads();
  out[i] = s;
}
