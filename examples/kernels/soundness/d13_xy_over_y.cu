// d13_xy_over_y (13-domains): x*y/y in the optimized kernel against x in the reference.
// Expected NOT_EQUIVALENT: at y = 0 the optimized kernel divides by zero (NaN on the device)
// where the reference is defined. The reverse pair (d13_xy_over_y_in_ref) is EQUIVALENT.
// Launch: 1 CTA of 32 threads; x, y: 32 x float inputs; out: 32 x f32.
extern "C" __global__ void d13_plain_x(const float* x, const float* y, float* out) {
  unsigned i = threadIdx.x;
  out[i] = x[i];
}
extern "C" __global__ void d13_x_times_y_over_y(const float* x, const float* y, float* out) {
  unsigned i = threadIdx.x;
  out[i] = x[i] * y[i] / y[i];
}
// fmaxf absorbs the NaN of 0/0 on the device (fmaxf(NaN, 0) = 0), so "where both kernels compute
// a number" cannot be read off the outputs: the division is an obligation all the same.
extern "C" __global__ void d13_relu_x(const float* x, const float* y, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaxf(x[i], 0.0f);
}
extern "C" __global__ void d13_relu_xy_over_y(const float* x, const float* y, float* out) {
  unsigned i = threadIdx.x;
  out[i] = fmaxf(x[i] * y[i] / y[i], 0.0f);
}
// A NaN test on a value that is undefined in the optimized kernel only: the device takes the
// branch at x = y = 0 (0/0 is NaN).
extern "C" __global__ void d13_one(const float* x, const float* y, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 1.0f;
}
extern "C" __global__ void d13_isnan_of_quotient(const float* x, const float* y, float* out) {
  unsigned i = threadIdx.x;
  float q = x[i] / y[i];
  out[i] = (q != q) ? 0.0f : 1.0f;
}
