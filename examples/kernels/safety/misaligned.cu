// misaligned: each thread loads a float4 from in + 1 + 4 t (pointer arithmetic on float*, then a
// cast to const float4*); nvcc trusts the float4 type and emits `ld.global.v4.f32`, whose
// address in + 4 + 16 t is 4 but not 16 bytes aligned.
//
// Launch: block (32, 1, 1), grid (1, 1, 1); `in` has 129 elements (indices 1..128 are read,
// all in bounds), `out` has 32.
// Verifier: OUT_OF_BOUNDS: a misaligned vector access is a memory-access fault ("misaligned
// address" on the device); there is no separate verdict word, and the bytes it names are in
// bounds, so the detail must say "misaligned".
#define N 32

extern "C" __global__ void misaligned(const float* in, float* out) {
  int t = threadIdx.x;
  float4 v = *reinterpret_cast<const float4*>(in + 1 + 4 * t);  // BUG: not 16-byte aligned
  out[t] = v.x + v.y + v.z + v.w;
}
