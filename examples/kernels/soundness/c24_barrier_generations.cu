// c24_barrier_generations (24-control): expected DATA_RACE. Warp 0 waits at a first
// `barrier.sync 0` (A) that warp 1 skips; warp 1 waits at the second one (B). A barrier is its
// id, not its instruction, so A and B complete together; then warp 0 reads s[63 - i] while warp 1
// (past B) overwrites it, and warp 0 waits at B again, released only when warp 1 exits. Nothing
// orders the read and the overwrite: a tool that matched barriers by instruction would take B as
// ordering them.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check.
extern "C" __global__ void c24_barrier_generations(const float* a, float* out) {
  __shared__ float s[64];
  const unsigned i = threadIdx.x;
  s[i] = a[i];
  float v = 0.0f;
  if (i < 32) {
    asm volatile("barrier.sync 0;" ::: "memory"); // A
    v = s[63 - i];
  }
  asm volatile("barrier.sync 0;" ::: "memory"); // B
  if (i >= 32)
    s[i] = 0.0f;
  out[i] = v;
}
