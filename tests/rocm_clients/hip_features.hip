/*
 * hip_features.hip - HIP (Debian's libamdhip64 5.2, unmodified) on this
 * runtime's libhsa-runtime64.so.1 and the virtual APU: each feature a HIP
 * program commonly uses, checked against a CPU reference, one
 * [PASS]/[FAIL] line per feature. Built by tests/rocm_clients/run.sh:
 *   clang++-19 -x hip --offload-arch=gfx902 --hip-path=/usr -mcode-object-version=4 ...
 * argv[1]: the code object for hipModuleLoad (hip_module_kernels.hip).
 *
 * The kernels ran on the GPU agent: the device is the virtual APU by name,
 * and the first kernel stores what only a wave64 AMDGPU produces (the
 * ballot of all its lanes).
 */
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void report(const char *name, int ok, const char *why) {
  if (ok)
    printf("[PASS] rocm_hip_%s\n", name);
  else {
    printf("[FAIL] rocm_hip_%s: %s\n", name, why);
    failures++;
  }
  fflush(stdout);
}

/* A HIP call that fails ends the feature with its error string. */
#define TRY(name, call)                                                    \
  do {                                                                     \
    hipError_t e_ = (call);                                                \
    if (e_ != hipSuccess) {                                                \
      char why_[256];                                                      \
      snprintf(why_, sizeof why_, "%s: %s", #call, hipGetErrorString(e_)); \
      report(name, 0, why_);                                               \
      return;                                                              \
    }                                                                      \
  } while (0)

#define CHECK(name, cond, ...)                    \
  do {                                            \
    if (!(cond)) {                                \
      char why_[256];                             \
      snprintf(why_, sizeof why_, __VA_ARGS__);   \
      report(name, 0, why_);                      \
      return;                                     \
    }                                             \
  } while (0)

/* ---- Device properties --------------------------------------------------- */

static void device_properties(void) {
  const char *t = "get_device_properties";
  int count = 0;
  TRY(t, hipGetDeviceCount(&count));
  CHECK(t, count == 1, "%d devices, want the one virtual APU", count);
  hipDeviceProp_t p;
  TRY(t, hipGetDeviceProperties(&p, 0));
  CHECK(t, strstr(p.name, "virtual APU") != NULL, "device name \"%s\"", p.name);
  CHECK(t, strncmp(p.gcnArchName, "gfx902", 6) == 0, "gcnArchName %s", p.gcnArchName);
  CHECK(t, p.warpSize == 64, "warpSize %d", p.warpSize);
  CHECK(t, p.multiProcessorCount >= 3 && p.multiProcessorCount <= 11, "%d CUs",
        p.multiProcessorCount);
  CHECK(t, p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", p.maxThreadsPerBlock);
  CHECK(t, p.sharedMemPerBlock == 65536, "sharedMemPerBlock %zu", p.sharedMemPerBlock);
  CHECK(t, p.totalGlobalMem >= (64u << 20), "totalGlobalMem %zu", p.totalGlobalMem);
  report(t, 1, "");
}

/* ---- Memory: malloc, memset, copies ------------------------------------- */

__global__ void scale_add(float *y, const float *x, float a, int n, unsigned long long *exec) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long lanes = __ballot(1); /* every lane of the wave, before any branch */
  if (i == 0) *exec = lanes;
  if (i < n) y[i] = a * x[i] + y[i];
}

static void memory_and_copies(void) {
  const char *t = "malloc_memset_memcpy";
  const int n = 100003; /* not a multiple of the block */
  float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
  float *dx, *dy, *dz;
  unsigned long long *dexec, exec = 0;
  for (int i = 0; i < n; i++) hx[i] = (float)(i % 1000) * 0.5f;
  TRY(t, hipMalloc((void **)&dx, n * sizeof(float)));
  TRY(t, hipMalloc((void **)&dy, n * sizeof(float)));
  TRY(t, hipMalloc((void **)&dz, n * sizeof(float)));
  TRY(t, hipMalloc((void **)&dexec, sizeof exec));
  TRY(t, hipMemcpy(dx, hx, n * sizeof(float), hipMemcpyHostToDevice));
  /* 0x3f800000 is 1.0f in every byte-quadruple: memset by bytes of 0x3f
   * would not give it, so set y to 0 by bytes and add 1.0f by kernel. */
  TRY(t, hipMemset(dy, 0, n * sizeof(float)));
  TRY(t, hipMemcpy(dz, dx, n * sizeof(float), hipMemcpyDeviceToDevice));
  hipLaunchKernelGGL(scale_add, dim3((n + 255) / 256), dim3(256), 0, 0, dy, dz, 3.0f, n, dexec);
  TRY(t, hipGetLastError());
  TRY(t, hipMemcpy(hy, dy, n * sizeof(float), hipMemcpyDeviceToHost));
  TRY(t, hipMemcpy(&exec, dexec, sizeof exec, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) CHECK(t, hy[i] == 3.0f * hx[i], "y[%d] = %g, want %g", i, hy[i], 3.0f * hx[i]);
  CHECK(t, exec == ~0ull, "EXEC of the first wave %#llx: not a full wave64 on the GPU", exec);
  /* hipMemset of a byte pattern, checked byte by byte. */
  TRY(t, hipMemset(dy, 0x5a, 1001));
  unsigned char bytes[1008];
  TRY(t, hipMemcpy(bytes, dy, sizeof bytes, hipMemcpyDeviceToHost));
  for (int i = 0; i < 1001; i++) CHECK(t, bytes[i] == 0x5a, "memset byte %d = %#x", i, bytes[i]);
  /* Async copies on a stream, then synchronize. */
  hipStream_t s;
  TRY(t, hipStreamCreate(&s));
  for (int i = 0; i < n; i++) hy[i] = -1.0f;
  TRY(t, hipMemcpyAsync(dz, hx, n * sizeof(float), hipMemcpyHostToDevice, s));
  TRY(t, hipMemcpyAsync(hy, dz, n * sizeof(float), hipMemcpyDeviceToHost, s));
  TRY(t, hipStreamSynchronize(s));
  CHECK(t, memcmp(hx, hy, n * sizeof(float)) == 0, "async round trip differs");
  TRY(t, hipStreamDestroy(s));
  TRY(t, hipFree(dx));
  TRY(t, hipFree(dy));
  TRY(t, hipFree(dz));
  TRY(t, hipFree(dexec));
  free(hx);
  free(hy);
  report(t, 1, "");
}

/* ---- Shared memory and __syncthreads ------------------------------------ */

#define RBLOCK 256
__global__ void block_sums(const int *in, long long *out, int n) {
  __shared__ long long part[RBLOCK];
  int i = blockIdx.x * RBLOCK + threadIdx.x;
  part[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = RBLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

/* Reverses each block through dynamic shared memory: wrong without the
 * barrier, since other waves' writes are read. */
__global__ void block_reverse(const int *in, int *out) {
  extern __shared__ int tile[];
  int base = blockIdx.x * blockDim.x;
  tile[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

static void shared_memory(void) {
  const char *t = "shared_memory_and_syncthreads";
  const int n = 50000, blocks = (n + RBLOCK - 1) / RBLOCK;
  int *h = (int *)malloc(n * sizeof(int)), *d, *dr;
  long long *dsum, *hsum = (long long *)malloc(blocks * sizeof(long long));
  for (int i = 0; i < n; i++) h[i] = (i * 37) % 1001 - 500;
  TRY(t, hipMalloc((void **)&d, n * sizeof(int)));
  TRY(t, hipMalloc((void **)&dsum, blocks * sizeof(long long)));
  TRY(t, hipMemcpy(d, h, n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(block_sums, dim3(blocks), dim3(RBLOCK), 0, 0, d, dsum, n);
  TRY(t, hipMemcpy(hsum, dsum, blocks * sizeof(long long), hipMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    long long want = 0;
    for (int i = b * RBLOCK; i < n && i < (b + 1) * RBLOCK; i++) want += h[i];
    CHECK(t, hsum[b] == want, "block %d sum %lld, want %lld", b, hsum[b], want);
  }
  const int rn = 512 * 40; /* 512 threads a block: 8 waves share the tile */
  int *hr = (int *)malloc(rn * sizeof(int));
  TRY(t, hipMalloc((void **)&dr, rn * sizeof(int)));
  hipLaunchKernelGGL(block_reverse, dim3(rn / 512), dim3(512), 512 * sizeof(int), 0, d, dr);
  TRY(t, hipGetLastError());
  TRY(t, hipMemcpy(hr, dr, rn * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < rn; i++) {
    int b = i / 512, k = i % 512;
    CHECK(t, hr[i] == h[b * 512 + 511 - k], "reversed[%d] = %d, want %d", i, hr[i], h[b * 512 + 511 - k]);
  }
  TRY(t, hipFree(d));
  TRY(t, hipFree(dr));
  TRY(t, hipFree(dsum));
  free(h);
  free(hr);
  free(hsum);
  report(t, 1, "");
}

/* ---- Atomics ------------------------------------------------------------- */

__global__ void histogram(const int *in, int n, unsigned *bins, int *max, float *fsum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&bins[in[i] & 15], 1u);
  atomicMax(max, in[i]);
  atomicAdd(fsum, 0.25f);
}

__global__ void cas_claim(int *owner, int *winners) {
  int me = blockIdx.x * blockDim.x + threadIdx.x;
  if (atomicCAS(owner, -1, me) == -1) atomicAdd(winners, 1);
}

static void atomics(void) {
  const char *t = "atomics";
  const int n = 65536;
  int *h = (int *)malloc(n * sizeof(int)), *d, *dmax, *downer, *dwin;
  unsigned *dbins, bins[16], want_bins[16] = {0};
  float *dfsum, fsum;
  int want_max = 0;
  for (int i = 0; i < n; i++) {
    h[i] = (int)((i * 2654435761u) >> 12);
    want_bins[h[i] & 15]++;
    if (h[i] > want_max) want_max = h[i];
  }
  TRY(t, hipMalloc((void **)&d, n * sizeof(int)));
  TRY(t, hipMalloc((void **)&dbins, sizeof bins));
  TRY(t, hipMalloc((void **)&dmax, sizeof(int)));
  TRY(t, hipMalloc((void **)&dfsum, sizeof(float)));
  TRY(t, hipMalloc((void **)&downer, sizeof(int)));
  TRY(t, hipMalloc((void **)&dwin, sizeof(int)));
  TRY(t, hipMemcpy(d, h, n * sizeof(int), hipMemcpyHostToDevice));
  TRY(t, hipMemset(dbins, 0, sizeof bins));
  TRY(t, hipMemset(dmax, 0, sizeof(int)));
  TRY(t, hipMemset(dfsum, 0, sizeof(float)));
  TRY(t, hipMemset(downer, 0xff, sizeof(int)));
  TRY(t, hipMemset(dwin, 0, sizeof(int)));
  hipLaunchKernelGGL(histogram, dim3(n / 256), dim3(256), 0, 0, d, n, dbins, dmax, dfsum);
  hipLaunchKernelGGL(cas_claim, dim3(64), dim3(128), 0, 0, downer, dwin);
  TRY(t, hipDeviceSynchronize());
  int max, owner, winners;
  TRY(t, hipMemcpy(bins, dbins, sizeof bins, hipMemcpyDeviceToHost));
  TRY(t, hipMemcpy(&max, dmax, sizeof max, hipMemcpyDeviceToHost));
  TRY(t, hipMemcpy(&fsum, dfsum, sizeof fsum, hipMemcpyDeviceToHost));
  TRY(t, hipMemcpy(&owner, downer, sizeof owner, hipMemcpyDeviceToHost));
  TRY(t, hipMemcpy(&winners, dwin, sizeof winners, hipMemcpyDeviceToHost));
  for (int b = 0; b < 16; b++) CHECK(t, bins[b] == want_bins[b], "bin %d: %u, want %u", b, bins[b], want_bins[b]);
  CHECK(t, max == want_max, "atomicMax %d, want %d", max, want_max);
  CHECK(t, fsum == 0.25f * n, "float atomicAdd %g, want %g", fsum, 0.25f * n); /* exact in binary */
  CHECK(t, winners == 1 && owner >= 0 && owner < 64 * 128, "atomicCAS: %d winners, owner %d", winners, owner);
  TRY(t, hipFree(d));
  TRY(t, hipFree(dbins));
  TRY(t, hipFree(dmax));
  TRY(t, hipFree(dfsum));
  TRY(t, hipFree(downer));
  TRY(t, hipFree(dwin));
  free(h);
  report(t, 1, "");
}

/* ---- Device globals: hipMemcpyToSymbol ------------------------------------ */

__device__ int coefficients[8];
__device__ int applied_count;

__global__ void polynomial(const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = 0;
  for (int k = 7; k >= 0; k--) v = v * x[i] + coefficients[k];
  y[i] = v;
  atomicAdd(&applied_count, 1);
}

static void device_globals(void) {
  const char *t = "device_globals_memcpy_to_symbol";
  const int n = 3000;
  int coeff[8] = {3, -1, 4, 1, -5, 9, 2, -6}, zero = 0;
  int *hx = (int *)malloc(n * sizeof(int)), *hy = (int *)malloc(n * sizeof(int)), *dx, *dy;
  for (int i = 0; i < n; i++) hx[i] = i % 7 - 3;
  TRY(t, hipMemcpyToSymbol(HIP_SYMBOL(coefficients), coeff, sizeof coeff));
  TRY(t, hipMemcpyToSymbol(HIP_SYMBOL(applied_count), &zero, sizeof zero));
  TRY(t, hipMalloc((void **)&dx, n * sizeof(int)));
  TRY(t, hipMalloc((void **)&dy, n * sizeof(int)));
  TRY(t, hipMemcpy(dx, hx, n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(polynomial, dim3((n + 127) / 128), dim3(128), 0, 0, dx, dy, n);
  TRY(t, hipMemcpy(hy, dy, n * sizeof(int), hipMemcpyDeviceToHost));
  int count = 0, back[8];
  TRY(t, hipMemcpyFromSymbol(&count, HIP_SYMBOL(applied_count), sizeof count));
  TRY(t, hipMemcpyFromSymbol(back, HIP_SYMBOL(coefficients), sizeof back));
  for (int i = 0; i < n; i++) {
    int v = 0;
    for (int k = 7; k >= 0; k--) v = v * hx[i] + coeff[k];
    CHECK(t, hy[i] == v, "p(%d) = %d, want %d", hx[i], hy[i], v);
  }
  CHECK(t, count == n, "the kernel counted %d items in a device global, want %d", count, n);
  CHECK(t, memcmp(back, coeff, sizeof back) == 0, "hipMemcpyFromSymbol differs");
  void *addr = NULL;
  size_t size = 0;
  TRY(t, hipGetSymbolAddress(&addr, HIP_SYMBOL(coefficients)));
  TRY(t, hipGetSymbolSize(&size, HIP_SYMBOL(coefficients)));
  CHECK(t, addr != NULL && size == sizeof coeff, "symbol at %p, %zu bytes", addr, size);
  TRY(t, hipFree(dx));
  TRY(t, hipFree(dy));
  free(hx);
  free(hy);
  report(t, 1, "");
}

/* ---- Streams and events -------------------------------------------------- */

/* Long enough that the consumer would see the old values without the wait. */
__global__ void slow_fill(int *a, int n, int value, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = 0;
  for (int r = 0; r < rounds; r++) v = (v * 31 + r) & 0xffff;
  a[i] = value + (v & 0);
}

__global__ void add_from(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

static void streams_and_events(void) {
  const char *t = "streams_events_wait_and_elapsed_time";
  const int n = 4096;
  int *a, *b, *h = (int *)malloc(n * sizeof(int));
  hipStream_t producer, consumer;
  hipEvent_t start, produced, stop;
  TRY(t, hipMalloc((void **)&a, n * sizeof(int)));
  TRY(t, hipMalloc((void **)&b, n * sizeof(int)));
  TRY(t, hipMemset(a, 0, n * sizeof(int)));
  TRY(t, hipMemset(b, 0, n * sizeof(int)));
  TRY(t, hipDeviceSynchronize());
  TRY(t, hipStreamCreateWithFlags(&producer, hipStreamNonBlocking));
  TRY(t, hipStreamCreateWithFlags(&consumer, hipStreamNonBlocking));
  TRY(t, hipEventCreate(&start));
  TRY(t, hipEventCreate(&produced));
  TRY(t, hipEventCreate(&stop));
  TRY(t, hipEventRecord(start, producer));
  hipLaunchKernelGGL(slow_fill, dim3(n / 64), dim3(64), 0, producer, a, n, 7, 2000);
  TRY(t, hipEventRecord(produced, producer));
  TRY(t, hipStreamWaitEvent(consumer, produced, 0));
  hipLaunchKernelGGL(add_from, dim3(n / 64), dim3(64), 0, consumer, b, a, n);
  TRY(t, hipEventRecord(stop, consumer));
  TRY(t, hipEventSynchronize(stop));
  TRY(t, hipMemcpy(h, b, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) CHECK(t, h[i] == 7, "b[%d] = %d: the consumer did not wait for the producer", i, h[i]);
  float ms = -1.0f, produce_ms = -1.0f;
  TRY(t, hipEventElapsedTime(&ms, start, stop));
  TRY(t, hipEventElapsedTime(&produce_ms, start, produced));
  CHECK(t, ms > 0.0f && ms < 60000.0f && produce_ms > 0.0f && produce_ms <= ms,
        "elapsed %g ms in all, %g ms to the producer's event", ms, produce_ms);
  CHECK(t, hipEventQuery(stop) == hipSuccess, "hipEventQuery of a finished event");
  TRY(t, hipEventDestroy(start));
  TRY(t, hipEventDestroy(produced));
  TRY(t, hipEventDestroy(stop));
  TRY(t, hipStreamDestroy(producer));
  TRY(t, hipStreamDestroy(consumer));
  TRY(t, hipFree(a));
  TRY(t, hipFree(b));
  free(h);
  report(t, 1, "");
}

/* ---- Registered host memory ---------------------------------------------- */

__global__ void square_in_place(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * a[i];
}

static void host_register(void) {
  const char *t = "host_register_get_device_pointer";
  const int n = 10000;
  int *h = (int *)malloc(n * sizeof(int)), *d = NULL;
  for (int i = 0; i < n; i++) h[i] = i - 5000;
  TRY(t, hipHostRegister(h, n * sizeof(int), hipHostRegisterDefault));
  TRY(t, hipHostGetDevicePointer((void **)&d, h, 0));
  CHECK(t, d != NULL, "no device pointer");
  hipLaunchKernelGGL(square_in_place, dim3((n + 255) / 256), dim3(256), 0, 0, d, n);
  TRY(t, hipDeviceSynchronize());
  for (int i = 0; i < n; i++) CHECK(t, h[i] == (i - 5000) * (i - 5000), "h[%d] = %d", i, h[i]);
  report(t, 1, "");
  /* hipHostUnregister is left to hip_host_unregister.hip: HIP 5.2 aborts in
   * it on a full-profile GPU agent (see that file). */
}

/* ---- hipModuleLoad + hipModuleLaunchKernel -------------------------------- */

static void module_launch(const char *path) {
  const char *t = "module_load_and_launch";
  hipModule_t module;
  hipFunction_t fn;
  TRY(t, hipModuleLoad(&module, path));
  TRY(t, hipModuleGetFunction(&fn, module, "module_axpb"));
  const int n = 777;
  int *hy = (int *)malloc(n * sizeof(int)), *dy;
  TRY(t, hipMalloc((void **)&dy, n * sizeof(int)));
  struct {
    int *y;
    int n, a, b;
  } args = {dy, n, 5, -3};
  size_t size = sizeof args;
  void *config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                    HIP_LAUNCH_PARAM_END};
  TRY(t, hipModuleLaunchKernel(fn, (n + 63) / 64, 1, 1, 64, 1, 1, 0, 0, NULL, config));
  TRY(t, hipMemcpy(hy, dy, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) CHECK(t, hy[i] == 5 * i - 3, "y[%d] = %d", i, hy[i]);
  /* The same kernel with kernelParams, and a module global read back. */
  int a = 2, b = 1;
  void *params[] = {&dy, (void *)&n, &a, &b};
  TRY(t, hipModuleLaunchKernel(fn, (n + 63) / 64, 1, 1, 64, 1, 1, 0, 0, params, NULL));
  TRY(t, hipMemcpy(hy, dy, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) CHECK(t, hy[i] == 2 * i + 1, "y[%d] = %d (kernelParams)", i, hy[i]);
  hipDeviceptr_t launches;
  size_t bytes = 0;
  TRY(t, hipModuleGetGlobal(&launches, &bytes, module, "module_launches"));
  int count = 0;
  TRY(t, hipMemcpy(&count, launches, sizeof count, hipMemcpyDeviceToHost));
  CHECK(t, bytes == sizeof(int) && count == 2, "module_launches %d (%zu bytes), want 2", count, bytes);
  hipFunction_t missing;
  CHECK(t, hipModuleGetFunction(&missing, module, "no_such_kernel") != hipSuccess,
        "a kernel the module lacks was found");
  TRY(t, hipFree(dy));
  TRY(t, hipModuleUnload(module));
  free(hy);
  report(t, 1, "");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODULE.co\n", argv[0]);
    return 2;
  }
  device_properties();
  memory_and_copies();
  shared_memory();
  atomics();
  device_globals();
  streams_and_events();
  host_register();
  module_launch(argv[1]);
  return failures ? 1 : 0;
}
