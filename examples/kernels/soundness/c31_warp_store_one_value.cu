// c31_warp_store_one_value (c31_races): expected RACE_FREE (and with 2 warps, the entry
// c31_two_warps_store_one_value; DATA_RACE under "races": "strict", c31_two_warps_store_one_value_strict).
// Every thread stores one value, a[0] + a[1] (one node), to one shared word: under the benign race
// rule stores of provably equal values by any two threads are no race, in one warp or several.
// Launch: 1 CTA of 32 (or 64) threads; a: 2 x float input; out: 64 x float. Race check in
// examples/soundness/manifest.json.
extern "C" __global__ void c31_warp_store_one_value(const float* a, float* out) {
  __shared__ float s;
  s = a[0] + a[1];
  __syncthreads();
  out[threadIdx.x] = s;
}
