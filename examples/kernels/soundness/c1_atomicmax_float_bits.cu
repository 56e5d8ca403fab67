// c1_atomicmax_float_bits (1-untyped-data): expected NOT_EQUIVALENT: atomicMax on float bits as int (the idiom) is wrong for negatives: out=-1 and every a=-2 gives -2, fmaxf gives -1.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 1 x f32 (inout). Part of examples/soundness/manifest.json.
extern "C" __global__ void c1_atomicmax_float_bits_ref(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  atomicMax((int*)out, __float_as_int(a[i]));
}
extern "C" __global__ void c1_atomicmax_float_bits_opt(const float* a, const float* b, float* out) {
  unsigned i = threadIdx.x;
  if (i == 0) { float m = out[0]; for (int k = 0; k < 32; ++k) m = fmaxf(m, a[k]); out[0] = m; }
}
