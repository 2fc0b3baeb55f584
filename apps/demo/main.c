/* demo - the same two kernels dispatched to the GPU agent and to a CPU agent
 * through the standard HSA API, every result checked against the program's
 * own computation.
 *
 *   saxpy      y = a * x + y over 16 Ki floats
 *   block_sum  one sum per work-group of 256 integers (GPU: LDS and barriers)
 *
 * The kernels exist once, in OpenCL C (demo_kernels.cl), built by
 * tools/hsacc into one file for every agent: <kernel folder>/
 * demo_kernels.hsaco holds the GPU code objects and the CPU agents' code.
 * The program loads that file for each agent, finds the kernels by name
 * and dispatches them with the same code: the same kernarg layout, the
 * same hidden arguments call, the same packet.
 *
 * Last, the same runs through a placement queue (hsa_ext_placement.h, an
 * hsa-metal extension): the runtime sends each dispatch to the agent it
 * predicts to finish it first, learning from the first ones (it explores
 * every agent), and the demo prints what went where.
 *
 * Usage: demo [kernel folder]   (default /kernels: the image's boot file
 * system; on the host: build/app-kernels/demo). Exit status 0 if every
 * result matched, 1 otherwise.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_placement.h>
#include <hsa/hsa_kernarg_hidden.h>

#define ITEMS (1u << 14)
#define GROUP 256u
#define WAIT_NS 60000000000ull /* a minute: far beyond a correct run, then give up */

/* Kernel arguments as the kernels declare them (OpenCL's layout: each
 * argument at its natural alignment; the GPU code object's metadata and
 * the CPU code read them from the same offsets). */
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

/* ---- Agents and memory ----------------------------------------------------- */

struct device {
  hsa_agent_t agent;
  hsa_device_type_t type;
  char name[64];
  hsa_amd_memory_pool_t kernarg_pool;
  hsa_queue_t *queue;
  hsa_executable_t exec;
};

static bool check(hsa_status_t st, const char *what) {
  if (st == HSA_STATUS_SUCCESS) return true;
  const char *text = NULL;
  hsa_status_string(st, &text);
  fprintf(stderr, "demo: %s: %s\n", what, text ? text : "unknown status");
  return false;
}

struct agents {
  struct device gpu, cpu;
  bool have_gpu, have_cpu;
};

static hsa_status_t pick_agent(hsa_agent_t agent, void *data) {
  struct agents *a = data;
  hsa_device_type_t type;
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  struct device *d = NULL;
  if (type == HSA_DEVICE_TYPE_GPU && !a->have_gpu) {
    d = &a->gpu;
    a->have_gpu = true;
  } else if (type == HSA_DEVICE_TYPE_CPU && !a->have_cpu) {
    d = &a->cpu;
    a->have_cpu = true;
  }
  if (d) {
    d->agent = agent;
    d->type = type;
    hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, d->name);
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t pick_kernarg_pool(hsa_amd_memory_pool_t pool, void *data) {
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (!(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)) return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = pool;
  return HSA_STATUS_INFO_BREAK;
}

/* ---- Dispatch: identical for both agents ----------------------------------- */

/* Runs kernel `name` of d's executable over `items` work-items in groups of
 * GROUP, with `args` as its explicit arguments; returns the GPU/CPU time in
 * ns (profiling time stamps), or 0 on failure. */
static uint64_t dispatch(struct device *d, const char *name, const void *args, size_t args_size,
                         uint32_t items) {
  char symbol_name[80];
  snprintf(symbol_name, sizeof symbol_name, "%s.kd", name);
  hsa_executable_symbol_t sym;
  if (!check(hsa_executable_get_symbol_by_name(d->exec, symbol_name, &d->agent, &sym), symbol_name)) return 0;
  uint64_t kernel_object;
  uint32_t kernarg_size, group_size, private_size;
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel_object);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kernarg_size);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group_size);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &private_size);
  void *kernarg;
  if (!check(hsa_amd_memory_pool_allocate(d->kernarg_pool, kernarg_size, 0, &kernarg), "kernarg")) return 0;
  memset(kernarg, 0, kernarg_size);
  memcpy(kernarg, args, args_size < kernarg_size ? args_size : kernarg_size);

  hsa_signal_t done;
  if (!check(hsa_signal_create(1, 0, NULL, &done), "signal")) return 0;
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.workgroup_size_x = GROUP;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = items;
  p.grid_size_y = p.grid_size_z = 1;
  p.group_segment_size = group_size;
  p.private_segment_size = private_size;
  p.kernel_object = kernel_object;
  p.kernarg_address = kernarg;
  p.completion_signal = done;
  uint64_t ns = 0;
  if (!check(hsa_kernarg_fill_hidden(&p, d->queue, kernarg, kernarg_size), "hidden arguments")) goto out;

  /* Reserve a slot, write the packet, publish its header last, ring. */
  uint64_t index = hsa_queue_add_write_index_scacq_screl(d->queue, 1);
  hsa_kernel_dispatch_packet_t *slot =
      (hsa_kernel_dispatch_packet_t *)d->queue->base_address + (index & (d->queue->size - 1));
  memcpy((char *)slot + 2, (const char *)&p + 2, sizeof p - 2);
  uint16_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                    1 << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
  __atomic_store_n(&slot->header, header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(d->queue->doorbell_signal, (hsa_signal_value_t)index);

  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, WAIT_NS, HSA_WAIT_STATE_BLOCKED) != 0) {
    fprintf(stderr, "demo: %s on %s did not complete\n", name, d->name);
    goto out;
  }
  hsa_amd_profiling_dispatch_time_t t;
  if (check(hsa_amd_profiling_get_dispatch_time(d->agent, done, &t), "dispatch time"))
    ns = t.end > t.start ? t.end - t.start : 1;
out:
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(kernarg);
  return ns;
}

/* ---- Set-up of one agent ------------------------------------------------------- */

static void queue_error(hsa_status_t status, hsa_queue_t *q, void *data) {
  const char *text = NULL;
  hsa_status_string(status, &text);
  fprintf(stderr, "demo: %s queue error: %s\n", (const char *)data, text ? text : "?");
}

static bool set_up(struct device *d, const char *kernel_dir) {
  /* The placement agent owns no memory: it is given the CPU agent's pool. */
  if (!d->kernarg_pool.handle) hsa_amd_agent_iterate_memory_pools(d->agent, pick_kernarg_pool, &d->kernarg_pool);
  if (!d->kernarg_pool.handle) {
    fprintf(stderr, "demo: %s has no kernarg pool\n", d->name);
    return false;
  }
  if (!check(hsa_queue_create(d->agent, 256, HSA_QUEUE_TYPE_SINGLE, queue_error, d->name, UINT32_MAX,
                              UINT32_MAX, &d->queue), "queue"))
    return false;
  hsa_amd_profiling_set_profiler_enabled(d->queue, 1);
  if (!check(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                       &d->exec), "executable"))
    return false;
  /* One file for every agent: the loader takes the part for this one. */
  char path[512];
  snprintf(path, sizeof path, "%s/demo_kernels.hsaco", kernel_dir);
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    fprintf(stderr, "demo: cannot open %s\n", path);
    return false;
  }
  hsa_code_object_reader_t reader;
  bool ok = check(hsa_code_object_reader_create_from_file(fd, &reader), path);
  close(fd);
  if (!ok) return false;
  ok = check(hsa_executable_load_agent_code_object(d->exec, d->agent, reader, NULL, NULL), path);
  hsa_code_object_reader_destroy(reader);
  if (!ok) return false;
  return check(hsa_executable_freeze(d->exec, NULL), "freeze");
}

static void tear_down(struct device *d) {
  if (d->exec.handle) hsa_executable_destroy(d->exec);
  if (d->queue) hsa_queue_destroy(d->queue);
}

/* ---- The runs ---------------------------------------------------------------------- */

static const char *kind(const struct device *d) {
  return d->type == HSA_DEVICE_TYPE_GPU ? "GPU" : d->type == HSA_DEVICE_TYPE_CPU ? "CPU" : "any";
}

/* One result line; a placement queue's completion signal carries the time
 * stamps of the runtime's last packet, not the dispatch's: no time. */
static void print_row(const struct device *d, const char *name, uint32_t count, const char *unit, uint64_t ns,
                      unsigned bad) {
  printf("%s  %-10s %6u %-6s ", kind(d), name, count, unit);
  if (d->type == HSA_DEVICE_TYPE_GPU || d->type == HSA_DEVICE_TYPE_CPU)
    printf("%10.3f ms", ns / 1e6);
  else
    printf("%13s", "");
  printf("   %s\n", bad ? "MISMATCH" : "ok");
}

static void *alloc(struct device *d, size_t bytes) {
  void *p = NULL;
  hsa_amd_memory_pool_allocate(d->kernarg_pool, bytes, 0, &p);
  return p;
}

/* Returns the number of wrong results. */
static unsigned run_saxpy(struct device *d) {
  float *x = alloc(d, ITEMS * sizeof *x), *y = alloc(d, ITEMS * sizeof *y);
  if (!x || !y) return ITEMS;
  for (uint32_t i = 0; i < ITEMS; i++) {
    x[i] = (float)(i % 1000) * 0.5f;
    y[i] = (float)(i % 77) - 30.0f;
  }
  struct saxpy_args args = {2.5f, x, y, ITEMS};
  uint64_t ns = dispatch(d, "saxpy", &args, sizeof args, ITEMS);
  unsigned bad = ns ? 0 : ITEMS;
  for (uint32_t i = 0; i < ITEMS && ns; i++) {
    /* The GPU may fuse the multiply-add; allow the rounding of one step. */
    float want = 2.5f * ((float)(i % 1000) * 0.5f) + ((float)(i % 77) - 30.0f);
    if (fabsf(y[i] - want) > 1e-6f * fmaxf(1.0f, fabsf(want))) {
      if (bad++ < 3) printf("  saxpy[%u] = %g, expected %g\n", i, y[i], want);
    }
  }
  print_row(d, "saxpy", ITEMS, "items", ns, bad);
  hsa_amd_memory_pool_free(x);
  hsa_amd_memory_pool_free(y);
  return bad;
}

static unsigned run_block_sum(struct device *d) {
  uint32_t groups = ITEMS / GROUP;
  int32_t *in = alloc(d, ITEMS * sizeof *in), *sums = alloc(d, groups * sizeof *sums);
  if (!in || !sums) return groups;
  for (uint32_t i = 0; i < ITEMS; i++) in[i] = (int32_t)(i * 2654435761u >> 20) - 2048;
  memset(sums, 0, groups * sizeof *sums);
  struct block_sum_args args = {in, sums, ITEMS};
  uint64_t ns = dispatch(d, "block_sum", &args, sizeof args, ITEMS);
  unsigned bad = ns ? 0 : groups;
  for (uint32_t g = 0; g < groups && ns; g++) {
    int32_t want = 0;
    for (uint32_t i = 0; i < GROUP; i++) want += in[g * GROUP + i];
    if (sums[g] != want && bad++ < 3) printf("  block_sum[%u] = %d, expected %d\n", g, sums[g], want);
  }
  print_row(d, "block_sum", groups, "groups", ns, bad);
  hsa_amd_memory_pool_free(in);
  hsa_amd_memory_pool_free(sums);
  return bad;
}

/* What the placement queue did with kernel `name`: per agent, the
 * dispatches it sent there and the mean time it measured. */
static void print_where(struct device *d, const char *name) {
  char symbol_name[80];
  snprintf(symbol_name, sizeof symbol_name, "%s.kd", name);
  hsa_executable_symbol_t sym;
  uint64_t object;
  hsa_ext_placement_agent_stats_t s[8];
  uint32_t n = 0;
  if (!check(hsa_executable_get_symbol_by_name(d->exec, symbol_name, &d->agent, &sym), symbol_name) ||
      !check(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object), "object") ||
      !check(hsa_ext_placement_kernel_stats(object, s, 8, &n), "placement statistics"))
    return;
  printf("     %-10s went to:", name);
  for (uint32_t i = 0; i < n && i < 8; i++) {
    char agent_name[64];
    hsa_agent_get_info(s[i].agent, HSA_AGENT_INFO_NAME, agent_name);
    printf("%s %s x%llu (%llu to explore, mean %.3f ms", i ? ";" : "", agent_name,
           (unsigned long long)s[i].dispatches, (unsigned long long)s[i].explored,
           s[i].measured ? s[i].total_ns / 1e6 / s[i].measured : 0.0);
    if (s[i].split_groups)
      printf(", %llu work-groups of %llu split dispatches", (unsigned long long)s[i].split_groups,
             (unsigned long long)s[i].split_dispatches);
    printf(")");
  }
  printf("\n");
}

int main(int argc, char **argv) {
  const char *kernel_dir = argc > 1 ? argv[1] : "/kernels";
  if (!check(hsa_init(), "hsa_init")) return 1;
  struct agents a = {0};
  hsa_iterate_agents(pick_agent, &a);
  if (!a.have_gpu || !a.have_cpu) {
    fprintf(stderr, "demo: need a GPU agent and a CPU agent (found %s%s); in QEMU boot with vapu=raven\n",
            a.have_gpu ? "a GPU" : "no GPU", a.have_cpu ? ", a CPU" : ", no CPU");
    hsa_shut_down();
    return 1;
  }
  char product[64] = {0};
  hsa_agent_get_info(a.gpu.agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product);
  printf("demo: GPU agent %s (%s)\n      CPU agent %s\n", a.gpu.name, product, a.cpu.name);
  unsigned bad = 0;
  struct device *devices[] = {&a.gpu, &a.cpu};
  for (int i = 0; i < 2; i++) {
    struct device *d = devices[i];
    if (!set_up(d, kernel_dir)) {
      bad++;
    } else {
      bad += run_saxpy(d);
      bad += run_block_sum(d);
    }
    tear_down(d);
  }
  /* The same runs through a placement queue: the runtime chooses. */
  struct device any = {.type = HSA_EXT_PLACEMENT_DEVICE_TYPE, .name = "placement",
                       .kernarg_pool = a.cpu.kernarg_pool};
  if (!check(hsa_ext_placement_agent(&any.agent), "placement agent") || !set_up(&any, kernel_dir)) {
    bad++;
  } else {
    printf("demo: through a placement queue (the runtime picks the agent):\n");
    for (int round = 0; round < 8; round++) {
      bad += run_saxpy(&any);
      bad += run_block_sum(&any);
    }
    print_where(&any, "saxpy");
    print_where(&any, "block_sum");
  }
  tear_down(&any);
  hsa_shut_down();
  printf("demo: %s\n", bad ? "FAILED" : "all results match");
  return bad ? 1 : 0;
}
