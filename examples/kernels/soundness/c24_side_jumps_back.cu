// c24_side_jumps_back (24-control): expected EQUIVALENT. The taken side of a branch on data is
// placed after the join and ends in a backward `bra.uni` to it (inline PTX:
// `@p bra T; J: bra.uni E; T: y = 2v; bra.uni J; E:`): each side is a fixed path of register
// instructions and unconditional jumps that reaches J, so the merge is exact:
// y = (v > 0) ? 2v : v, as the reference's conditional expression.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float.
extern "C" __global__ void c24_side_jumps_back_ref(const float* a, float* out) {
  const float v = a[threadIdx.x];
  out[threadIdx.x] = v > 0.0f ? 2.0f * v : v;
}
extern "C" __global__ void c24_side_jumps_back_opt(const float* a, float* out) {
  const float v = a[threadIdx.x];
  float y;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "mov.f32 %0, %1;\n\t"
               "setp.gt.f32 p, %1, 0f00000000;\n\t"
               "@p bra TAKEN%=;\n"
               "JOIN%=:\n\t"
               "bra.uni END%=;\n"
               "TAKEN%=:\n\t"
               "add.f32 %0, %1, %1;\n\t"
               "bra.uni JOIN%=;\n"
               "END%=:\n\t"
               "}"
               : "=f"(y)
               : "f"(v));
  out[threadIdx.x] = y;
}
