// rsqrt_div_ref: the reference of rsqrt_div, written the plain way and compiled WITHOUT fast
// math:  rs[i] = 1.f / sqrtf(x[i]);  rc[i] = 1.f / y[i];  dv[i] = z[i] / w[i]
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// PTX: `sqrt.rn.f32` then `rcp.rn.f32` (1/sqrtf is not contracted to rsqrt without fast math),
// `rcp.rn.f32`, `div.rn.f32`.
extern "C" __global__ void rsqrt_div_ref(const float* x, const float* y, const float* z,
                                         const float* w, float* rs, float* rc, float* dv) {
  int i = threadIdx.x;
  rs[i] = 1.0f / sqrtf(x[i]);
  rc[i] = 1.0f / y[i];
  dv[i] = z[i] / w[i];
}
