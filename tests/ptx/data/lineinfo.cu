#include <cstdint>
extern "C" __device__ float __symexpf(float);
__constant__ float cvals[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ int gtable[2][3] = {{1,2,3},{4,5,6}};
__device__ int* gptr = &gtable[1][0];
__device__ __noinline__ float helper(float x, int y) { return x * y + cvals[y & 3]; }
__global__ void __launch_bounds__(128, 2) k(float* out, const float* __restrict__ in, int n, double d) {
  extern __shared__ float dyn[];
  __shared__ float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    #pragma unroll 1
    for (int j = 0; j < n; ++j) v += __symexpf(v) * d;
    s[threadIdx.x % 64] = v;
    dyn[threadIdx.x] = v;
    __syncthreads();
    v += __shfl_xor_sync(0xffffffff, v, 1);
    out[i] = helper(v, i) + s[(threadIdx.x+1)%64] + dyn[0] + sinf(v) + (float)gtable[i&1][2] + *gptr;
    atomicAdd(out, v);
  }
}
