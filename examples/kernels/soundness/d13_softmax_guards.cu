// d13_softmax_guards (13-domains): softmax rows whose normalisation is guarded the way
// FlashAttention-2 guards it (`sum == 0 || sum != sum`) or written as `s == 0 ? 0 : 1/s`. Over
// the reals a sum of exponentials is positive, so the guards are dead: EQUIVALENT to the plain
// division, with the divisions' conditions discharged by the sign analysis.
// Launch: 1 CTA of 8 threads, one row of 16 scores each; x: 128 x float; out: 128 x f32.
#define N 16
extern "C" __global__ void d13_softmax_plain(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) m = fmaxf(m, row[j]);
  float sum = 0.0f;
  for (int j = 0; j < N; ++j) sum += expf(row[j] - m);
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = expf(row[j] - m) / sum;
}
extern "C" __global__ void d13_softmax_nan_guard(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) m = fmaxf(m, row[j]);
  float sum = 0.0f;
  for (int j = 0; j < N; ++j) sum += expf(row[j] - m);
  float inv = (sum == 0.0f || sum != sum) ? 1.0f : 1.0f / sum;
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = expf(row[j] - m) * inv;
}
extern "C" __global__ void d13_softmax_zero_guard(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) m = fmaxf(m, row[j]);
  float sum = 0.0f;
  for (int j = 0; j < N; ++j) sum += expf(row[j] - m);
  for (int j = 0; j < N; ++j)
    out[threadIdx.x * N + j] = sum == 0.0f ? 0.0f : expf(row[j] - m) / sum;
}
