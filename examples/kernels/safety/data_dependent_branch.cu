// data_dependent_branch: out[i] = in[i] > 0 ? in[i] : 0, written as a real branch.
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: UNSUPPORTED: the branch condition depends on loaded data, which is outside the
// structured-CTA class (the verifier must refuse it with the PTX line of the `@%p bra`).
#define N 32

extern "C" __global__ void data_dependent_branch(const float* in, float* out) {
  int i = threadIdx.x;
  if (in[i] > 0.0f) {
    out[i] = in[i];
  } else {
    out[i] = 0.0f;
  }
}
