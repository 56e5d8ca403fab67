// stencil3_tile_off_by_one — stencil3 through a shared-memory tile, with an off-by-one in the
// halo load: thread 1 fills tile[65] from in[66] instead of in[65] (the line marked BUG), so
// out[63] reads one element too far.
// Launch: block (64, 1, 1), grid (1, 1, 1), as stencil3 (in has 67 elements here).
// Verifier: NOT_EQUIVALENT to stencil3, out[63] differs; the report names the halo load line.
extern "C" __global__ void stencil3_tile_off_by_one(const float* in, float* out) {
  __shared__ float tile[66];
  int i = threadIdx.x;
  tile[i] = in[i];
  if (i < 2) {
    int h = 64 + i;
    tile[h] = in[h + i]; // BUG: in[h]
  }
  __syncthreads();
  float left = tile[i];
  float mid = tile[i + 1];
  float right = tile[i + 2];
  out[i] = left + 2.0f * mid + right;
}
