// The guards' stress kernels (issue 31): one thread runs the online softmax over a row of n
// scores, so its running maximum is a chain of n maxima (fmaxf) or n selects (the `if` form),
// each naming the one before it in its condition and in both arms: a DAG of about 10n nodes
// whose tree has 2^n paths. Every walk of the engine over such a value must be linear in the
// DAG, and the entry's time limit and SIGTERM must stop it wherever it is.
// Launch: 1 CTA of 1 thread; x: n x f32 (input); out: 1 x f32; n: the row length (a parameter).
extern "C" __global__ void deep_online_fmax(const float* x, float* out, int n) {
  float m = -INFINITY, sum = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float m_new = fmaxf(m, x[j]);
    sum = sum * expf(m - m_new) + expf(x[j] - m_new);
    m = m_new;
  }
  out[0] = expf(x[0] - m) / sum;
}

extern "C" __global__ void deep_online_if(const float* x, float* out, int n) {
  float m = -INFINITY, sum = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float v = x[j];
    if (v > m) {
      sum *= expf(m - v);
      m = v;
    }
    sum += expf(v - m);
  }
  out[0] = expf(x[0] - m) / sum;
}
