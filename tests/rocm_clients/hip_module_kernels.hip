/*
 * hip_module_kernels.hip - the code object hip_features loads with
 * hipModuleLoad (built alone, device code only, as `hipcc --genco` would):
 * a kernel found by its unmangled name and a global it counts launches in.
 */
#include <hip/hip_runtime.h>

__device__ int module_launches;

extern "C" __global__ void module_axpb(int *y, int n, int a, int b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) atomicAdd(&module_launches, 1);
  if (i < n) y[i] = a * i + b;
}
