// c24_online_softmax_if_else (24-control): expected EQUIVALENT. The online softmax with the
// update written as an if/else,
//     if (v > m) { sum = sum * expf(m - v) + 1; m = v; } else { sum += expf(v - m); }
// which nvcc compiles to `@p bra A; bra.uni B; A: <then>; bra.uni J; B: <else>; J:` (both sides
// end in a jump or fall through to the join): both sides compute in registers and re-converge, so
// they are merged with select; against the three-pass softmax. One row of 8 scores per thread.
// Launch: 1 CTA of 8 threads; x: 64 x float; out: 64 x float.
#define N 8
extern "C" __global__ void c24_online_softmax_if_else_ref(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY;
  for (int j = 0; j < N; ++j)
    m = fmaxf(m, row[j]);
  float sum = 0.0f;
  for (int j = 0; j < N; ++j)
    sum += expf(row[j] - m);
  for (int j = 0; j < N; ++j)
    out[threadIdx.x * N + j] = expf(row[j] - m) / sum;
}
extern "C" __global__ void c24_online_softmax_if_else_opt(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY, sum = 0.0f;
  for (int j = 0; j < N; ++j) {
    const float v = row[j];
    if (v > m) {
      sum = sum * expf(m - v) + 1.0f;
      m = v;
    } else {
      sum += expf(v - m);
    }
  }
  for (int j = 0; j < N; ++j)
    out[threadIdx.x * N + j] = expf(row[j] - m) / sum;
}
