// c20_cp_async_ignore_src_false_copies (20-memory-formats): expected NOT_EQUIVALENT: cp.async with an ignore-src predicate that is false copies its source (PTX ISA, cp.async); only a true ignore-src zero-fills. The reference stores zeros, the optimized kernel the copied a[i].
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Part of examples/soundness/manifest.json.
extern "C" __global__ void c20_cp_async_ignore_src_false_copies_ref(const float* a, float* out) {
  unsigned i = threadIdx.x;
  out[i] = 0.0f;
}
extern "C" __global__ void c20_cp_async_ignore_src_false_copies_opt(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  unsigned slot = static_cast<unsigned>(__cvta_generic_to_shared(&s[i]));
  int ignore = 0;
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n"
               " cp.async.ca.shared.global [%0], [%1], 4, p;\n}\n" ::"r"(slot),
               "l"(&a[i]), "r"(ignore));
  asm volatile("cp.async.wait_all;\n" ::: "memory");
  out[i] = s[i];
}
