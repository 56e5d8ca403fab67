// c6_int_data_vs_float (6-output-types): expected NOT_EQUIVALENT: st.s32 a vs st.f32 (float)a: bytes differ for a=1.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c6_int_data_vs_float_ref(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  ((int*)out)[i] = a[i];
}
extern "C" __global__ void c6_int_data_vs_float_opt(const int* a, const int* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (float)a[i];
}
