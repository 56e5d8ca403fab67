// d13_nan_path_race (13-domains, race check): a branch on `q != q` with q = x / y. Over the reals
// the test is false, but at x = y = 0 the device computes NaN and every thread stores to out[0]
// with its own value: a write-write race. A race check has no reference whose domain could be
// assumed, so RACE_FREE must not be claimed (UNKNOWN is the honest answer of a tool that
// decides the branch over the reals).
// Launch: 1 CTA of 32 threads; x, y: 32 x float inputs; out: 32 x f32.
extern "C" __global__ void d13_nan_path_race(const float* x, const float* y, float* out) {
  const unsigned i = threadIdx.x;
  const float q = x[i] / y[i];
  if (q != q)
    out[0] = x[i];
  else
    out[i] = q;
}
