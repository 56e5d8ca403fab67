// exp_fast: out[i] = __expf(in[i]), 32 threads, no fast-math flag (the intrinsic is always the
// fast path).
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: EQUIVALENT to exp_ref.
// PTX: `mul.f32 t, x, 0f3FB8AA3B; ex2.approx.f32 y, t;` (no .ftz on either: without
// -use_fast_math denormals are kept).
extern "C" __global__ void exp_fast(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = __expf(in[i]);
}
