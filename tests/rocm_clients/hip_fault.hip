/*
 * hip_fault.hip - a HIP kernel that stores to an address nothing maps.
 * The runtime stops that queue and calls its error callback with
 * HSA_STATUS_ERROR_MEMORY_FAULT, as ROCr does; HIP 5.2's callback
 * (ROCclr rocdevice.cpp, callbackQueue) prints the status and aborts the
 * process: HIP has no error return for a faulting kernel. run.sh checks
 * that the run ends that way, with HIP's message naming the fault, and
 * neither hangs nor crashes elsewhere.
 */
#include <hip/hip_runtime.h>

#include <stdio.h>

__global__ void store_to(int *p, int *ok) {
  if (threadIdx.x == 0) *ok = 1;
  p[threadIdx.x] = 42;
}

int main(void) {
  int *ok, h = 0;
  if (hipMalloc((void **)&ok, sizeof(int)) != hipSuccess) return 2;
  /* First a good dispatch: the device works. */
  int *good;
  if (hipMalloc((void **)&good, 64 * sizeof(int)) != hipSuccess) return 2;
  hipLaunchKernelGGL(store_to, dim3(1), dim3(64), 0, 0, good, ok);
  if (hipMemcpy(&h, ok, sizeof h, hipMemcpyDeviceToHost) != hipSuccess || h != 1) return 3;
  printf("hip_fault: a good kernel ran; now one that stores to 0x1000\n");
  fflush(stdout);
  hipLaunchKernelGGL(store_to, dim3(1), dim3(64), 0, 0, (int *)0x1000, ok);
  hipError_t e = hipDeviceSynchronize();
  printf("hip_fault: hipDeviceSynchronize returned %s\n", hipGetErrorString(e));
  return e == hipSuccess ? 4 : 0;
}
