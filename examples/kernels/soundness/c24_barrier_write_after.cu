// c24_barrier_write_after (24-control): expected DATA_RACE. Both sides of an if/else reach
// `barrier.sync 0` (one barrier, from two instructions), but the odd lanes write s[i] only after
// theirs: the barrier orders what comes before it, and the even lanes' reads of odd lanes'
// elements after it are unordered with those writes.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check.
extern "C" __global__ void c24_barrier_write_after(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  if (i & 1) {
    asm volatile("barrier.sync 0;" ::: "memory");
    s[i] = a[i] * 3.0f;
  } else {
    s[i] = a[i] + 1.0f;
    asm volatile("barrier.sync 0;" ::: "memory");
  }
  out[i] = s[i ^ 1];
}
