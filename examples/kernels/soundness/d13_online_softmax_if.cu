// d13_online_softmax_if (13-domains): the online-softmax update written with an `if` (a branch
// on data, both sides merged with select) against the fmaxf form. EQUIVALENT: in each case of
// x > m the two agree (max(m, x) is x, or m). The running maximum starts at -INFINITY.
// Launch: 1 CTA of 8 threads, one row of 8 scores each; x: 64 x float; out: 64 x f32.
#define N 8
extern "C" __global__ void d13_online_fmax(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY, sum = 0.0f;
  for (int j = 0; j < N; ++j) {
    const float m_new = fmaxf(m, row[j]);
    sum = sum * expf(m - m_new) + expf(row[j] - m_new);
    m = m_new;
  }
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = expf(row[j] - m) / sum;
}
extern "C" __global__ void d13_online_if(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY, sum = 0.0f;
  for (int j = 0; j < N; ++j) {
    const float v = row[j];
    if (v > m) {
      sum *= expf(m - v);
      m = v;
    }
    sum += expf(v - m);
  }
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = expf(row[j] - m) / sum;
}
