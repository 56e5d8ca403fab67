// atom.inc / atom.dec whose result is unused, on counters that hold data (inout) and with a
// limit that is a parameter: every contribution applies the same function, so the final value
// is the same in every order. The optimized kernels visit the counters in another thread order.
extern "C" __global__ void inc_ref(unsigned* c, unsigned limit) {
  atomicInc(&c[threadIdx.x % 4], limit);
}
extern "C" __global__ void inc_reordered(unsigned* c, unsigned limit) {
  atomicInc(&c[(31 - threadIdx.x) % 4], limit);
}
extern "C" __global__ void dec_ref(unsigned* c, unsigned limit) {
  atomicDec(&c[threadIdx.x % 4], limit);
}
extern "C" __global__ void dec_reordered(unsigned* c, unsigned limit) {
  atomicDec(&c[(35 - threadIdx.x) % 4], limit);
}
// Mutant: one thread too many increments counter 0.
extern "C" __global__ void inc_extra(unsigned* c, unsigned limit) {
  atomicInc(&c[threadIdx.x % 4], limit);
  if (threadIdx.x == 0) atomicInc(&c[0], limit);
}
// Mutant: a different limit on one counter (the same function no longer).
extern "C" __global__ void inc_other_limit(unsigned* c, unsigned limit) {
  atomicInc(&c[threadIdx.x % 4], threadIdx.x % 4 == 1 ? limit + 1 : limit);
}
