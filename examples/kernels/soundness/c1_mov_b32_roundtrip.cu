// c1_mov_b32_roundtrip (1-untyped-data): expected EQUIVALENT: mov.b32 float->b32->float keeps the 32 bits.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x f32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_mov_b32_roundtrip_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  out[i] = a[i];
}
extern "C" __global__ void c1_mov_b32_roundtrip_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  unsigned t; float f; asm volatile("mov.b32 %0, %1;" : "=r"(t) : "f"(a[i])); asm volatile("mov.b32 %0, %1;" : "=f"(f) : "r"(t)); out[i] = f;
}
