// volta-nvcc-flags: -use_fast_math
// rsqrt_div: three elementwise results, compiled WITH -use_fast_math:
//   rs[i] = rsqrtf(x[i]);  rc[i] = 1.f / y[i];  dv[i] = z[i] / w[i]
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: EQUIVALENT to rsqrt_div_ref over the reals (1/sqrt(x), 1/y, z/w).
// PTX: `rsqrt.approx.ftz.f32`, `rcp.approx.ftz.f32`, `div.approx.ftz.f32`.
extern "C" __global__ void rsqrt_div(const float* x, const float* y, const float* z,
                                     const float* w, float* rs, float* rc, float* dv) {
  int i = threadIdx.x;
  rs[i] = rsqrtf(x[i]);
  rc[i] = 1.0f / y[i];
  dv[i] = z[i] / w[i];
}
