// c8_same_value_two_instructions (8-sync-cp-async): expected DATA_RACE: the same value stored by two different instructions (divergent paths) is still a write conflict.
// A correct but incomplete tool may answer UNSUPPORTED or UNKNOWN instead; never RACE_FREE.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_same_value_two_instructions(const float* a, float* out) {
  unsigned i = threadIdx.x;
  volatile __shared__ float s[1];
  if (i < 16) s[0] = 1.0f; else { out[i] = 0.0f; s[0] = 1.0f; }
  __syncwarp();
  if (i < 16) out[i] = s[0];
}
