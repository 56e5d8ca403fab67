// c8_two_distinct_races (8-sync-cp-async): expected DATA_RACE: two warps store the same constant to flag without a barrier (the race reported first), then a real race: s[i ^ 32] is read before the other warp's store to it is ordered by a barrier; the report lists both (and the converse read-write race) in `races`.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_two_distinct_races(const float* a, float* out) {
  unsigned i = threadIdx.x;
  volatile __shared__ float flag;
  volatile __shared__ float s[64];
  flag = 1.0f;
  s[i] = a[i];
  out[i] = s[i ^ 32] + flag;
}
