// c31_null_store (c31_races): expected OUT_OF_BOUNDS.
// Every thread stores through a null pointer (the parameter p is 0).
// Launch: 1 CTA of 32 threads; p: null; a: 32 x float input.
extern "C" __global__ void c31_null_store(float* p, const float* a) {
  p[threadIdx.x] = a[threadIdx.x];
}
