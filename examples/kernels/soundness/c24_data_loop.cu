// c24_data_loop (24-control): expected NOT_EQUIVALENT. `while (v > 1) v *= 0.5f` compiles to a
// forward branch over the loop and a backward branch on data at its bottom: a loop whose trip
// count depends on the data, never merged. The reference halves once; they differ at v = 4 (1 vs
// 2). Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float.
extern "C" __global__ void c24_data_loop_ref(const float* a, float* out) {
  const float v = a[threadIdx.x];
  out[threadIdx.x] = v > 1.0f ? v * 0.5f : v;
}
extern "C" __global__ void c24_data_loop_opt(const float* a, float* out) {
  float v = a[threadIdx.x];
  while (v > 1.0f)
    v *= 0.5f;
  out[threadIdx.x] = v;
}
