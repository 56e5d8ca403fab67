// c3_lop3_tables (3-opaque-ops): expected NOT_EQUIVALENT: (a&b)|c vs (a|b)&c: a=b=0, c=1 gives 1 vs 0.
// Launch: 1 CTA of 32 threads; a, b: 32 x unsigned inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_lop3_tables_ref(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = (a[i] & b[i]) | a[i ^ 1];
}
extern "C" __global__ void c3_lop3_tables_opt(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned i = threadIdx.x;
  out[i] = (a[i] | b[i]) & a[i ^ 1];
}
