// c20_cp_async_ignore_src_select (20-memory-formats): expected EQUIVALENT: cp.async with ignore-src true writes zeros and with ignore-src false copies, so ignoring the odd threads' sources is the reference's select.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Part of examples/soundness/manifest.json.
extern "C" __global__ void c20_cp_async_ignore_src_select_ref(const float* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = (i & 1) ? 0.0f : a[i];
}
extern "C" __global__ void c20_cp_async_ignore_src_select_opt(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  unsigned slot = static_cast<unsigned>(__cvta_generic_to_shared(&s[i]));
  int ignore = i & 1;
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n"
               " cp.async.ca.shared.global [%0], [%1], 4, p;\n}\n" ::"r"(slot),
               "l"(&a[i]), "r"(ignore));
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  out[i] = s[i];
}
