// c16_stream_split_atomic (16-streamed-groups): expected EQUIVALENT: out[j] sums a[32 j .. 32 j + 31]; the optimized kernel's 64 CTAs add their parts with atomics into a zero-initialized array, which CTAs of every group combine (never proved group by group).
// Launch: reference 64 CTAs of 32 threads, one element a thread; optimized 64 CTAs of 32 threads, one atomicAdd a thread; a: 2048 x float, b: 32 x float inputs; out: 2048 x f32 (zero). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_split_atomic_ref(const float* a, const float* b, float* out) {
  unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < 64) {
    float s = 0.0f;
    for (int k = 0; k < 32; ++k)
      s += a[32 * j + k];
    out[j] = s;
  }
}
extern "C" __global__ void c16_stream_split_atomic_opt(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&out[i / 32], a[i]);
}
