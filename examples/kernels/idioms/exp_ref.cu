// exp_ref: the references of the idioms group, written the simplest way. The exponential is the
// verifier's symbolic `__symexpf` (declared, never defined: nvcc leaves `call.uni __symexpf`,
// which the verifier reads as one exp node; the PTX cannot be linked into a real program).
//
//   exp_ref      out[i] = exp(in[i])                      block (32,1,1)  ref of exp_accurate,
//                                                                          exp_fast, exp_fastmath,
//                                                                          exp2_log2e
//   exp_pair_ref out[i] = exp(x[i] + y[i])                block (32,1,1)  ref of exp_pair
//   exp_dot_ref  out[r] = sum_j exp(x[r][j]) * v[r][j]    block (4,1,1)   ref of exp_fused
//   exp_sum_ref  out[r] = sum_j exp(x[r][j])              block (4,1,1)   ref of exp_sum
//   exp2_ref     out[i] = exp2f(x[i] + y[i])              block (32,1,1)  ref of exp2_product
//                (exp2f compiles to a bare ex2.approx.ftz.f32, read as 2^x)
// Rows: 4 x 32 (fixed). Grid (1,1,1) everywhere.
#define ROWS 4
#define COLS 32

extern "C" __device__ float __symexpf(float);

extern "C" __global__ void exp_ref(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = __symexpf(in[i]);
}

extern "C" __global__ void exp_pair_ref(const float* x, const float* y, float* out) {
  int i = threadIdx.x;
  out[i] = __symexpf(x[i] + y[i]);
}

extern "C" __global__ void exp_dot_ref(const float* x, const float* v, float* out) {
  int r = threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < COLS; ++j) acc += __symexpf(x[r * COLS + j]) * v[r * COLS + j];
  out[r] = acc;
}

extern "C" __global__ void exp_sum_ref(const float* x, float* out) {
  int r = threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < COLS; ++j) acc += __symexpf(x[r * COLS + j]);
  out[r] = acc;
}

extern "C" __global__ void exp2_ref(const float* x, const float* y, float* out) {
  int i = threadIdx.x;
  out[i] = exp2f(x[i] + y[i]);
}
