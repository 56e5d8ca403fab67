// c8_bar_arrive_then_read (8-sync-cp-async): expected DATA_RACE: bar.arrive does not wait: warp 0 reads s[] that warp 1 writes before its bar.sync.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_bar_arrive_then_read(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 32) { asm volatile("bar.arrive 1, 64;" ::: "memory"); out[i] = s[i]; }
  else { s[i - 32] = a[i]; asm volatile("bar.sync 1, 64;" ::: "memory"); }
}
