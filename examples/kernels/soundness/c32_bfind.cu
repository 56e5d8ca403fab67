// c32_bfind (32-instruction-table): bfind, the worked example of "Adding a PTX instruction"
// (docs/architecture.md). nvcc emits it for __ffs (brev, then bfind.shiftamt.u32), the lowest
// set bit of a ballot in warp-level code; the other forms (signed, 64-bit, without .shiftamt) are
// written with inline PTX. Inputs are masked so that the edges come up in random inputs: 0 (no
// bit: 0xffffffff, and __ffs's 0) and -1 (a signed operand without a non-sign bit).
// Launch: 1 CTA of 64 threads (c32_ffs_pairs: 32 threads); x: 64 x u32, y: 64 x s64 inputs.

// __ffs of one element per thread, against two elements per thread: the same values.
// Expected EQUIVALENT.
extern "C" __global__ void c32_ffs_one(const unsigned* x, int* out) {
  unsigned i = threadIdx.x;
  out[i] = __ffs(x[i] & 0xF0F0u);
}
extern "C" __global__ void c32_ffs_pairs(const unsigned* x, int* out) {
  unsigned i = 2 * threadIdx.x;
  out[i] = __ffs(x[i] & 0xF0F0u);
  out[i + 1] = __ffs(x[i + 1] & 0xF0F0u);
}
// The lowest set bit against the highest one (32 - __clz): equal only where at most one bit is
// set. Expected NOT_EQUIVALENT.
extern "C" __global__ void c32_highest_bit(const unsigned* x, int* out) {
  unsigned i = threadIdx.x;
  out[i] = 32 - __clz(x[i] & 0xF0F0u);
}

__device__ unsigned bfind_s32(int v) {
  unsigned r;
  asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}
__device__ unsigned bfind_shiftamt_s32(int v) {
  unsigned r;
  asm("bfind.shiftamt.s32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}
__device__ unsigned bfind_u64(unsigned long long v) {
  unsigned r;
  asm("bfind.u64 %0, %1;" : "=r"(r) : "l"(v));
  return r;
}
__device__ unsigned bfind_shiftamt_s64(long long v) {
  unsigned r;
  asm("bfind.shiftamt.s64 %0, %1;" : "=r"(r) : "l"(v));
  return r;
}

// Every form on data, each thread storing its own four words. Expected RACE_FREE; its outputs
// are compared with the emulator's (tests/emulate/differential_test.cpp).
extern "C" __global__ void c32_bfind_forms(const unsigned* x, const long long* y, unsigned* out) {
  unsigned i = threadIdx.x;
  const int s = static_cast<int>(x[i] | 0xFFFFFFF0u); // negative; -1 one time in 16
  out[4 * i] = bfind_s32(i % 2 ? s : static_cast<int>(x[i] & 0xF00u));
  out[4 * i + 1] = bfind_shiftamt_s32(i % 2 ? s : static_cast<int>(x[i] & 0x7F00u));
  out[4 * i + 2] = bfind_u64(static_cast<unsigned long long>(y[i]) & 0xF0000000F0ull);
  out[4 * i + 3] = bfind_shiftamt_s64(i % 3 ? y[i] : (y[i] | ~0xFll));
}
