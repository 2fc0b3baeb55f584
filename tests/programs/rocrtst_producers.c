/*
 * rocrtst_producers.c - a multi-producer GPU queue, in the style of ROCr's
 * rocrtst: default agents found by device type, the kernarg pool of the
 * CPU agent (HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT), the kernel
 * loaded from a file through a code object reader ("name", then
 * "name.kd"), a MULTI queue of the agent's maximum size, and packets
 * written as rocrtst's WriteAQLToQueue does: reserve the slot with
 * hsa_queue_add_write_index, fill the body, publish the 16-bit header with
 * an atomic release store, ring the doorbell with a screlease store.
 *
 * The producers are the work-groups of one dispatch to a CPU agent, which
 * run in parallel on its cores and all submit GPU dispatches into the same
 * queue. A second GPU queue waits for all of them with a barrier-AND packet,
 * then copies their output; the host checks every element.
 */
#include <fcntl.h>
#include <hsa/hsa.h>
#include <hsa/hsa_cpu_kernel.h>
#include <hsa/hsa_ext_amd.h>
#include <unistd.h>

#include "support/program.h"

#define PRODUCERS    4
#define PER_PRODUCER 8
#define SLICE        256 /* elements each GPU dispatch fills */
#define TOTAL        (PRODUCERS * PER_PRODUCER * SLICE)

struct producer_args {
  hsa_queue_t *queue; /* the GPU's MULTI queue */
  struct program_kernel fill;
  uint8_t *kernargs; /* one block per GPU dispatch */
  uint32_t *out;
  hsa_signal_t all_done; /* starts at PRODUCERS * PER_PRODUCER */
};

/* One producer: a work-group of the CPU dispatch. */
HSA_CPU_KERNEL(rocrtst_producer, sizeof(struct producer_args)) {
  const struct producer_args *a = hsa_dispatch->kernarg;
  uint32_t p = hsa_dispatch->workgroup_id[0];
  hsa_queue_t *q = a->queue;
  for (uint32_t k = 0; k < PER_PRODUCER; k++) {
    uint32_t job = p * PER_PRODUCER + k, step = job + 1, n = SLICE;
    uint8_t *kernarg = a->kernargs + (size_t)job * a->fill.kernarg_size;
    uint32_t *out = a->out + (size_t)job * SLICE;
    memcpy(kernarg, &out, 8);
    memcpy(kernarg + 8, &step, 4);
    memcpy(kernarg + 12, &n, 4);
    uint64_t index = hsa_queue_add_write_index_scacq_screl(q, 1);
    while (index - hsa_queue_load_read_index_scacquire(q) >= q->size)
      ;
    hsa_kernel_dispatch_packet_t *pkt =
        &((hsa_kernel_dispatch_packet_t *)q->base_address)[index & (q->size - 1)];
    program_fill_dispatch_1d(pkt, &a->fill, kernarg, SLICE, 64, a->all_done);
    pkt->setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    __atomic_store_n(&pkt->header, PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH),
                     __ATOMIC_RELEASE);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
  }
}

static hsa_status_t find_device(hsa_agent_t agent, void *data) {
  hsa_agent_t *agents = data; /* [0] CPU, [1] GPU: rocrtst's cpu_device, gpu_device1 */
  hsa_device_type_t type;
  CHECK(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  if (type == HSA_DEVICE_TYPE_CPU && !agents[0].handle) agents[0] = agent;
  if (type == HSA_DEVICE_TYPE_GPU && !agents[1].handle) agents[1] = agent;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_kernarg_pool(hsa_amd_memory_pool_t pool, void *data) {
  hsa_amd_segment_t segment;
  uint32_t flags;
  bool alloc;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
  if (segment != HSA_AMD_SEGMENT_GLOBAL || !alloc ||
      !(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT))
    return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = pool;
  return HSA_STATUS_INFO_BREAK;
}

/* rocrtst's CodeObject::GetKernel: the name, else the name with ".kd". */
static struct program_kernel get_kernel(hsa_executable_t exec, hsa_agent_t agent,
                                        const char *name) {
  hsa_executable_symbol_t sym;
  char kd[64];
  if (hsa_executable_get_symbol_by_name(exec, name, &agent, &sym) != HSA_STATUS_SUCCESS) {
    snprintf(kd, sizeof kd, "%s.kd", name);
    CHECK(hsa_executable_get_symbol_by_name(exec, kd, &agent, &sym));
  }
  return program_kernel_info(sym);
}

static hsa_executable_t load_from_file(hsa_agent_t agent, const char *path,
                                       hsa_code_object_reader_t *reader) {
  int fd = open(path, O_RDONLY);
  EXPECT(fd >= 0, "cannot open %s", path);
  CHECK(hsa_code_object_reader_create_from_file(fd, reader));
  close(fd);
  hsa_executable_t exec;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &exec));
  CHECK(hsa_executable_load_agent_code_object(exec, agent, *reader, NULL, NULL));
  CHECK(hsa_executable_freeze(exec, NULL));
  return exec;
}

/* The rocrtst way of filling a slot: the header last, atomically. */
static uint64_t write_aql(hsa_queue_t *q, const void *packet) {
  uint64_t index = hsa_queue_add_write_index_relaxed(q, 1);
  while (index - hsa_queue_load_read_index_scacquire(q) >= q->size)
    ;
  uint8_t *slot = (uint8_t *)q->base_address + (index & (q->size - 1)) * 64;
  memcpy(slot + 2, (const uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, *(const uint16_t *)packet, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)index);
  return index;
}

int main(int argc, char **argv) {
  CHECK(hsa_init());
  hsa_agent_t agents[2] = {{0}, {0}};
  CHECK(hsa_iterate_agents(find_device, agents));
  hsa_agent_t cpu = agents[0], gpu = agents[1];
  EXPECT(cpu.handle && gpu.handle, "need a CPU agent and a GPU agent");
  hsa_amd_memory_pool_t kernarg_pool = {0};
  CHECK(hsa_amd_agent_iterate_memory_pools(cpu, find_kernarg_pool, &kernarg_pool));
  EXPECT(kernarg_pool.handle, "no kernarg pool");

  hsa_code_object_reader_t fill_reader, copy_reader;
  hsa_executable_t fill_exec =
      load_from_file(gpu, program_kernel_path(argc, argv, "fill.v4.co"), &fill_reader);
  hsa_executable_t copy_exec =
      load_from_file(gpu, program_kernel_path(argc, argv, "vector_copy.v4.co"), &copy_reader);
  struct program_kernel fill = get_kernel(fill_exec, gpu, "fill");
  struct program_kernel copy = get_kernel(copy_exec, gpu, "vector_copy");

  uint32_t max_size;
  CHECK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max_size));
  hsa_queue_t *work, *after, *cpu_queue;
  CHECK(hsa_queue_create(gpu, max_size, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                         &work));
  CHECK(
      hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &after));
  CHECK(hsa_queue_create(cpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                         &cpu_queue));

  uint32_t *out, *copied;
  uint8_t *fill_kernargs, *copy_kernarg;
  struct producer_args *pargs;
  CHECK(hsa_amd_memory_pool_allocate(kernarg_pool, TOTAL * sizeof *out, 0, (void **)&out));
  CHECK(hsa_amd_memory_pool_allocate(kernarg_pool, TOTAL * sizeof *copied, 0, (void **)&copied));
  CHECK(hsa_amd_memory_pool_allocate(kernarg_pool,
                                     (size_t)PRODUCERS * PER_PRODUCER * fill.kernarg_size, 0,
                                     (void **)&fill_kernargs));
  CHECK(hsa_amd_memory_pool_allocate(kernarg_pool, copy.kernarg_size, 0, (void **)&copy_kernarg));
  CHECK(hsa_amd_memory_pool_allocate(kernarg_pool, sizeof *pargs, 0, (void **)&pargs));
  hsa_agent_t both[2] = {cpu, gpu};
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, out));
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, copied));
  CHECK(hsa_amd_memory_fill(out, 0xffffffffu, TOTAL));
  CHECK(hsa_amd_memory_fill(copied, 0, TOTAL));
  memset(fill_kernargs, 0, (size_t)PRODUCERS * PER_PRODUCER * fill.kernarg_size);

  hsa_signal_t all_done, copy_done, producers_done;
  CHECK(hsa_signal_create(PRODUCERS * PER_PRODUCER, 0, NULL, &all_done));
  CHECK(hsa_signal_create(1, 0, NULL, &copy_done));
  CHECK(hsa_signal_create(1, 0, NULL, &producers_done));

  /* Second queue first: a barrier that waits for every producer's work,
   * then the copy of their output. */
  hsa_barrier_and_packet_t barrier;
  memset(&barrier, 0, sizeof barrier);
  barrier.header =
      PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_BARRIER_AND) | 1 << HSA_PACKET_HEADER_BARRIER;
  barrier.dep_signal[0] = all_done;
  write_aql(after, &barrier);
  memset(copy_kernarg, 0, copy.kernarg_size);
  memcpy(copy_kernarg, &out, 8);
  memcpy(copy_kernarg + 8, &copied, 8);
  hsa_kernel_dispatch_packet_t d;
  program_fill_dispatch_1d(&d, &copy, copy_kernarg, TOTAL, 256, copy_done);
  d.header = PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  d.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  write_aql(after, &d);

  /* The producers: PRODUCERS work-groups on the CPU agent's cores. */
  *pargs = (struct producer_args){work, fill, fill_kernargs, out, all_done};
  hsa_executable_t cpu_exec;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &cpu_exec));
  CHECK(hsa_executable_freeze(cpu_exec, NULL));
  struct program_kernel producer = get_kernel(cpu_exec, cpu, "rocrtst_producer");
  program_fill_dispatch_1d(&d, &producer, pargs, PRODUCERS, 1, producers_done);
  d.header = PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  d.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  write_aql(cpu_queue, &d);

  EXPECT(hsa_signal_wait_scacquire(copy_done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) == 0,
         "copy did not complete");
  EXPECT(hsa_signal_wait_scacquire(producers_done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) == 0,
         "producers did not complete");
  EXPECT(hsa_signal_load_relaxed(all_done) == 0, "all_done %ld",
         (long)hsa_signal_load_relaxed(all_done));
  for (uint32_t job = 0; job < PRODUCERS * PER_PRODUCER; job++)
    for (uint32_t i = 0; i < SLICE; i++) {
      uint32_t want = 1000 + i * (job + 1), at = job * SLICE + i;
      EXPECT(copied[at] == want, "job %u element %u: %u, want %u", job, i, copied[at], want);
    }
  EXPECT(hsa_queue_load_read_index_scacquire(work) == PRODUCERS * PER_PRODUCER, "read index %llu",
         (unsigned long long)hsa_queue_load_read_index_scacquire(work));

  CHECK(hsa_signal_destroy(all_done));
  CHECK(hsa_signal_destroy(copy_done));
  CHECK(hsa_signal_destroy(producers_done));
  CHECK(hsa_queue_destroy(work));
  CHECK(hsa_queue_destroy(after));
  CHECK(hsa_queue_destroy(cpu_queue));
  void *blocks[] = {out, copied, fill_kernargs, copy_kernarg, pargs};
  for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
    CHECK(hsa_amd_memory_pool_free(blocks[i]));
  CHECK(hsa_executable_destroy(fill_exec));
  CHECK(hsa_executable_destroy(copy_exec));
  CHECK(hsa_executable_destroy(cpu_exec));
  CHECK(hsa_code_object_reader_destroy(fill_reader));
  CHECK(hsa_code_object_reader_destroy(copy_reader));
  CHECK(hsa_shut_down());
  printf(
      "rocrtst_producers: %d producers x %d GPU dispatches in one queue, copied after a barrier: "
      "ok\n",
      PRODUCERS, PER_PRODUCER);
  return 0;
}
