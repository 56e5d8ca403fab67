// volta-nvcc-flags: -use_fast_math
// exp_fastmath: out[i] = expf(in[i]), 32 threads, compiled WITH -use_fast_math (read by
// scripts/regen-ptx from the first line), so expf becomes the __expf sequence with .ftz.
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: EQUIVALENT to exp_ref.
// PTX: `mul.ftz.f32 t, x, 0f3FB8AA3B; ex2.approx.ftz.f32 y, t;` (the __expf pair, both .ftz).
extern "C" __global__ void exp_fastmath(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = expf(in[i]);
}
