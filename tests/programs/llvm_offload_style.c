/*
 * llvm_offload_style.c - HSA used the way LLVM's OpenMP offload plugin
 * (plugins-nextgen/amdgpu) uses it:
 *   - host pools from every CPU agent, classified by their global flags
 *     (fine-grained, coarse-grained, kernarg); the GPU's coarse-grained pool
 *     for device memory, its group segment pool (if any) for the LDS limit;
 *     every pool attribute queried; access checked with
 *     hsa_amd_agent_memory_pool_get_info and enabled with
 *     hsa_amd_agents_allow_access;
 *   - device attributes: UUID, wavefront size, clocks, work-group and grid
 *     limits, compute units, waves per CU, queue limits, and XNACK taken
 *     from the ISA names;
 *   - the image from memory: reader, executable, load, freeze, validate;
 *     every symbol iterated and described; a device global written by the
 *     host through its address before the launch;
 *   - a stream: each operation's completion signal is the next one's input:
 *     host-to-device async copy, kernel launch (a barrier packet waits for
 *     the copy first), device-to-host async copy depending on the kernel, a
 *     barrier packet with two input signals joining another stream, and an
 *     async handler that runs the stream's post action; waits first active,
 *     then blocked; profiling on, dispatch times read back;
 *   - packets published with one 32-bit release store of header and setup,
 *     the doorbell rung with a relaxed store; a memory fault handler
 *     registered for system events.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdbool.h>

#include "support/program.h"

#define N  4096
#define WG 128

struct host_device {
  hsa_agent_t cpu;
  hsa_amd_memory_pool_t fine, coarse, kernarg;
};

struct device {
  hsa_agent_t agent;
  hsa_amd_memory_pool_t coarse;
  size_t lds_bytes;
  hsa_queue_t *queue;
  bool xnack;
};

/* ---- Pools -------------------------------------------------------------- */

static void describe_pool(hsa_amd_memory_pool_t pool) {
  hsa_amd_segment_t segment;
  uint32_t flags;
  size_t size, granule, rec_granule, alignment, max;
  bool alloc, all;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
  CHECK(
      hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE,
                                     &rec_granule));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT,
                                     &alignment));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max));
  if (segment == HSA_AMD_SEGMENT_GLOBAL) {
    hsa_amd_memory_pool_location_t where;
    CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_LOCATION, &where));
    EXPECT(alloc && granule > 0 && alignment > 0 && max > 0 && size > 0, "global pool attributes");
  } else {
    EXPECT(!alloc && flags == 0, "a non-global pool allocates nothing");
  }
}

static hsa_status_t host_pool(hsa_amd_memory_pool_t pool, void *data) {
  struct host_device *h = data;
  describe_pool(pool);
  uint32_t flags = program_pool_global_flags(pool);
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !h->fine.handle) h->fine = pool;
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !h->coarse.handle)
    h->coarse = pool;
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !h->kernarg.handle)
    h->kernarg = pool;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t device_pool(hsa_amd_memory_pool_t pool, void *data) {
  struct device *d = data;
  describe_pool(pool);
  hsa_amd_segment_t segment;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
  if (segment == HSA_AMD_SEGMENT_GROUP)
    CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &d->lds_bytes));
  if ((program_pool_global_flags(pool) & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) &&
      !d->coarse.handle)
    d->coarse = pool;
  return HSA_STATUS_SUCCESS;
}

static bool can_access(hsa_agent_t agent, hsa_amd_memory_pool_t pool) {
  hsa_amd_memory_pool_access_t access;
  if (hsa_amd_agent_memory_pool_get_info(agent, pool, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS,
                                         &access))
    return false;
  return access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
}

/* ---- Agents ------------------------------------------------------------- */

struct agents {
  struct host_device host;
  struct device gpu;
};

static hsa_status_t find_xnack(hsa_isa_t isa, void *data) {
  uint32_t len;
  CHECK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
  char name[128] = {0};
  EXPECT(len < sizeof name, "ISA name length %u", len);
  CHECK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name));
  EXPECT(strncmp(name, "amdgcn-amd-amdhsa--", 19) == 0, "ISA %s", name);
  if (strstr(name, "xnack+")) *(bool *)data = true;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t visit_agent(hsa_agent_t agent, void *data) {
  struct agents *a = data;
  hsa_device_type_t type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  if (type == HSA_DEVICE_TYPE_CPU) {
    if (!a->host.cpu.handle) a->host.cpu = agent;
    return hsa_amd_agent_iterate_memory_pools(agent, host_pool, &a->host);
  }
  if (type != HSA_DEVICE_TYPE_GPU || a->gpu.agent.handle) return HSA_STATUS_SUCCESS;
  a->gpu.agent = agent;
  return hsa_amd_agent_iterate_memory_pools(agent, device_pool, &a->gpu);
}

static void device_attributes(struct device *d) {
  char name[64], uuid[24] = {0};
  uint32_t wave, cus, waves_per_cu, qmax_size, qmax;
  uint64_t clock, system_clock;
  uint16_t wg_dim[3];
  hsa_dim3_t grid_dim;
  CHECK(hsa_agent_get_info(d->agent, HSA_AGENT_INFO_NAME, name));
  CHECK(hsa_agent_get_info(d->agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID, uuid));
  CHECK(hsa_agent_get_info(d->agent, HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
  CHECK(hsa_agent_get_info(d->agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY,
                           &clock));
  CHECK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &system_clock));
  CHECK(hsa_agent_get_info(d->agent, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, wg_dim));
  CHECK(hsa_agent_get_info(d->agent, HSA_AGENT_INFO_GRID_MAX_DIM, &grid_dim));
  CHECK(
      hsa_agent_get_info(d->agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  CHECK(hsa_agent_get_info(d->agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU,
                           &waves_per_cu));
  CHECK(hsa_agent_get_info(d->agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmax_size));
  CHECK(hsa_agent_get_info(d->agent, HSA_AGENT_INFO_QUEUES_MAX, &qmax));
  EXPECT(wave == 32 || wave == 64, "unexpected wavefront %u", wave);
  EXPECT(grid_dim.x / wg_dim[0] > 0, "maximum number of teams is zero");
  EXPECT(strcmp(uuid, "GPU-XX") == 0 || strncmp(uuid, "GPU-", 4) == 0, "uuid %s", uuid);
  EXPECT(
      cus > 0 && waves_per_cu > 0 && qmax_size >= 64 && qmax >= 1 && clock > 0 && system_clock > 0,
      "device attributes of %s", name);
  CHECK(hsa_agent_iterate_isas(d->agent, find_xnack, &d->xnack));
}

/* ---- Symbols -------------------------------------------------------------- */

static hsa_status_t describe_symbol(hsa_executable_t exec, hsa_executable_symbol_t sym,
                                    void *data) {
  (void)exec;
  int *kinds = data;
  hsa_symbol_kind_t kind;
  uint32_t name_len;
  hsa_symbol_linkage_t linkage;
  bool definition;
  CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
  CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &name_len));
  char *name = calloc(1, name_len + 1);
  CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name));
  CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE, &linkage));
  CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION, &definition));
  EXPECT(strlen(name) == name_len, "symbol name %s length %u", name, name_len);
  if (kind == HSA_SYMBOL_KIND_KERNEL) {
    struct program_kernel k = program_kernel_info(sym);
    uint32_t kernarg_align;
    bool dynamic;
    hsa_agent_t agent;
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &agent));
    CHECK(hsa_executable_symbol_get_info(
        sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &kernarg_align));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK,
                                         &dynamic));
    EXPECT(k.object % 64 == 0 && kernarg_align >= 16, "kernel %s", name);
    kinds[0]++;
  } else if (kind == HSA_SYMBOL_KIND_VARIABLE) {
    uint64_t address;
    uint32_t size, alignment;
    hsa_variable_allocation_t allocation;
    hsa_variable_segment_t segment;
    bool is_const;
    CHECK(
        hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &size));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT,
                                         &alignment));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION,
                                         &allocation));
    CHECK(
        hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT, &segment));
    CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST,
                                         &is_const));
    EXPECT(address != 0 && size > 0, "variable %s", name);
    kinds[1]++;
  }
  free(name);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t describe_agent_symbol(hsa_executable_t exec, hsa_agent_t agent,
                                          hsa_executable_symbol_t sym, void *data) {
  (void)agent;
  return describe_symbol(exec, sym, data);
}

/* ---- The stream ------------------------------------------------------------ */

static void queue_error(hsa_status_t status, hsa_queue_t *source, void *data) {
  (void)source, (void)data;
  fprintf(stderr, "queue error 0x%x\n", status);
  exit(1);
}

static hsa_status_t on_system_event(const hsa_amd_event_t *event, void *data) {
  (void)data;
  if (event->event_type == HSA_AMD_GPU_MEMORY_FAULT_EVENT) {
    fprintf(stderr, "memory fault at 0x%llx\n",
            (unsigned long long)event->memory_fault.virtual_address);
    exit(1);
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_kernel_dispatch_packet_t *acquire_packet(hsa_queue_t *q, uint64_t *id) {
  *id = hsa_queue_add_write_index_relaxed(q, 1);
  while (*id - hsa_queue_load_read_index_scacquire(q) >= q->size)
    ;
  return (hsa_kernel_dispatch_packet_t *)q->base_address + (*id & (q->size - 1));
}

static void publish(hsa_queue_t *q, uint64_t id, void *packet, uint16_t type, uint16_t setup) {
  uint16_t header = type << HSA_PACKET_HEADER_TYPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE;
  __atomic_store_n((uint32_t *)packet, header | (uint32_t)setup << 16u, __ATOMIC_RELEASE);
  hsa_signal_store_relaxed(q->doorbell_signal, (hsa_signal_value_t)id);
}

static void push_barrier(hsa_queue_t *q, hsa_signal_t out, hsa_signal_t in1, hsa_signal_t in2) {
  uint64_t id;
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)acquire_packet(q, &id);
  memset((uint8_t *)p + 4, 0, sizeof *p - 4);
  p->dep_signal[0] = in1;
  p->dep_signal[1] = in2;
  p->completion_signal = out;
  publish(q, id, p, HSA_PACKET_TYPE_BARRIER_AND, 0);
}

struct post_action {
  const uint32_t *from;
  uint32_t *to;
  size_t bytes;
  hsa_signal_t done;
};

/* The stream's post action, from an async handler: copy the result out,
 * then say so. Returning false: do not call again. */
static bool run_post_action(hsa_signal_value_t value, void *arg) {
  struct post_action *a = arg;
  (void)value;
  memcpy(a->to, a->from, a->bytes);
  hsa_signal_store_screlease(a->done, 0);
  return false;
}

static hsa_signal_value_t wait_busy_then_blocked(hsa_signal_t s) {
  hsa_signal_value_t v =
      hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, 2000000, HSA_WAIT_STATE_ACTIVE);
  while (v != 0)
    v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                  HSA_WAIT_STATE_BLOCKED);
  return v;
}

int main(int argc, char **argv) {
  CHECK(hsa_init());
  CHECK(hsa_amd_register_system_event_handler(on_system_event, NULL));
  struct agents a;
  memset(&a, 0, sizeof a);
  CHECK(hsa_iterate_agents(visit_agent, &a));
  EXPECT(a.host.cpu.handle && a.gpu.agent.handle, "need a CPU and a GPU agent");
  EXPECT(a.host.fine.handle && a.host.kernarg.handle && a.gpu.coarse.handle, "pools missing");
  device_attributes(&a.gpu);
  EXPECT(can_access(a.gpu.agent, a.host.fine) && can_access(a.gpu.agent, a.gpu.coarse),
         "the GPU cannot reach its pools");

  /* The image from memory. */
  size_t image_size;
  void *image = program_read_file(program_kernel_path(argc, argv, "fill.v5.co"), &image_size);
  hsa_code_object_reader_t reader;
  CHECK(hsa_code_object_reader_create_from_memory(image, image_size, &reader));
  hsa_executable_t exec;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, "",
                                  &exec));
  CHECK(hsa_executable_load_agent_code_object(exec, a.gpu.agent, reader, "", NULL));
  CHECK(hsa_executable_freeze(exec, ""));
  uint32_t invalid;
  CHECK(hsa_executable_validate(exec, &invalid));
  EXPECT(invalid == 0, "the image does not validate");
  int kinds[2] = {0, 0}; /* kernels, variables of the GPU */
  CHECK(hsa_executable_iterate_agent_symbols(exec, a.gpu.agent, describe_agent_symbol, kinds));
  EXPECT(kinds[0] == 1 && kinds[1] == 1, "%d kernels, %d variables", kinds[0], kinds[1]);
  int all_kinds[2] = {0, 0};
  CHECK(hsa_executable_iterate_symbols(exec, describe_symbol, all_kinds));
  EXPECT(all_kinds[0] >= 1 && all_kinds[1] >= 1, "iterate_symbols");

  hsa_executable_symbol_t kernel, global;
  CHECK(hsa_executable_get_symbol_by_name(exec, "fill.kd", &a.gpu.agent, &kernel));
  CHECK(hsa_executable_get_symbol_by_name(exec, "fill_base", &a.gpu.agent, &global));
  struct program_kernel k = program_kernel_info(kernel);
  uint64_t global_address;
  uint32_t global_size;
  CHECK(hsa_executable_symbol_get_info(global, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS,
                                       &global_address));
  CHECK(hsa_executable_symbol_get_info(global, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE,
                                       &global_size));
  EXPECT(k.group_size <= a.gpu.lds_bytes || a.gpu.lds_bytes == 0, "LDS %u > %zu", k.group_size,
         a.gpu.lds_bytes);

  CHECK(hsa_queue_create(a.gpu.agent, 512, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                         UINT32_MAX, &a.gpu.queue));
  CHECK(hsa_amd_profiling_set_profiler_enabled(a.gpu.queue, 1));

  /* Memory: device buffer, pinned host staging, kernel arguments. */
  uint32_t *dev, *staging, *result = malloc(N * sizeof *result);
  uint32_t base = 5000, step = 3, n = N;
  uint8_t *kernarg;
  CHECK(hsa_amd_memory_pool_allocate(a.gpu.coarse, N * sizeof *dev, 0, (void **)&dev));
  CHECK(hsa_amd_memory_pool_allocate(a.host.fine, N * sizeof *staging, 0, (void **)&staging));
  CHECK(hsa_amd_memory_pool_allocate(a.host.kernarg, k.kernarg_size, 0, (void **)&kernarg));
  hsa_agent_t both[2] = {a.gpu.agent, a.host.cpu};
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, dev));
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, staging));
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, kernarg));
  hsa_amd_pointer_info_t info;
  info.size = sizeof info;
  CHECK(hsa_amd_pointer_info(dev + 7, &info, NULL, NULL, NULL));
  EXPECT(info.type == HSA_EXT_POINTER_TYPE_HSA && info.agentBaseAddress == dev &&
             info.agentOwner.handle == a.gpu.agent.handle,
         "pointer info of device memory");
  for (uint32_t i = 0; i < N; i++) staging[i] = 0xdeadbeef;

  /* The device global, set by the host through its address. */
  EXPECT(global_size == sizeof base, "fill_base has %u bytes", global_size);
  CHECK(hsa_memory_copy((void *)(uintptr_t)global_address, &base, sizeof base));

  memset(kernarg, 0, k.kernarg_size);
  memcpy(kernarg, &dev, 8);
  memcpy(kernarg + 8, &step, 4);
  memcpy(kernarg + 12, &n, 4);
  program_fill_hidden_v5(kernarg + 16, N, WG);

  /* The stream: copy in (zeros) -> kernel -> copy out, each waiting for the
   * previous one's signal. */
  hsa_signal_t slot[4], other_stream, joined, post_done;
  for (int i = 0; i < 4; i++) CHECK(hsa_amd_signal_create(1, 0, NULL, 0, &slot[i]));
  CHECK(hsa_amd_signal_create(1, 0, NULL, 0, &other_stream));
  CHECK(hsa_amd_signal_create(1, 0, NULL, 0, &joined));
  CHECK(hsa_amd_signal_create(1, 0, NULL, 0, &post_done));
  CHECK(hsa_amd_memory_async_copy(dev, a.gpu.agent, staging, a.host.cpu, N * sizeof *dev, 0, NULL,
                                  slot[0]));
  /* The kernel waits for the copy: a barrier with it as input signal. */
  push_barrier(a.gpu.queue, slot[1], slot[0], (hsa_signal_t){0});
  uint64_t id;
  hsa_kernel_dispatch_packet_t *p = acquire_packet(a.gpu.queue, &id);
  program_fill_dispatch_1d(p, &k, kernarg, N, WG, slot[2]);
  publish(a.gpu.queue, id, p, HSA_PACKET_TYPE_KERNEL_DISPATCH,
          1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS);
  CHECK(hsa_amd_memory_async_copy(staging, a.host.cpu, dev, a.gpu.agent, N * sizeof *dev, 1,
                                  &slot[2], slot[3]));
  /* Another stream's last operation, joined by a barrier with two inputs. */
  push_barrier(a.gpu.queue, joined, slot[3], other_stream);
  struct post_action post = {staging, result, N * sizeof *result, post_done};
  CHECK(hsa_amd_signal_async_handler(joined, HSA_SIGNAL_CONDITION_EQ, 0, run_post_action, &post));
  hsa_signal_store_screlease(other_stream, 0); /* the other stream finishes */

  EXPECT(wait_busy_then_blocked(post_done) == 0, "post action");
  for (uint32_t i = 0; i < N; i++)
    EXPECT(result[i] == base + i * step, "result[%u] = %u, want %u", i, result[i], base + i * step);

  hsa_amd_profiling_dispatch_time_t t;
  CHECK(hsa_amd_profiling_get_dispatch_time(a.gpu.agent, slot[2], &t));
  EXPECT(t.start != 0 && t.end >= t.start, "dispatch time %llu..%llu", (unsigned long long)t.start,
         (unsigned long long)t.end);

  for (int i = 0; i < 4; i++) CHECK(hsa_signal_destroy(slot[i]));
  CHECK(hsa_signal_destroy(other_stream));
  CHECK(hsa_signal_destroy(joined));
  CHECK(hsa_signal_destroy(post_done));
  CHECK(hsa_queue_destroy(a.gpu.queue));
  CHECK(hsa_amd_memory_pool_free(dev));
  CHECK(hsa_amd_memory_pool_free(staging));
  CHECK(hsa_amd_memory_pool_free(kernarg));
  CHECK(hsa_executable_destroy(exec));
  CHECK(hsa_code_object_reader_destroy(reader));
  free(image);
  free(result);
  CHECK(hsa_shut_down());
  printf("llvm_offload_style: %d elements through a stream on %s (xnack %s): ok\n", N, "the GPU",
         a.gpu.xnack ? "on" : "off");
  return 0;
}
