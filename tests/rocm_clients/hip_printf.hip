/*
 * hip_printf.hip - device printf through HIP's hostcall buffer.
 *   hip_printf printf             six lines from two blocks of three threads
 *   hip_printf completion-action  the control: no printf, a kernel that only
 *                                 reads its hidden completion-action argument
 * HIP 5.2 treats a kernel whose metadata lists hidden_completion_action as
 * an OpenCL device-enqueue kernel (ROCclr sets dynamicParallelism from that
 * argument; later ROCclr skips it for HIP) and then crashes in its device
 * queue code. clang 19 lists it for every kernel that calls printf. The
 * control tells that crash (both modes fail alike) from a printf problem.
 */
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <string.h>

__global__ void say_hello(int base) {
  printf("device printf: block %d thread %d value %d\n", (int)blockIdx.x, (int)threadIdx.x,
         base + (int)(blockIdx.x * 10 + threadIdx.x));
}

/* Offset 40 of the code object v4 hidden arguments: completion action. */
__global__ void read_completion_action(unsigned long *out) {
  const unsigned long *hidden = (const unsigned long *)__builtin_amdgcn_implicitarg_ptr();
  *out = hidden[5];
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "printf") == 0) {
    hipLaunchKernelGGL(say_hello, dim3(2), dim3(3), 0, 0, 1000);
  } else if (argc == 2 && strcmp(argv[1], "completion-action") == 0) {
    unsigned long *d;
    if (hipMalloc((void **)&d, sizeof *d) != hipSuccess) return 2;
    hipLaunchKernelGGL(read_completion_action, dim3(1), dim3(1), 0, 0, d);
  } else {
    fprintf(stderr, "usage: %s printf|completion-action\n", argv[0]);
    return 2;
  }
  hipError_t e = hipDeviceSynchronize();
  printf("hip_printf: %s\n", hipGetErrorString(e));
  return e == hipSuccess ? 0 : 1;
}
