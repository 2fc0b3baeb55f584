/*
 * tinygrad_style.c - HSA used the way tinygrad's HSA backend (ops_hsa.py,
 * runtime/driver/hsa.py) uses it:
 *   - agents sorted by device type; pools found by segment, location (CPU
 *     or GPU) and a non-zero size; device buffers from the GPU's own pool
 *     opened with hsa_amd_agents_allow_access, host buffers from the CPU's;
 *   - one hardware queue of the agent's maximum size, SINGLE, without an
 *     error callback, profiling on; the program keeps its own write pointer
 *     into the ring, fills packets field by field with a plain header store,
 *     stores the write index (relaxed) and rings the doorbell (screlease);
 *   - a pool of 4096 signals made up front and recycled with
 *     hsa_signal_silent_store_relaxed, more made on demand;
 *   - copies in through hsa_amd_memory_async_copy_on_engine between barrier
 *     packets (the queue's barrier signals the copy, the copy's signal feeds
 *     the next barrier), copies out into host memory locked to the CPU pool;
 *   - kernel arguments bump-allocated in device memory, their size equal to
 *     the kernel's kernarg segment (a HIP kernel without hidden arguments);
 *     the HDP flushed after writing them; kernel time from
 *     hsa_amd_profiling_get_dispatch_time.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdbool.h>

#include "support/program.h"

#define N           2048
#define BLOCK       64 /* the kernel's compile-time block size (scale.hip) */
#define SIGNAL_POOL 4096

struct device {
  hsa_agent_t agent, cpu;
  hsa_amd_memory_pool_t gpu_mempool, cpu_mempool;
  hsa_queue_t *queue;
  uint8_t *write_addr, *write_addr_end;
  uint64_t next_doorbell_index;
  hsa_amd_hdp_flush_t hdp_flush;
  hsa_signal_t signal_pool[SIGNAL_POOL];
  int signals_free;
  uint8_t *kernargs, *kernarg_next;
};

struct agents_by_type {
  hsa_agent_t cpu, gpu;
};

static hsa_status_t scan_agents(hsa_agent_t agent, void *data) {
  struct agents_by_type *a = data;
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_SUCCESS;
  if (type == HSA_DEVICE_TYPE_CPU && !a->cpu.handle) a->cpu = agent;
  if (type == HSA_DEVICE_TYPE_GPU && !a->gpu.handle) a->gpu = agent;
  return HSA_STATUS_SUCCESS;
}

struct pool_filter {
  int segment, location;
  hsa_amd_memory_pool_t found;
};

static hsa_status_t filter_pools(hsa_amd_memory_pool_t pool, void *data) {
  struct pool_filter *f = data;
  hsa_amd_segment_t segment;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
  if (f->segment >= 0 && (int)segment != f->segment) return HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_location_t location;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_LOCATION, &location));
  if (f->location >= 0 && (int)location != f->location) return HSA_STATUS_SUCCESS;
  size_t size;
  CHECK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  if (size == 0) return HSA_STATUS_SUCCESS;
  f->found = pool;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_amd_memory_pool_t find_memory_pool(hsa_agent_t agent, int segment, int location) {
  struct pool_filter f = {segment, location, {0}};
  hsa_amd_agent_iterate_memory_pools(agent, filter_pools, &f);
  EXPECT(f.found.handle != 0, "no pool of segment %d at location %d", segment, location);
  return f.found;
}

static hsa_signal_t alloc_signal(struct device *d) {
  if (d->signals_free > 0) return d->signal_pool[--d->signals_free];
  hsa_signal_t s;
  CHECK(hsa_amd_signal_create(1, 0, NULL, 0, &s));
  return s;
}

/* A released signal goes back to the pool, reset without waking anyone. */
static void release_signal(struct device *d, hsa_signal_t s) {
  hsa_signal_silent_store_relaxed(s, 1);
  if (d->signals_free < SIGNAL_POOL)
    d->signal_pool[d->signals_free++] = s;
  else
    CHECK(hsa_signal_destroy(s));
}

static void *alloc_device(struct device *d, size_t size) {
  void *buf;
  CHECK(hsa_amd_memory_pool_allocate(d->gpu_mempool, size, 0, &buf));
  CHECK(hsa_amd_agents_allow_access(1, &d->agent, NULL, buf));
  return buf;
}

static void *alloc_host(struct device *d, size_t size) {
  void *buf;
  hsa_agent_t both[2] = {d->cpu, d->agent};
  CHECK(hsa_amd_memory_pool_allocate(d->cpu_mempool, size, 0, &buf));
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, buf));
  return buf;
}

static void *next_slot(struct device *d) {
  void *slot = d->write_addr;
  d->next_doorbell_index++;
  d->write_addr += 64;
  if (d->write_addr > d->write_addr_end) d->write_addr = d->queue->base_address;
  return slot;
}

static void ring(struct device *d) {
  hsa_queue_store_write_index_relaxed(d->queue, d->next_doorbell_index + 1);
  hsa_signal_store_screlease(d->queue->doorbell_signal, (hsa_signal_value_t)d->next_doorbell_index);
}

static hsa_signal_t submit_barrier(struct device *d, const hsa_signal_t *wait, int nwait,
                                   bool need_signal) {
  hsa_signal_t signal = need_signal ? alloc_signal(d) : (hsa_signal_t){0};
  hsa_barrier_and_packet_t *packet = next_slot(d);
  packet->reserved0 = 0;
  packet->reserved1 = 0;
  for (int i = 0; i < 5; i++) packet->dep_signal[i] = i < nwait ? wait[i] : (hsa_signal_t){0};
  packet->reserved2 = 0;
  packet->completion_signal = signal;
  packet->header =
      1 << HSA_PACKET_HEADER_BARRIER | PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_BARRIER_AND);
  ring(d);
  return signal;
}

static void wait_signal(hsa_signal_t s) {
  hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_ACTIVE);
}

static void synchronize(struct device *d) {
  hsa_signal_t s = submit_barrier(d, NULL, 0, true);
  wait_signal(s);
  release_signal(d, s);
}

static void copyin(struct device *d, void *dest, const void *src, size_t n) {
  hsa_signal_t copy_signal = alloc_signal(d);
  hsa_signal_t sync_signal = submit_barrier(d, NULL, 0, true);
  void *mem = alloc_host(d, n);
  memcpy(mem, src, n);
  CHECK(hsa_amd_memory_async_copy_on_engine(dest, d->agent, mem, d->cpu, n, 1, &sync_signal,
                                            copy_signal, HSA_AMD_SDMA_ENGINE_0, true));
  submit_barrier(d, &copy_signal, 1, false);
  synchronize(d);
  CHECK(hsa_amd_memory_pool_free(mem));
  release_signal(d, copy_signal);
  release_signal(d, sync_signal);
}

static void copyout(struct device *d, void *dest, const void *src, size_t n) {
  synchronize(d);
  hsa_signal_t copy_signal = alloc_signal(d);
  hsa_agent_t agents[2] = {d->agent, d->cpu};
  void *addr;
  CHECK(hsa_amd_memory_lock_to_pool(dest, n, agents, 2, d->cpu_mempool, 0, &addr));
  CHECK(hsa_amd_memory_async_copy(addr, d->cpu, src, d->agent, n, 0, NULL, copy_signal));
  wait_signal(copy_signal);
  CHECK(hsa_amd_memory_unlock(dest));
  release_signal(d, copy_signal);
}

int main(int argc, char **argv) {
  CHECK(hsa_init());
  struct agents_by_type agents = {{0}, {0}};
  CHECK(hsa_iterate_agents(scan_agents, &agents));
  EXPECT(agents.cpu.handle && agents.gpu.handle, "need a CPU and a GPU agent");
  static struct device dev;
  struct device *d = &dev;
  d->agent = agents.gpu;
  d->cpu = agents.cpu;
  d->cpu_mempool =
      find_memory_pool(d->cpu, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_LOCATION_CPU);
  d->gpu_mempool =
      find_memory_pool(d->agent, HSA_AMD_SEGMENT_GLOBAL, HSA_AMD_MEMORY_POOL_LOCATION_GPU);

  uint32_t max_queue_size;
  CHECK(hsa_agent_get_info(d->agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max_queue_size));
  CHECK(hsa_queue_create(d->agent, max_queue_size, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX,
                         UINT32_MAX, &d->queue));
  d->write_addr = d->queue->base_address;
  d->write_addr_end = (uint8_t *)d->queue->base_address + 64 * d->queue->size - 1;
  d->next_doorbell_index = (uint64_t)-1;
  CHECK(hsa_amd_profiling_set_profiler_enabled(d->queue, 1));

  char arch[256] = {0};
  CHECK(hsa_agent_get_info(d->agent, HSA_AGENT_INFO_NAME, arch));
  uint64_t gpu_freq;
  CHECK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &gpu_freq));
  CHECK(
      hsa_agent_get_info(d->agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &d->hdp_flush));
  for (int i = 0; i < SIGNAL_POOL; i++) CHECK(hsa_signal_create(1, 0, NULL, &d->signal_pool[i]));
  d->signals_free = SIGNAL_POOL;
  d->kernargs = d->kernarg_next = alloc_device(d, 1 << 20);

  /* The program: a HIP kernel, loaded from memory. */
  size_t lib_size;
  void *lib = program_read_file(program_kernel_path(argc, argv, "scale.co"), &lib_size);
  hsa_executable_t exec;
  hsa_code_object_reader_t reader;
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &exec));
  CHECK(hsa_code_object_reader_create_from_memory(lib, lib_size, &reader));
  CHECK(hsa_executable_load_agent_code_object(exec, d->agent, reader, NULL, NULL));
  CHECK(hsa_executable_freeze(exec, NULL));
  hsa_executable_symbol_t kernel;
  CHECK(hsa_executable_get_symbol_by_name(exec, "scale.kd", &d->agent, &kernel));
  struct program_kernel k = program_kernel_info(kernel);
  struct {
    float *x;
    float factor;
    uint32_t n;
  } args;
  EXPECT(sizeof args == k.kernarg_size, "incorrect args struct size %zu != %u", sizeof args,
         k.kernarg_size);

  float *buf = alloc_device(d, N * sizeof(float));
  float host[N], back[N];
  for (int i = 0; i < N; i++) host[i] = (float)i - 100.0f;
  copyin(d, buf, host, sizeof host);

  /* Kernel arguments in device memory, then the HDP flushed. */
  args.x = buf;
  args.factor = 0.5f;
  args.n = N;
  uint8_t *kernarg = d->kernarg_next;
  d->kernarg_next += (k.kernarg_size + 15) & ~15u;
  memcpy(kernarg, &args, sizeof args);
  d->hdp_flush.HDP_MEM_FLUSH_CNTL[0] = 1; /* unconditionally, as tinygrad does */

  hsa_signal_t signal = alloc_signal(d);
  hsa_kernel_dispatch_packet_t *packet = next_slot(d);
  packet->workgroup_size_x = BLOCK;
  packet->workgroup_size_y = 1;
  packet->workgroup_size_z = 1;
  packet->reserved0 = 0;
  packet->grid_size_x = (N / BLOCK) * BLOCK;
  packet->grid_size_y = 1;
  packet->grid_size_z = 1;
  packet->private_segment_size = k.private_size;
  packet->group_segment_size = k.group_size;
  packet->kernel_object = k.object;
  packet->kernarg_address = kernarg;
  packet->reserved2 = 0;
  packet->completion_signal = signal;
  packet->setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  packet->header =
      1 << HSA_PACKET_HEADER_BARRIER | PROGRAM_PACKET_HEADER(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  ring(d);
  wait_signal(signal);
  hsa_amd_profiling_dispatch_time_t timings;
  CHECK(hsa_amd_profiling_get_dispatch_time(d->agent, signal, &timings));
  EXPECT(timings.end >= timings.start && timings.start > 0, "kernel timings");
  double seconds = (double)(timings.end - timings.start) / (double)gpu_freq;
  release_signal(d, signal);

  copyout(d, back, buf, sizeof back);
  for (int i = 0; i < N; i++) EXPECT(back[i] == host[i] * 0.5f, "x[%d] = %f", i, back[i]);

  /* More signals than the pool holds: made on demand, recycled, destroyed. */
  hsa_signal_t extra[8];
  for (int i = 0; i < 8; i++) extra[i] = alloc_signal(d);
  for (int i = 0; i < 8; i++) CHECK(hsa_signal_destroy(extra[i]));

  CHECK(hsa_queue_destroy(d->queue));
  for (int i = 0; i < d->signals_free; i++) CHECK(hsa_signal_destroy(d->signal_pool[i]));
  CHECK(hsa_amd_memory_pool_free(buf));
  CHECK(hsa_amd_memory_pool_free(d->kernargs));
  CHECK(hsa_code_object_reader_destroy(reader));
  CHECK(hsa_executable_destroy(exec));
  free(lib);
  CHECK(hsa_shut_down());
  printf("tinygrad_style: %s scaled %d floats in %.1f us: ok\n", arch, N, seconds * 1e6);
  return 0;
}
