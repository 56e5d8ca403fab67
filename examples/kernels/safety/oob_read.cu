// oob_read: out[i] = in[i] + in[i + 1] for 64 threads over a 64-element input; the last thread
// reads in[64], one element past the array.
//
// Launch: block (64, 1, 1), grid (1, 1, 1); `in` has 64 elements.
// Verifier: OUT_OF_BOUNDS (global load of in[64] by thread 63: base + 256 .. base + 259).
#define N 64

extern "C" __global__ void oob_read(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = in[i] + in[i + 1];  // BUG: i + 1 == N for the last thread
}
