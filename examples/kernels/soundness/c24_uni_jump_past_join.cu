// c24_uni_jump_past_join (24-control): a `bra.uni` that leaves a side for somewhere other than the
// join. In inline PTX: `@p bra A; bra.uni B; A: y = 2v; bra.uni C; B: y = v; J: y = y + 1; C:`,
// so the taken side (v > 0) skips the `+ 1` after the else side's join:
// y = (v > 0) ? 2v : v + 1.
//  * c24_uni_jump_past_join (pair with _naive): expected NOT_EQUIVALENT. _naive computes
//    (v > 0) ? 2v + 1 : v + 1, what a merge that took every `bra.uni` of a side for a jump to the
//    join would compute; they differ at v = 1 (2 vs 3).
//  * c24_uni_jump_past_join_exact (pair with _exact): expected EQUIVALENT, against the same
//    function written with a conditional expression.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float.
extern "C" __global__ void c24_uni_jump_past_join_naive(const float* a, float* out) {
  const float v = a[threadIdx.x];
  out[threadIdx.x] = (v > 0.0f ? 2.0f * v : v) + 1.0f;
}
extern "C" __global__ void c24_uni_jump_past_join_exact(const float* a, float* out) {
  const float v = a[threadIdx.x];
  out[threadIdx.x] = v > 0.0f ? 2.0f * v : v + 1.0f;
}
extern "C" __global__ void c24_uni_jump_past_join_opt(const float* a, float* out) {
  const float v = a[threadIdx.x];
  float y;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "setp.gt.f32 p, %1, 0f00000000;\n\t"
               "@p bra TAKEN%=;\n\t"
               "bra.uni ELSE%=;\n"
               "TAKEN%=:\n\t"
               "add.f32 %0, %1, %1;\n\t"
               "bra.uni PAST%=;\n"
               "ELSE%=:\n\t"
               "mov.f32 %0, %1;\n"
               "JOIN%=:\n\t"
               "add.f32 %0, %0, 0f3F800000;\n"
               "PAST%=:\n\t"
               "}"
               : "=f"(y)
               : "f"(v));
  out[threadIdx.x] = y;
}
