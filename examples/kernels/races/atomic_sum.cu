// atomic_sum: sum of 128 floats by 4 CTAs of 32 threads, each thread doing
// atomicAdd(out, in[global id]) into one zero-initialized global accumulator. nvcc 13 emits
// `atom.global.add.f32 %f2, [%rd3], %f1` (result register unused) rather than `red.global.add`.
//
// Launch: block (32, 1, 1), grid (4, 1, 1); `out` starts at 0 (manifest kind "zero").
// Verifier: RACE_FREE with `ctas: "all"` (atomic read-modify-writes do not race with each
// other), and out[0] = 0 + in[0] + ... + in[127] in some order, i.e. EQUIVALENT to sum_serial
// with n = 128 over the reals (floating-point results would depend on the order; reals do not).
#define BLOCK 32

extern "C" __global__ void atomic_sum(const float* in, float* out) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  atomicAdd(out, in[i]);
}
