// c6_bytes_wrong_order (6-output-types): expected NOT_EQUIVALENT: bytes 1,2,3,4 at increasing addresses are 0x04030201, not 0x01020304.
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c6_bytes_wrong_order_ref(const float* a, const float* b, unsigned* out) {
  unsigned i = threadIdx.x;
  ((unsigned*)out)[i] = 0x01020304u;
}
extern "C" __global__ void c6_bytes_wrong_order_opt(const float* a, const float* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned char* p = (unsigned char*)&out[i]; p[0] = 1; p[1] = 2; p[2] = 3; p[3] = 4;
}
