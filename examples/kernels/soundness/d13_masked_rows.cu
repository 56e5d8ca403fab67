// d13_masked_rows (13-domains): causal attention weights with a fully masked first row (row i
// attends to the columns j < i, so row 0 attends to nothing). The reference writes 0 for
// masked scores and never divides in row 0; the fused kernel divides every probability by the
// row sum, which is 0 in row 0: 0/0, NaN on the device. NOT_EQUIVALENT, with a row-0 element
// in the counterexample. The fixed kernel guards the division: EQUIVALENT.
// Launch: 1 CTA of 8 threads, one row of 8 scores each; x: 64 x float; out: 64 x f32.
#define N 8
extern "C" __global__ void d13_masked_reference(const float* x, float* out) {
  const unsigned i = threadIdx.x;
  const float* row = x + i * N;
  float m = -INFINITY;
  for (int j = 0; j < N; ++j)
    if (j < i) m = fmaxf(m, row[j]);
  float sum = 0.0f;
  for (int j = 0; j < N; ++j)
    if (j < i) sum += expf(row[j] - m);
  for (int j = 0; j < N; ++j) out[i * N + j] = j < i ? expf(row[j] - m) / sum : 0.0f;
}
extern "C" __global__ void d13_masked_fused(const float* x, float* out) {
  const unsigned i = threadIdx.x;
  const float* row = x + i * N;
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) m = fmaxf(m, j < i ? row[j] : -INFINITY);
  float p[N];
  float sum = 0.0f;
  for (int j = 0; j < N; ++j) {
    p[j] = j < i ? expf(row[j] - m) : 0.0f;
    sum += p[j];
  }
  for (int j = 0; j < N; ++j) out[i * N + j] = p[j] / sum;
}
extern "C" __global__ void d13_masked_fused_fixed(const float* x, float* out) {
  const unsigned i = threadIdx.x;
  const float* row = x + i * N;
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) m = fmaxf(m, j < i ? row[j] : -INFINITY);
  float p[N];
  float sum = 0.0f;
  for (int j = 0; j < N; ++j) {
    p[j] = j < i ? expf(row[j] - m) : 0.0f;
    sum += p[j];
  }
  const float inv = sum == 0.0f ? 0.0f : 1.0f / sum;
  for (int j = 0; j < N; ++j) out[i * N + j] = p[j] * inv;
}
