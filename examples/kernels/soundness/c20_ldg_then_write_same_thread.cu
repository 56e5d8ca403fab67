// c20_ldg_then_write_same_thread (20-memory-formats): expected DATA_RACE: each thread reads x[i] through the non-coherent path and then writes x[i]; the kernel writes data it reads through ld.global.nc, which the read-only data cache does not keep coherent (even when the write comes later).
// Launch: 1 CTA of 32 threads; x: 32 x float (inout). Race check in examples/soundness/manifest.json.
extern "C" __global__ void c20_ldg_then_write_same_thread(float* x) {
  unsigned i = threadIdx.x;
  x[i] = __ldg(&x[i]) * 2.0f;
}
