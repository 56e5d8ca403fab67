// c24_side_loops_back (24-control): expected NOT_EQUIVALENT. A loop on data in the shape of an
// if: `L: setp p, v > 1; @p bra T; bra.uni E; T: v = v / 2; bra.uni L; E:` (inline PTX): the
// taken side jumps back before the branch, so `while (v > 1) v /= 2` runs as many times as the
// data says. The reference halves once; they differ at v = 4 (1 vs 2). A merge that followed the
// taken side back to the branch would have to decide the loop on data.
// Launch: 1 CTA of 32 threads; a: 32 x float input; out: 32 x float.
extern "C" __global__ void c24_side_loops_back_ref(const float* a, float* out) {
  const float v = a[threadIdx.x];
  out[threadIdx.x] = v > 1.0f ? v * 0.5f : v;
}
extern "C" __global__ void c24_side_loops_back_opt(const float* a, float* out) {
  float v = a[threadIdx.x];
  asm volatile("{\n\t"
               ".reg .pred p;\n"
               "LOOP%=:\n\t"
               "setp.gt.f32 p, %0, 0f3F800000;\n\t"
               "@p bra HALVE%=;\n\t"
               "bra.uni END%=;\n"
               "HALVE%=:\n\t"
               "mul.f32 %0, %0, 0f3F000000;\n\t"
               "bra.uni LOOP%=;\n"
               "END%=:\n\t"
               "}"
               : "+f"(v));
  out[threadIdx.x] = v;
}
