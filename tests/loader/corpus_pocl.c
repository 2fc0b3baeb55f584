/*
 * corpus_pocl.c - checks the kernel corpus table (tests/common/
 * kernel_corpus.c) against an independent executor: each OpenCL C kernel of
 * tests/kernels/ runs on PoCL's CPU device with the table's arguments and
 * geometry, and corpus_check() must accept the result. This is what makes
 * the CPU references trustworthy before the interpreter is compared with
 * them. C kernels and global_vars (an external variable PoCL cannot link)
 * are skipped, as are kernels needing an extension the device lacks.
 *
 * Usage: corpus-pocl KERNELS_SOURCE_DIR     (one [PASS]/[FAIL]/[SKIP] line each)
 */
#define CL_TARGET_OPENCL_VERSION 200
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/common/kernel_corpus.h"

static void *heap_alloc(void *ctx, size_t size) { return (void)ctx, malloc(size); }
static void heap_free(void *ctx, void *p) { (void)ctx, free(p); }

static char *read_source(const char *dir, const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.cl", dir, file);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = calloc(1, (size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) s[0] = '\0';
  fclose(f);
  return s;
}

/* Runs one kernel; returns 0 pass, 1 fail, 2 skip, with the reason in why. */
static int run(cl_context ctx, cl_device_id dev, cl_command_queue q, const char *dir,
               const struct corpus_kernel *k, char *why, size_t why_size) {
  char *source = read_source(dir, k->file);
  if (!source) return snprintf(why, why_size, "not OpenCL C"), 2;
  if (k->external_variable) {
    free(source);
    return snprintf(why, why_size, "needs external variable %s", k->external_variable), 2;
  }
  cl_int err;
  cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&source, NULL, &err);
  free(source);
  if (clBuildProgram(prog, 1, &dev, "-cl-std=CL2.0", NULL, NULL) != CL_SUCCESS) {
    char log[400] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    clReleaseProgram(prog);
    return snprintf(why, why_size, "PoCL cannot build it (its messages are above): %.150s", log), 2;
  }
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)(strlen(k->symbol) - 3), k->symbol); /* drop ".kd" */
  cl_kernel kernel = clCreateKernel(prog, name, &err);
  struct corpus_alloc alloc = {heap_alloc, heap_free, NULL};
  struct corpus_dispatch d;
  if (err != CL_SUCCESS || !corpus_setup(k, &alloc, &d)) {
    clReleaseProgram(prog);
    return snprintf(why, why_size, "no kernel %s or no memory", name), 1;
  }
  cl_mem mem[CORPUS_MAX_BUFFERS];
  for (uint32_t b = 0; b < d.buffer_count; b++)
    mem[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, d.buffer_sizes[b],
                            d.buffers[b], &err);
  for (uint32_t a = 0; a < d.arg_count; a++) {
    const struct corpus_arg *arg = &d.args[a];
    if (arg->kind == CORPUS_ARG_BUFFER)
      clSetKernelArg(kernel, a, sizeof(cl_mem), &mem[arg->index]);
    else if (arg->kind == CORPUS_ARG_U32)
      clSetKernelArg(kernel, a, 4, &arg->u32);
    else
      clSetKernelArg(kernel, a, 4, &arg->f32);
  }
  size_t global[3] = {d.grid[0], d.grid[1], d.grid[2]};
  size_t local[3] = {d.workgroup[0], d.workgroup[1], d.workgroup[2]};
  err = clEnqueueNDRangeKernel(q, kernel, d.dims, NULL, global, local, 0, NULL, NULL);
  if (err == CL_INVALID_WORK_GROUP_SIZE) {
    /* A device without OpenCL 2.0 non-uniform work-groups: round the grid
     * up. The corpus kernels check their bounds, so the results are the
     * same (and corpus_check would say if not). */
    for (uint32_t i = 0; i < d.dims; i++)
      global[i] = (global[i] + local[i] - 1) / local[i] * local[i];
    err = clEnqueueNDRangeKernel(q, kernel, d.dims, NULL, global, local, 0, NULL, NULL);
  }
  for (uint32_t b = 0; err == CL_SUCCESS && b < d.buffer_count; b++)
    err =
        clEnqueueReadBuffer(q, mem[b], CL_TRUE, 0, d.buffer_sizes[b], d.buffers[b], 0, NULL, NULL);
  int result = 0;
  if (err != CL_SUCCESS)
    result = 1, snprintf(why, why_size, "OpenCL error %d", err);
  else if (!corpus_check(&d, why, why_size))
    result = 1;
  for (uint32_t b = 0; b < d.buffer_count; b++) clReleaseMemObject(mem[b]);
  corpus_release(&d);
  clReleaseKernel(kernel);
  clReleaseProgram(prog);
  return result;
}

int main(int argc, char **argv) {
  cl_platform_id platform;
  cl_device_id dev;
  cl_uint n = 0;
  if (argc != 2) return fprintf(stderr, "usage: corpus-pocl KERNELS_SOURCE_DIR\n"), 2;
  if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0 ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL) != CL_SUCCESS) {
    printf("[FAIL] corpus_pocl: no OpenCL CPU device (pocl-opencl-icd installed?)\n");
    return 1;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  int failures = 0;
  for (uint32_t i = 0; i < corpus_kernel_count; i++) {
    char why[300] = "";
    int r = run(ctx, dev, q, argv[1], &corpus_kernels[i], why, sizeof why);
    const char *tag = r == 0 ? "PASS" : r == 1 ? "FAIL" : "SKIP";
    printf("[%s] corpus_reference_%s%s%s\n", tag, corpus_kernels[i].file, r ? ": " : "",
           r ? why : "");
    failures += r == 1;
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return failures != 0;
}
