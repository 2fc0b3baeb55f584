/*
 * hip_host_unregister.hip - hipHostRegister, a kernel on the device
 * pointer, then hipHostUnregister. HIP 5.2 files a registered buffer in
 * its memory-object map under the device address and under the host
 * address (hip_memory.cpp, hipHostRegister) and removes both on
 * unregister, aborting when a removal finds nothing ("Memobj map does not
 * have ptr", ROCclr MemObjMap::RemoveMemObj). On a full-profile GPU agent
 * ROCclr takes the host address as the device address (roc::Buffer::create:
 * no hsa_amd_memory_lock at all), so both keys are one and the second
 * removal aborts: HIP needs a base-profile agent whose lock returns an
 * alias address. run.sh reports what this HIP does.
 */
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>

__global__ void add_one(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}

int main(void) {
  const int n = 4096;
  int *h = (int *)malloc(n * sizeof(int)), *d = NULL;
  for (int i = 0; i < n; i++) h[i] = i;
  if (hipHostRegister(h, n * sizeof(int), hipHostRegisterDefault) != hipSuccess) return 2;
  if (hipHostGetDevicePointer((void **)&d, h, 0) != hipSuccess) return 3;
  printf("hip_host_unregister: host %p, device %p\n", (void *)h, (void *)d);
  hipLaunchKernelGGL(add_one, dim3(n / 64), dim3(64), 0, 0, d, n);
  if (hipDeviceSynchronize() != hipSuccess) return 4;
  for (int i = 0; i < n; i++)
    if (h[i] != i + 1) return 5;
  fflush(stdout);
  hipError_t e = hipHostUnregister(h);
  printf("hip_host_unregister: hipHostUnregister returned %s\n", hipGetErrorString(e));
  free(h);
  return e == hipSuccess ? 0 : 6;
}
