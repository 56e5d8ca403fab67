// c41_int_bits_select_read_as_f32_same (41-views): expected EQUIVALENT: out is f32; the optimized kernel selects the integer bits 0x3F800000 or 0x40000000 (f32 1 or 2) by a[i] > 0 (selp.b32) and adds them to a[i] with add.f32: a[i] + 1 or a[i] + 2; the reference adds 1 or 2: the same f32 values, the bits of the select read as floats (the positive beside c41_int_bits_select_read_as_f32).
// Launch: 1 CTA of 32 threads; a: 32 x f32 input; out: 32 x f32. Part of examples/soundness/manifest.json.
extern "C" __global__ void c41_int_bits_select_read_as_f32_same_ref(const float* a, float* out) {
  unsigned i = threadIdx.x;
  float x = a[i];
  out[i] = x + (x > 0.0f ? 1.0f : 2.0f);
}
extern "C" __global__ void c41_int_bits_select_read_as_f32_same_opt(const float* a, float* out) {
  unsigned i = threadIdx.x;
  float x = a[i];
  unsigned bits = x > 0.0f ? 0x3F800000u : 0x40000000u;
  float s;
  asm("add.rn.f32 %0, %1, %2;" : "=f"(s) : "r"(bits), "f"(x));
  out[i] = s;
}
