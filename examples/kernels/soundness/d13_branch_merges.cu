// d13_branch_merges (13-domains): branches on data merged with select, attacked.
//  * d13_if_relu: `if (x > 0) y = x; else y = 0;` as a real branch against fmaxf: EQUIVALENT.
//  * d13_online_if_no_add: the `if` form of the online softmax that forgets to add the new
//    term after the rescale: NOT_EQUIVALENT (the select is decided by cases, the rows differ).
//  * d13_if_store_in_side: a store inside one side of a branch on data: UNSUPPORTED (the
//    written set depends on the data; never merged).
// Launch: 1 CTA of 8 threads; x: 64 x float inputs (8 per thread); out: 64 x f32.
#define N 8
extern "C" __global__ void d13_relu_fmax(const float* x, float* out) {
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = fmaxf(x[threadIdx.x * N + j], 0.0f);
}
extern "C" __global__ void d13_if_relu(const float* x, float* out) {
  for (int j = 0; j < N; ++j) {
    const float v = x[threadIdx.x * N + j];
    float y;
    if (v > 0.0f) {
      y = v;
      asm volatile("" ::: "memory"); // keep a real branch (no selp)
    } else {
      y = 0.0f;
    }
    out[threadIdx.x * N + j] = y;
  }
}
extern "C" __global__ void d13_online_fmax_ref(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY, sum = 0.0f;
  for (int j = 0; j < N; ++j) {
    const float m_new = fmaxf(m, row[j]);
    sum = sum * expf(m - m_new) + expf(row[j] - m_new);
    m = m_new;
  }
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = expf(row[j] - m) / sum;
}
extern "C" __global__ void d13_online_if_no_add(const float* x, float* out) {
  const float* row = x + threadIdx.x * N;
  float m = -INFINITY, sum = 0.0f;
  for (int j = 0; j < N; ++j) {
    const float v = row[j];
    if (v > m) {
      sum = sum * expf(m - v) + 1.0f;
      m = v;
    }
    // BUG: the term of v is not added when v <= m
  }
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = expf(row[j] - m) / sum;
}
extern "C" __global__ void d13_if_store_in_side(const float* x, float* out) {
  for (int j = 0; j < N; ++j) {
    const float v = x[threadIdx.x * N + j];
    if (v > 0.0f) {
      out[threadIdx.x * N + j] = v;
    } else {
      out[threadIdx.x * N + j] = 0.0f;
      __threadfence();
    }
  }
}
