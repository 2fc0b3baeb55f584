/*
 * kernels.c - `make bench` (bench-kernels): real kernels on a CPU agent,
 * one source for every agent against the alternatives:
 *
 *   OpenCL C  the .cl file built by tools/hsacc, loaded for the CPU agent
 *             through the HSA API (code object reader, executable), its
 *             GPU-layout kernarg filled once, dispatched per run
 *   hand C    an HSA_CPU_KERNEL C function doing the same work, same grid
 *             and work-group sizes, same dispatch code
 *   pocl      pocl's CPU device (OpenCL ICD) running the same .cl, same
 *             global and local sizes
 *
 * Kernels: the demo's saxpy and block_sum (apps/demo/demo_kernels.cl) and
 * the tiled matrix multiply (tests/kernels/matmul_tiled.cl). Each run is
 * timed from enqueue to completion (HSA: packet written to completion
 * signal, blocked wait; OpenCL: clEnqueueNDRangeKernel to clFinish); the
 * inputs are restored and the outputs poisoned before every run, untimed,
 * and after the last run every variant's output is compared with the
 * program's own computation. A mismatch prints a FAILED line and the
 * program exits 1; missed aims are figures, not failures.
 *
 * Usage: bench-kernels DEMO.hsaco MATMUL.hsaco DEMO.cl MATMUL.cl [runs]  (default 5)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <hsa/hsa.h>
#include <hsa/hsa_cpu_kernel.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_kernarg_hidden.h>
#include <math.h>
#include <stdbool.h>
#include <unistd.h>

#include "bench/bench.h"
#include "support/program.h"

#define SAXPY_ITEMS (1u << 24) /* 16 Mi floats: 64 MiB in, 64 MiB in/out */
#define SUM_ITEMS   (1u << 22) /* 4 Mi integers, 16 Ki work-groups */
#define SUM_GROUP   256u       /* block_sum's __local array size */
#define MATMUL_N    384u       /* n x n floats, 2.3 MiB per matrix */
#define MATMUL_TILE 8u         /* matmul_tiled.cl's TILE */
#define WAIT_NS     120000000000ull

/* The kernels' arguments at OpenCL's offsets (each at its natural
 * alignment), as the GPU code object's metadata places them. */
struct saxpy_args {
  float a;
  const float *x;
  float *y;
  uint32_t n;
};
struct block_sum_args {
  const int32_t *in;
  int32_t *sums;
  uint32_t n;
};
struct matmul_args {
  const float *a, *b;
  float *c;
  uint32_t n;
};

/* ---- The hand-written C versions --------------------------------------------- */

HSA_CPU_KERNEL(bench_saxpy_c, sizeof(struct saxpy_args)) {
  const struct saxpy_args *k = hsa_dispatch->kernarg;
  uint32_t first = hsa_dispatch->global_offset[0], end = first + hsa_dispatch->item_count[0];
  if (end > k->n) end = k->n;
  for (uint32_t i = first; i < end; i++) k->y[i] = k->a * k->x[i] + k->y[i];
}

HSA_CPU_KERNEL(bench_block_sum_c, sizeof(struct block_sum_args)) {
  const struct block_sum_args *k = hsa_dispatch->kernarg;
  uint32_t first = hsa_dispatch->global_offset[0], end = first + hsa_dispatch->item_count[0];
  if (end > k->n) end = k->n;
  int32_t sum = 0;
  for (uint32_t i = first; i < end; i++) sum += k->in[i];
  k->sums[hsa_dispatch->workgroup_id[0]] = sum;
}

/* One TILE x TILE block of C per work-group, each element summed over k
 * in increasing order like the OpenCL C kernel. */
HSA_CPU_KERNEL(bench_matmul_c, sizeof(struct matmul_args)) {
  const struct matmul_args *k = hsa_dispatch->kernarg;
  uint32_t n = k->n, col0 = hsa_dispatch->global_offset[0], row0 = hsa_dispatch->global_offset[1];
  uint32_t cols = hsa_dispatch->item_count[0], rows = hsa_dispatch->item_count[1];
  for (uint32_t r = row0; r < row0 + rows; r++) {
    float acc[MATMUL_TILE] = {0};
    for (uint32_t i = 0; i < n; i++) {
      float a = k->a[r * n + i];
      const float *b = &k->b[i * n + col0];
      for (uint32_t c = 0; c < cols; c++) acc[c] += a * b[c];
    }
    for (uint32_t c = 0; c < cols; c++) k->c[r * n + col0 + c] = acc[c];
  }
}

/* ---- The work: inputs, reference, checks ----------------------------------- */

enum { SAXPY, BLOCK_SUM, MATMUL, KERNELS };
enum { V_OPENCL_C, V_HAND_C, V_POCL, VARIANTS };
static const char *const kernel_names[KERNELS] = {"saxpy", "block_sum", "matmul_tiled"};
static const char *const variant_names[VARIANTS] = {"OpenCL C (hsacc)", "hand-written C", "pocl"};

struct work {
  uint32_t dims, grid[2], group[2];
  size_t in_bytes[2], out_bytes; /* inputs 0 and 1; the output */
  const void *in0, *in1;         /* pristine inputs */
  const void *out_init;          /* the output's initial contents (saxpy's y), or NULL */
  void *want;                    /* the reference result */
  double *tolerance;             /* per element (floats), NULL: exact */
};

static float hash_float(uint32_t i) { /* in [-1, 1), exact in a float */
  return (float)((int32_t)(i * 2654435761u >> 8) % 4096) / 4096.0f;
}

static void make_work(struct work w[KERNELS]) {
  /* saxpy: y = 2.5 x + y */
  float *x = malloc(SAXPY_ITEMS * 4), *y0 = malloc(SAXPY_ITEMS * 4), *ys = malloc(SAXPY_ITEMS * 4);
  double *ytol = malloc(SAXPY_ITEMS * sizeof(double));
  EXPECT(x && y0 && ys && ytol, "out of memory");
  for (uint32_t i = 0; i < SAXPY_ITEMS; i++) {
    x[i] = (float)(i % 1000) * 0.5f;
    y0[i] = (float)(i % 77) - 30.0f;
    double exact = 2.5 * (double)x[i] + (double)y0[i];
    ys[i] = (float)exact;
    ytol[i] = 2e-7 * fmax(1.0, fabs(exact)); /* one rounding (a fused multiply-add or not) */
  }
  w[SAXPY] = (struct work){
      1, {SAXPY_ITEMS, 1}, {256, 1}, {SAXPY_ITEMS * 4, 0}, SAXPY_ITEMS * 4, x, NULL, y0, ys, ytol};

  /* block_sum: one integer sum per group of 256, exact */
  uint32_t groups = SUM_ITEMS / SUM_GROUP;
  int32_t *in = malloc(SUM_ITEMS * 4), *sums = calloc(groups, 4);
  EXPECT(in && sums, "out of memory");
  for (uint32_t i = 0; i < SUM_ITEMS; i++) in[i] = (int32_t)(i * 2654435761u >> 20) - 2048;
  for (uint32_t i = 0; i < SUM_ITEMS; i++) sums[i / SUM_GROUP] += in[i];
  w[BLOCK_SUM] = (struct work){
      1,   {SUM_ITEMS, 1}, {SUM_GROUP, 1}, {SUM_ITEMS * 4, 0}, groups * 4, in, NULL, NULL, sums,
      NULL};

  /* matmul: C = A B in double; each float result within n roundings of
   * the sum of |a||b| (the error bound of a float dot product). */
  uint32_t n = MATMUL_N;
  float *a = malloc(n * n * 4), *b = malloc(n * n * 4), *c = malloc(n * n * 4);
  double *ctol = malloc(n * n * sizeof(double)), *row = malloc(n * sizeof(double)),
         *absrow = malloc(n * sizeof(double));
  EXPECT(a && b && c && ctol && row && absrow, "out of memory");
  for (uint32_t i = 0; i < n * n; i++) {
    a[i] = hash_float(i);
    b[i] = hash_float(i + 7919u * 7919u);
  }
  for (uint32_t r = 0; r < n; r++) {
    for (uint32_t j = 0; j < n; j++) row[j] = absrow[j] = 0;
    for (uint32_t i = 0; i < n; i++)
      for (uint32_t j = 0; j < n; j++) {
        row[j] += (double)a[r * n + i] * b[i * n + j];
        absrow[j] += fabs((double)a[r * n + i] * b[i * n + j]);
      }
    for (uint32_t j = 0; j < n; j++) {
      c[r * n + j] = (float)row[j];
      ctol[r * n + j] = (double)n * 6e-8 * absrow[j] + 1e-30;
    }
  }
  free(row);
  free(absrow);
  w[MATMUL] = (struct work){
      2, {n, n}, {MATMUL_TILE, MATMUL_TILE}, {n * n * 4, n * n * 4}, n * n * 4, a, b, NULL,
      c, ctol};
}

/* Puts the output back to its initial contents (or poisons it: NaNs and
 * negative integers no kernel writes here) before a run. */
static void reset_output(const struct work *w, void *out) {
  if (w->out_init)
    memcpy(out, w->out_init, w->out_bytes);
  else
    memset(out, 0xff, w->out_bytes);
}

/* Compares a variant's output with the reference; prints and returns the
 * number of wrong elements. */
static size_t check_output(int kernel, int variant, const struct work *w, const void *got) {
  size_t count = w->out_bytes / 4, bad = 0;
  for (size_t i = 0; i < count; i++) {
    bool ok;
    if (w->tolerance) {
      float g = ((const float *)got)[i], e = ((const float *)w->want)[i];
      ok = fabs((double)g - (double)e) <= w->tolerance[i];
      if (!ok && bad < 3)
        printf("  %s/%s: [%zu] = %.9g, expected %.9g\n", kernel_names[kernel],
               variant_names[variant], i, g, e);
    } else {
      int32_t g = ((const int32_t *)got)[i], e = ((const int32_t *)w->want)[i];
      ok = g == e;
      if (!ok && bad < 3)
        printf("  %s/%s: [%zu] = %d, expected %d\n", kernel_names[kernel], variant_names[variant],
               i, g, e);
    }
    bad += !ok;
  }
  if (bad)
    printf("bench-kernels: FAILED: %s on %s: %zu of %zu results wrong\n", kernel_names[kernel],
           variant_names[variant], bad, count);
  return bad;
}

/* ---- HSA: the CPU agent --------------------------------------------------------- */

struct hsa_side {
  hsa_agent_t agent;
  uint32_t cores;
  char name[64];
  hsa_amd_memory_pool_t kernarg_pool;
  hsa_queue_t *queue;
  hsa_signal_t done;
  hsa_executable_t exec[2]; /* demo, matmul */
};

static hsa_status_t first_cpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  if (type != HSA_DEVICE_TYPE_CPU) return HSA_STATUS_SUCCESS;
  *(hsa_agent_t *)data = agent;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t kernarg_pool(hsa_amd_memory_pool_t pool, void *data) {
  if (!(program_pool_global_flags(pool) & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT))
    return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = pool;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_executable_t load_for_agent(hsa_agent_t agent, const char *path) {
  size_t size;
  void *file = program_read_file(path, &size);
  hsa_code_object_reader_t reader;
  hsa_executable_t exec;
  CHECK(hsa_code_object_reader_create_from_memory(file, size, &reader));
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &exec));
  CHECK(hsa_executable_load_agent_code_object(exec, agent, reader, NULL, NULL));
  CHECK(hsa_executable_freeze(exec, NULL));
  CHECK(hsa_code_object_reader_destroy(reader));
  free(file);
  return exec;
}

static void hsa_side_open(struct hsa_side *h, const char *demo_path, const char *matmul_path) {
  CHECK(hsa_init());
  EXPECT(hsa_iterate_agents(first_cpu, &h->agent) == HSA_STATUS_INFO_BREAK, "no CPU agent");
  CHECK(hsa_agent_get_info(h->agent, HSA_AGENT_INFO_NAME, h->name));
  CHECK(hsa_agent_get_info(h->agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT,
                           &h->cores));
  CHECK(hsa_amd_agent_iterate_memory_pools(h->agent, kernarg_pool, &h->kernarg_pool));
  EXPECT(h->kernarg_pool.handle, "%s has no kernarg pool", h->name);
  CHECK(hsa_queue_create(h->agent, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX,
                         &h->queue));
  CHECK(hsa_signal_create(1, 0, NULL, &h->done));
  h->exec[0] = load_for_agent(h->agent, demo_path);
  h->exec[1] = load_for_agent(h->agent, matmul_path);
}

static void hsa_side_close(struct hsa_side *h) {
  for (int i = 0; i < 2; i++) CHECK(hsa_executable_destroy(h->exec[i]));
  CHECK(hsa_signal_destroy(h->done));
  CHECK(hsa_queue_destroy(h->queue));
  CHECK(hsa_shut_down());
}

/* ---- pocl --------------------------------------------------------------------------- */

struct pocl_side {
  cl_device_id device;
  cl_uint units;
  char version[128];
  cl_context ctx;
  cl_command_queue queue;
  cl_program prog[2]; /* demo, matmul */
};

#define CL_CHECK(call)                                                          \
  do {                                                                          \
    cl_int err_ = (call);                                                       \
    EXPECT(err_ == CL_SUCCESS, "%s failed: OpenCL error %d", #call, (int)err_); \
  } while (0)

static cl_program pocl_build(struct pocl_side *c, const char *path) {
  size_t size;
  char *text = program_read_file(path, &size);
  const char *source = text;
  cl_int err;
  cl_program prog = clCreateProgramWithSource(c->ctx, 1, &source, &size, &err);
  CL_CHECK(err);
  if (clBuildProgram(prog, 1, &c->device, "", NULL, NULL) != CL_SUCCESS) {
    char log[4096] = {0};
    clGetProgramBuildInfo(prog, c->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    EXPECT(false, "pocl could not build %s:\n%s", path, log);
  }
  free(text);
  return prog;
}

/* Returns false (with s->note set) without pocl's CPU device. */
static bool pocl_side_open(struct pocl_side *c, const char *demo_cl, const char *matmul_cl) {
  cl_platform_id platforms[8];
  cl_uint np = 0;
  if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS) np = 0;
  for (cl_uint i = 0; i < np && !c->device; i++) {
    char name[128] = {0};
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    if (strstr(name, "Portable Computing Language") &&
        clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, &c->device, NULL) != CL_SUCCESS)
      c->device = NULL;
    if (c->device)
      clGetPlatformInfo(platforms[i], CL_PLATFORM_VERSION, sizeof c->version - 1, c->version, NULL);
  }
  if (!c->device) return false;
  char *cut = strstr(c->version, "  "); /* "OpenCL 3.0 PoCL 3.1+debian  Linux, ...": the release */
  if (cut) *cut = 0;
  CL_CHECK(
      clGetDeviceInfo(c->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof c->units, &c->units, NULL));
  cl_int err;
  c->ctx = clCreateContext(NULL, 1, &c->device, NULL, NULL, &err);
  CL_CHECK(err);
  c->queue = clCreateCommandQueue(c->ctx, c->device, 0, &err);
  CL_CHECK(err);
  c->prog[0] = pocl_build(c, demo_cl);
  c->prog[1] = pocl_build(c, matmul_cl);
  return true;
}

static void pocl_side_close(struct pocl_side *c) {
  for (int i = 0; i < 2; i++) clReleaseProgram(c->prog[i]);
  clReleaseCommandQueue(c->queue);
  clReleaseContext(c->ctx);
}

static cl_mem pocl_buffer(struct pocl_side *c, size_t bytes, const void *init) {
  cl_int err;
  cl_mem m =
      clCreateBuffer(c->ctx, init ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE,
                     bytes, (void *)init, &err);
  CL_CHECK(err);
  return m;
}

/* One variant of one kernel, set up once and run many times: run() times
 * one run from enqueue to completion (the output reset before, untimed),
 * finish() compares the output with the reference and frees it all. */
struct runner {
  size_t (*run)(struct runner *r);                             /* ns */
  size_t (*finish)(struct runner *r, int kernel, int variant); /* wrong results */
  const struct work *w;
  void *out;
  /* HSA */
  struct hsa_side *h;
  hsa_kernel_dispatch_packet_t packet;
  void *kernarg;
  /* pocl */
  cl_command_queue queue;
  cl_kernel kernel;
  cl_mem mem[3]; /* inputs 0 and 1 (or NULL), output */
};

/* The kernel's arguments with `out` as its output; returns their size. */
static size_t kernel_args(int kernel, const struct work *w, void *out, void *args) {
  if (kernel == SAXPY) {
    *(struct saxpy_args *)args = (struct saxpy_args){2.5f, w->in0, out, w->grid[0]};
    return sizeof(struct saxpy_args);
  }
  if (kernel == BLOCK_SUM) {
    *(struct block_sum_args *)args = (struct block_sum_args){w->in0, out, w->grid[0]};
    return sizeof(struct block_sum_args);
  }
  *(struct matmul_args *)args = (struct matmul_args){w->in0, w->in1, out, w->grid[0]};
  return sizeof(struct matmul_args);
}

static size_t hsa_run(struct runner *r) {
  struct hsa_side *h = r->h;
  reset_output(r->w, r->out);
  hsa_signal_store_relaxed(h->done, 1);
  uint64_t t0 = bench_now_ns();
  uint64_t index = hsa_queue_add_write_index_scacq_screl(h->queue, 1);
  hsa_kernel_dispatch_packet_t *slot =
      (hsa_kernel_dispatch_packet_t *)h->queue->base_address + (index & (h->queue->size - 1));
  memcpy((char *)slot + 4, (const char *)&r->packet + 4, sizeof r->packet - 4);
  program_publish(h->queue, index, slot, PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH),
                  (uint16_t)(r->w->dims << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS));
  EXPECT(hsa_signal_wait_scacquire(h->done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS,
                                   HSA_WAIT_STATE_BLOCKED) == 0,
         "a dispatch did not complete");
  return bench_now_ns() - t0;
}

static size_t hsa_finish(struct runner *r, int kernel, int variant) {
  size_t bad = check_output(kernel, variant, r->w, r->out);
  CHECK(hsa_amd_memory_pool_free(r->kernarg));
  free(r->out);
  return bad;
}

/* Kernel `kernel` as `symbol` of the CPU agent's executables, its kernarg
 * written once into a buffer of the kernel's size (the hidden arguments
 * filled for the OpenCL C kernels, as for a GPU). */
static void hsa_runner(struct runner *r, struct hsa_side *h, int kernel, const char *symbol,
                       const struct work *w) {
  *r = (struct runner){
      .run = hsa_run, .finish = hsa_finish, .w = w, .out = malloc(w->out_bytes), .h = h};
  EXPECT(r->out, "out of memory");
  hsa_executable_symbol_t sym;
  CHECK(hsa_executable_get_symbol_by_name(h->exec[kernel == MATMUL], symbol, &h->agent, &sym));
  struct program_kernel k = program_kernel_info(sym);
  union {
    struct saxpy_args saxpy;
    struct block_sum_args block_sum;
    struct matmul_args matmul;
  } args;
  size_t args_size = kernel_args(kernel, w, r->out, &args);
  EXPECT(k.kernarg_size >= args_size, "%s takes %u bytes of arguments", symbol, k.kernarg_size);
  CHECK(hsa_amd_memory_pool_allocate(h->kernarg_pool, k.kernarg_size, 0, &r->kernarg));
  memset(r->kernarg, 0, k.kernarg_size);
  memcpy(r->kernarg, &args, args_size);
  hsa_kernel_dispatch_packet_t *p = &r->packet;
  p->workgroup_size_x = (uint16_t)w->group[0];
  p->workgroup_size_y = (uint16_t)w->group[1];
  p->workgroup_size_z = 1;
  p->grid_size_x = w->grid[0];
  p->grid_size_y = w->grid[1];
  p->grid_size_z = 1;
  p->group_segment_size = k.group_size;
  p->private_segment_size = k.private_size;
  p->kernel_object = k.object;
  p->kernarg_address = r->kernarg;
  p->completion_signal = h->done;
  if (strstr(symbol, ".kd"))
    CHECK(hsa_kernarg_fill_hidden(p, h->queue, r->kernarg, k.kernarg_size));
}

static size_t pocl_run(struct runner *r) {
  reset_output(r->w, r->out);
  CL_CHECK(clEnqueueWriteBuffer(r->queue, r->mem[2], CL_TRUE, 0, r->w->out_bytes, r->out, 0, NULL,
                                NULL));
  size_t global[2] = {r->w->grid[0], r->w->grid[1]}, local[2] = {r->w->group[0], r->w->group[1]};
  uint64_t t0 = bench_now_ns();
  CL_CHECK(
      clEnqueueNDRangeKernel(r->queue, r->kernel, r->w->dims, NULL, global, local, 0, NULL, NULL));
  CL_CHECK(clFinish(r->queue));
  return bench_now_ns() - t0;
}

static size_t pocl_finish(struct runner *r, int kernel, int variant) {
  CL_CHECK(
      clEnqueueReadBuffer(r->queue, r->mem[2], CL_TRUE, 0, r->w->out_bytes, r->out, 0, NULL, NULL));
  size_t bad = check_output(kernel, variant, r->w, r->out);
  for (int i = 0; i < 3; i++)
    if (r->mem[i]) clReleaseMemObject(r->mem[i]);
  clReleaseKernel(r->kernel);
  free(r->out);
  return bad;
}

/* Kernel `kernel` of the same .cl on pocl, arguments set once. */
static void pocl_runner(struct runner *r, struct pocl_side *c, int kernel, const struct work *w) {
  *r = (struct runner){.run = pocl_run, .finish = pocl_finish, .w = w, .out = malloc(w->out_bytes)};
  EXPECT(r->out, "out of memory");
  cl_int err;
  r->queue = c->queue;
  r->kernel = clCreateKernel(c->prog[kernel == MATMUL], kernel_names[kernel], &err);
  CL_CHECK(err);
  r->mem[0] = pocl_buffer(c, w->in_bytes[0], w->in0);
  r->mem[1] = w->in1 ? pocl_buffer(c, w->in_bytes[1], w->in1) : NULL;
  r->mem[2] = pocl_buffer(c, w->out_bytes, NULL);
  cl_uint n = w->grid[0];
  cl_uint arg = 0;
  if (kernel == SAXPY) {
    float a = 2.5f;
    CL_CHECK(clSetKernelArg(r->kernel, arg++, sizeof a, &a));
  }
  for (int i = 0; i < 3; i++)
    if (r->mem[i]) CL_CHECK(clSetKernelArg(r->kernel, arg++, sizeof r->mem[i], &r->mem[i]));
  CL_CHECK(clSetKernelArg(r->kernel, arg, sizeof n, &n));
}

/* ---- The table ------------------------------------------------------------------------ */

static void ratio_cell(double ratio, double aim) {
  if (ratio <= 0)
    printf("  %14s", "-");
  else
    printf("  %5.2f %-8s", ratio, ratio <= aim ? "(met)" : "(MISSED)");
}

int main(int argc, char **argv) {
  EXPECT(argc >= 5, "usage: bench-kernels DEMO.hsaco MATMUL.hsaco DEMO.cl MATMUL.cl [runs]");
  size_t runs = argc > 5 ? strtoull(argv[5], NULL, 10) : 5;
  if (runs < 1) runs = 1;
  struct work w[KERNELS];
  make_work(w);

  struct hsa_side h = {0};
  hsa_side_open(&h, argv[1], argv[2]);
  struct pocl_side c = {0};
  bool have_pocl = pocl_side_open(&c, argv[3], argv[4]);
  int variants = have_pocl ? VARIANTS : V_POCL;

  /* The variants take turns, run after run, so that a change of the
   * machine's load (other programs) touches each of them alike; one
   * untimed run each first (pocl compiles the work-group function at its
   * first enqueue; the runtime makes its work-item stacks). */
  static const char *const cl_symbols[KERNELS] = {"saxpy.kd", "block_sum.kd", "matmul_tiled.kd"};
  static const char *const c_symbols[KERNELS] = {"bench_saxpy_c", "bench_block_sum_c",
                                                 "bench_matmul_c"};
  struct samples s[KERNELS][VARIANTS];
  size_t bad = 0;
  for (int k = 0; k < KERNELS; k++) {
    struct runner r[VARIANTS];
    hsa_runner(&r[V_OPENCL_C], &h, k, cl_symbols[k], &w[k]);
    hsa_runner(&r[V_HAND_C], &h, k, c_symbols[k], &w[k]);
    if (have_pocl) pocl_runner(&r[V_POCL], &c, k, &w[k]);
    for (int v = 0; v < variants; v++) {
      samples_init(&s[k][v], variant_names[v], runs);
      r[v].run(&r[v]);
    }
    for (size_t run = 0; run < runs; run++)
      for (int v = 0; v < variants; v++) s[k][v].ns[run] = r[v].run(&r[v]);
    for (int v = 0; v < variants; v++) bad += r[v].finish(&r[v], k, v);
  }
  hsa_side_close(&h);
  if (have_pocl) pocl_side_close(&c);

  printf(
      "bench-kernels: median of %zu runs each, ms from enqueue to completion; outputs checked\n"
      "  saxpy: %u floats, groups of 256; block_sum: %u ints, groups of %u;\n"
      "  matmul_tiled: %u x %u floats, groups of %u x %u\n"
      "  CPU agent \"%s\": %u cores; pocl %s: %u compute units; the machine: %ld cores\n",
      runs, SAXPY_ITEMS, SUM_ITEMS, SUM_GROUP, MATMUL_N, MATMUL_N, MATMUL_TILE, MATMUL_TILE, h.name,
      h.cores, have_pocl ? c.version : "(not found: Debian pocl-opencl-icd)",
      have_pocl ? c.units : 0, sysconf(_SC_NPROCESSORS_ONLN));
  printf("%-13s %17s %17s %17s  %-16s  %-16s\n", "kernel", variant_names[0], variant_names[1],
         variant_names[2], "OCL/hand <=1.5", "OCL/pocl <=1.0");
  for (int k = 0; k < KERNELS; k++) {
    double ms[VARIANTS] = {0};
    for (int v = 0; v < variants; v++) ms[v] = (double)samples_percentile(&s[k][v], 50) / 1e6;
    printf("%-13s %17.3f %17.3f ", kernel_names[k], ms[0], ms[1]);
    if (have_pocl)
      printf("%17.3f", ms[2]);
    else
      printf("%17s", "-");
    ratio_cell(ms[1] > 0 ? ms[0] / ms[1] : 0, 1.5);
    ratio_cell(ms[2] > 0 ? ms[0] / ms[2] : 0, 1.0);
    printf("\n");
  }
  for (int k = 0; k < KERNELS; k++) {
    for (int v = 0; v < variants; v++) samples_free(&s[k][v]);
    free((void *)w[k].in0);
    free((void *)w[k].in1);
    free((void *)w[k].out_init);
    free(w[k].want);
    free(w[k].tolerance);
  }
  if (bad) {
    printf("bench-kernels: FAILED: %zu wrong results\n", bad);
    return 1;
  }
  printf("bench-kernels: every variant's results match the reference\n");
  return 0;
}
