// c8_bar_arrive_producer (8-sync-cp-async): expected RACE_FREE: warp 0 writes then bar.arrive 1,64; warp 1 bar.sync 1,64 then reads: producer/consumer, ordered.
// Launch: 1 CTA of 64 threads; a: 64 x float input; out: 64 x float. Race check in examples/soundness/manifest.json.
extern "C" __global__ void c8_bar_arrive_producer(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 32) { s[i] = a[i]; asm volatile("bar.arrive 1, 64;" ::: "memory"); }
  else { asm volatile("bar.sync 1, 64;" ::: "memory"); out[i] = s[i - 32]; }
}
