// c40_online_rows: softmax-weighted sums of one row per thread over 64 keys (issue 34's
// held-out-style attention, d = 1), the running maximum updated key by key. The canonical forms
// sum such a running sum relative to its largest part and keep its leading term from step to
// step; these entries check that the shortcut still tells a correct rescaling from a wrong one.
//   c40_online_rows_ref           two passes: the maximum, then sum e^{s-m} b / sum e^{s-m}
//   c40_online_rows_opt           online, rescaling sum and accumulator by e^{m_old - m_new}:
//                                 EQUIVALENT
//   c40_online_rows_no_acc_rescale  the accumulator is not rescaled when the maximum grows:
//                                 NOT_EQUIVALENT (the weights of earlier keys stay e^{s-m_old})
//   c40_online_rows_inverted_rescale  rescaled by e^{m_new - m_old}: NOT_EQUIVALENT
// Launch: one CTA of 32 threads; a: 32 queries, b: 64 keys (each key its own value), out: 32.
#define L 64

extern "C" __global__ void c40_online_rows_ref(const float* a, const float* b, float* out) {
  int t = threadIdx.x;
  float m = -INFINITY;
  for (int j = 0; j < L; ++j) m = fmaxf(m, a[t] * b[j]);
  float sum = 0.0f, acc = 0.0f;
  for (int j = 0; j < L; ++j) {
    float p = expf(a[t] * b[j] - m);
    sum += p;
    acc += p * b[j];
  }
  out[t] = acc / sum;
}

template <int kMode> __device__ void online(const float* a, const float* b, float* out) {
  int t = threadIdx.x;
  float q = a[t];
  float m = -INFINITY, sum = 0.0f, acc = 0.0f;
  for (int j = 0; j < L; ++j) {
    float s = q * b[j];
    float m_new = fmaxf(m, s);
    float rescale = kMode == 2 ? expf(m_new - m) : expf(m - m_new);
    float p = expf(s - m_new);
    sum = sum * rescale + p;
    acc = (kMode == 1 ? acc : acc * rescale) + p * b[j];
    m = m_new;
  }
  out[t] = acc / sum;
}

extern "C" __global__ void c40_online_rows_opt(const float* a, const float* b, float* out) {
  online<0>(a, b, out);
}
extern "C" __global__ void c40_online_rows_no_acc_rescale(const float* a, const float* b,
                                                          float* out) {
  online<1>(a, b, out);
}
extern "C" __global__ void c40_online_rows_inverted_rescale(const float* a, const float* b,
                                                            float* out) {
  online<2>(a, b, out);
}
