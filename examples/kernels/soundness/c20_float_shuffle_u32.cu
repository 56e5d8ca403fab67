// c20_float_shuffle_u32 (20-memory-formats): expected EQUIVALENT: __shfl_sync of a float loaded and stored without arithmetic, which nvcc moves as u32 (ld.global.u32, shfl.sync.b32, st.global.u32): the bytes of a[i ^ 1], an f32 array, land in out, an f32 array.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Part of examples/soundness/manifest.json.
extern "C" __global__ void c20_float_shuffle_u32_ref(const float* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i ^ 1];
}
extern "C" __global__ void c20_float_shuffle_u32_opt(const float* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = __shfl_sync(0xffffffffu, a[i], i ^ 1);
}
