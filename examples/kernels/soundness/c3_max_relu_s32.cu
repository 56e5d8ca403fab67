// c3_max_relu_s32 (3-opaque-ops): expected NOT_EQUIVALENT: max.relu.s32 clamps a negative maximum to 0 (a=-3, b=-5: -3 against 0); the engine ran it as max.s32 and answered EQUIVALENT.
// A correct but incomplete tool may answer UNSUPPORTED instead; never EQUIVALENT.
// Launch: 1 CTA of 32 threads; a, b: 32 x int inputs; out: 32 x s32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c3_max_relu_s32_ref(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  out[i] = max(a[i], b[i]);
}
extern "C" __global__ void c3_max_relu_s32_opt(const int* a, const int* b, int* out) {
  unsigned i = threadIdx.x;
  int r;
  asm("max.relu.s32 %0, %1, %2;" : "=r"(r) : "r"(a[i]), "r"(b[i]));
  out[i] = r;
}
