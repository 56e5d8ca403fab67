// c5_activemask_value: __activemask() is the set of lanes a GPU happens to run together, which
// its scheduler decides: after the if/else below the lanes usually reconverge (32), but nothing
// guarantees it (independent thread scheduling may run the two halves apart, 16 each).
// A lockstep model gives 32 and would call the pair EQUIVALENT; the value is refused
// (UNSUPPORTED) wherever it is read as anything but a warp collective's member mask.
extern "C" __global__ void c5_activemask_value_ref(const int* a, int* out) {
  int t = threadIdx.x;
  int x;
  if (t < 16)
    x = a[t] + 1;
  else
    x = a[t] - 1;
  out[t] = x + __popc(__activemask());
}

extern "C" __global__ void c5_activemask_value_opt(const int* a, int* out) {
  int t = threadIdx.x;
  int x;
  if (t < 16)
    x = a[t] + 1;
  else
    x = a[t] - 1;
  out[t] = x + 32;
}

// The same value steering a branch.
extern "C" __global__ void c5_activemask_branch_ref(const int* a, int* out) {
  int t = threadIdx.x;
  int x = t < 16 ? a[t] : -a[t];
  if (__activemask() == 0xffffffffu)
    out[t] = x;
  else
    out[t] = 0;
}

extern "C" __global__ void c5_activemask_branch_opt(const int* a, int* out) {
  int t = threadIdx.x;
  out[t] = t < 16 ? a[t] : -a[t];
}
