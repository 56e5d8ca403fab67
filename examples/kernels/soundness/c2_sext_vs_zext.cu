// c2_sext_vs_zext (2-integer-wrap): expected NOT_EQUIVALENT: a=-1: sign extension gives -1, zero extension 4294967295.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s64 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c2_sext_vs_zext_ref(const int* a, const int* b, long long* out) {
  unsigned i = threadIdx.x;
  out[i] = (long long)a[i];
}
extern "C" __global__ void c2_sext_vs_zext_opt(const int* a, const int* b, long long* out) {
  unsigned i = threadIdx.x;
  out[i] = (long long)(unsigned)a[i];
}
