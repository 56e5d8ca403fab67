// c16_stream_domain_other_group (16-streamed-groups): expected EQUIVALENT: the optimized kernel's last element divides by b[0]; only the reference's first element (another CTA, another group of a streamed proof) divides by it too, which makes b[0] != 0 an assumption of the whole grid.
// Launch: all 64 CTAs of 32 threads; a: 2048 x float, b: 32 x float inputs; out: 2048 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c16_stream_domain_other_group_ref(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 2.0f * a[i];
  if (i == 0)
    v = (v * b[0]) / b[0];
  out[i] = v;
}
extern "C" __global__ void c16_stream_domain_other_group_opt(const float* a, const float* b, float* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i] + a[i];
  if (i == 2047)
    v = (v * b[0]) / b[0];
  out[i] = v;
}
