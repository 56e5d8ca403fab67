// cta_race: 4 CTAs of 32 threads each copy their own 32-element slice of `in` into the SAME
// 32 elements of `out` (out[t] = in[32 * blockIdx.x + t]), with plain stores.
//
// Launch: block (32, 1, 1), grid (4, 1, 1).
// Verifier: with every CTA executed (`ctas: "all"`): DATA_RACE, write-write on out[t] between
// thread t of CTA 0 and thread t of CTA 1 (no synchronization exists across CTAs).
// With CTA (0,0,0) only (the default): RACE_FREE, since inside one CTA each thread writes its
// own element.
#define BLOCK 32

extern "C" __global__ void cta_race(const float* in, float* out) {
  int t = threadIdx.x;
  out[t] = in[blockIdx.x * BLOCK + t];
}
