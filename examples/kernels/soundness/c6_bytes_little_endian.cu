// c6_bytes_little_endian (6-output-types): expected EQUIVALENT: four byte stores 4,3,2,1 at increasing addresses are the u32 0x01020304 (little-endian).
// Launch: 1 CTA of 32 threads; a, b: 32 x float inputs; out: 32 x u32 (out). Part of examples/soundness/manifest.json.
extern "C" __global__ void c6_bytes_little_endian_ref(const float* a, const float* b, unsigned* out) {
  unsigned i = threadIdx.x;
  ((unsigned*)out)[i] = 0x01020304u;
}
extern "C" __global__ void c6_bytes_little_endian_opt(const float* a, const float* b, unsigned* out) {
  unsigned i = threadIdx.x;
  unsigned char* p = (unsigned char*)&out[i]; p[0] = 4; p[1] = 3; p[2] = 2; p[3] = 1;
}
