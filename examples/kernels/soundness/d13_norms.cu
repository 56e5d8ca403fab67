// d13_norms (13-domains): layernorm two-pass against one-pass, and RMSNorm written two ways.
// EQUIVALENT: rsqrt's condition (var + eps > 0) is discharged by the sign analysis where var is
// a mean of squares, and by the reference's own condition on the same value (equal canonical
// forms) where var = E[x^2] - E[x]^2. No solver.
// Launch: 1 CTA of 8 threads, one row of 16 values each; x: 128 x float; out: 128 x f32.
#define N 16
extern "C" __global__ void d13_layernorm_two_pass(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float s = 0.0f;
  for (int j = 0; j < N; ++j) s += row[j];
  const float mean = s / N;
  float v = 0.0f;
  for (int j = 0; j < N; ++j) v += (row[j] - mean) * (row[j] - mean);
  const float r = rsqrtf(v / N + 1e-5f);
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = (row[j] - mean) * r;
}
extern "C" __global__ void d13_layernorm_one_pass(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float s = 0.0f, ss = 0.0f;
  for (int j = 0; j < N; ++j) {
    s += row[j];
    ss += row[j] * row[j];
  }
  const float mean = s / N;
  const float r = rsqrtf(ss / N - mean * mean + 1e-5f);
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = (row[j] - mean) * r;
}
extern "C" __global__ void d13_rmsnorm(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float ss = 0.0f;
  for (int j = 0; j < N; ++j) ss += row[j] * row[j];
  const float r = rsqrtf(ss / N + 1e-6f);
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = row[j] * r;
}
extern "C" __global__ void d13_rmsnorm_split(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float a = 0.0f, b = 0.0f;
  for (int j = 0; j < N; j += 2) {
    a += row[j] * row[j];
    b += row[j + 1] * row[j + 1];
  }
  const float r = rsqrtf((a + b) * (1.0f / N) + 1e-6f);
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = r * row[j];
}
