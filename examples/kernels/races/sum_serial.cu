// sum_serial: out[0] = in[0] + in[1] + ... + in[n-1], one thread, a plain loop. The reference
// for atomic_sum (n = 128), warp_sync_ok (n = 32) and reduce_ok (n = 64). n is an integer kernel
// parameter (concrete in the manifests, so the loop still unrolls by plain execution).
//
// Launch: block (1, 1, 1), grid (1, 1, 1).
// Verifier: RACE_FREE.

extern "C" __global__ void sum_serial(const float* in, float* out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += in[i];
  out[0] = s;
}
