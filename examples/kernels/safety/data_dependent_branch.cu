// data_dependent_branch: out[i] = in[i] > 0 ? in[i] : 0, written as a real branch whose sides
// store and fence (a branch on data whose sides only compute in registers is merged with a
// select instead: docs/semantics.md, "Branches on data").
//
// Launch: block (32, 1, 1), grid (1, 1, 1).
// Verifier: UNSUPPORTED: the branch condition depends on loaded data and its sides touch memory,
// which is outside the structured-CTA class (refused with the PTX line of the `@%p bra`).
#define N 32

extern "C" __global__ void data_dependent_branch(const float* in, float* out) {
  int i = threadIdx.x;
  if (in[i] > 0.0f) {
    out[i] = in[i];
    __threadfence(); // a side effect inside the branch: no if-conversion, no merge
  } else {
    out[i] = 0.0f;
  }
}
