// c31_null_memcpy (c31_races): expected OUT_OF_BOUNDS.
// Every thread copies its own 16 bytes of a to a null pointer with memcpy (the parameter p is 0):
// the lanes store different bytes to one location, which is out of bounds before it is a race.
// Launch: 1 CTA of 32 threads; p: null; a: 128 x float input.
extern "C" __global__ void c31_null_memcpy(char* p, const char* a, int n) {
  memcpy(p, a + 16 * threadIdx.x, n);
}
