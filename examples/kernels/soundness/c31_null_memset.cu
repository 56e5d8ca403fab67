// c31_null_memset (c31_races): expected OUT_OF_BOUNDS.
// Every thread clears 16 bytes at a null pointer with memset (the parameter p is 0).
// Launch: 1 CTA of 32 threads; p: null.
extern "C" __global__ void c31_null_memset(char* p, int n) {
  memset(p, 0, n);
}
