/*
 * pocl.c - pocl's CPU device through the OpenCL ICD loader: enqueue an
 * empty kernel (global size 1) and clFinish, per round trip.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <string.h>

#include "bench/bench.h"

static const char *source = "kernel void empty(void) {}";

void bench_pocl_kernel(struct samples *s) {
  cl_platform_id platforms[8];
  cl_uint np = 0;
  cl_device_id device = NULL;
  if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS) np = 0;
  for (cl_uint i = 0; i < np && !device; i++) {
    char name[128] = {0};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    if (strstr(name, "Portable Computing Language") &&
        clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, &device, NULL) != CL_SUCCESS)
      device = NULL;
  }
  if (!device) {
    s->note = "pocl's CPU device not found (Debian pocl-opencl-icd)";
    return;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  if (clBuildProgram(prog, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    s->note = "pocl could not build the empty kernel";
    return;
  }
  cl_kernel k = clCreateKernel(prog, "empty", &err);
  size_t global = 1;
  for (int i = 0; i < 200; i++) {
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    clFinish(q);
  }
  for (size_t i = 0; i < s->count; i++) {
    uint64_t t0 = bench_now_ns();
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    clFinish(q);
    s->ns[i] = bench_now_ns() - t0;
  }
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
