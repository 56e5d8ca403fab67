// c24_if_else_store_in_side (24-control): expected NOT_EQUIVALENT. nvcc's if/else
// `@p bra A; bra.uni B; A: st v; bra.uni J; B: st 0; J:` stores in both sides: which store
// happens depends on the data, so the sides must not be merged. out = (v > 0) ? v : 0 differs from
// the reference's out = v at v = -1; a merge that ran both sides' stores would leave v (the taken
// side runs last) and answer EQUIVALENT.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float.
extern "C" __global__ void c24_if_else_store_in_side_ref(const float* a, float* out) {
  out[threadIdx.x] = a[threadIdx.x];
}
extern "C" __global__ void c24_if_else_store_in_side_opt(const float* a, float* out) {
  const float v = a[threadIdx.x];
  if (v > 0.0f) {
    out[threadIdx.x] = v;
  } else {
    out[threadIdx.x] = 0.0f;
    __threadfence_block(); // keeps nvcc from turning the two stores into one store of a select
  }
}
