/*
 * memory_async.c - asynchronous copies (ROCr hsa_ext_amd.h:
 * hsa_amd_memory_async_copy, _on_engine, _rect).
 *
 * A copy is AQL work for the first CPU agent, on a queue the runtime owns:
 * barrier-AND packets carry the dependency signals (five per packet), then
 * an agent-dispatch packet runs the copy and decrements the completion
 * signal. No thread waits: the agent's packet processor does the waiting
 * as it does for any barrier.
 */
#define LOG_TAG "async-copy"
#include <stdlib.h>
#include <string.h>

#include "hsa/agent.h"
#include "hsa/cpu_kernel.h"
#include "hsa/queue.h"
#include "lib/plat.h"

#define COPY_QUEUE_SIZE 1024

struct rect_copy {
  hsa_pitched_ptr_t dst, src;
  hsa_dim3_t dst_offset, src_offset, range;
};

static void runtime_memory_copy(const uint64_t arg[4], void *return_address) {
  (void)return_address;
  memmove((void *)(uintptr_t)arg[0], (const void *)(uintptr_t)arg[1], (size_t)arg[2]);
}

static void runtime_memory_copy_rect(const uint64_t arg[4], void *return_address) {
  (void)return_address;
  struct rect_copy *r = (struct rect_copy *)(uintptr_t)arg[0];
  for (uint32_t z = 0; z < r->range.z; z++)
    for (uint32_t y = 0; y < r->range.y; y++) {
      uint8_t *d = (uint8_t *)r->dst.base + (size_t)(r->dst_offset.z + z) * r->dst.slice +
                   (size_t)(r->dst_offset.y + y) * r->dst.pitch + r->dst_offset.x;
      const uint8_t *s = (const uint8_t *)r->src.base +
                         (size_t)(r->src_offset.z + z) * r->src.slice +
                         (size_t)(r->src_offset.y + y) * r->src.pitch + r->src_offset.x;
      memmove(d, s, r->range.x);
    }
  free(r);
}

const hsa_cpu_agent_function_t cpu_runtime_agent_functions[CPU_RUNTIME_AGENT_FUNCTIONS] = {
    {CPU_AGENT_FN_MEMORY_COPY, runtime_memory_copy, "runtime_memory_copy"},
    {CPU_AGENT_FN_MEMORY_COPY_RECT, runtime_memory_copy_rect, "runtime_memory_copy_rect"},
};

static struct queue *get_copy_queue(hsa_status_t *st) {
  lock_acquire(&rt.async_copy.lock);
  *st = HSA_STATUS_SUCCESS;
  if (!rt.async_copy.queue) {
    struct agent *cpu = NULL;
    for (uint32_t i = 0; i < agent_count() && !cpu; i++)
      if (agent_at(i)->device_type == HSA_DEVICE_TYPE_CPU) cpu = agent_at(i);
    *st = cpu ? queue_create_internal(cpu, COPY_QUEUE_SIZE, &rt.async_copy.queue) : HSA_STATUS_ERROR;
    if (rt.async_copy.queue && atomic_load(&rt.async_copy.profiling))
      hsa_amd_profiling_set_profiler_enabled(queue_hsa(rt.async_copy.queue), 1);
  }
  struct queue *q = rt.async_copy.queue;
  lock_release(&rt.async_copy.lock);
  return q;
}

/* With copy profiling on, the copy queue's processor stamps the completion
 * signals (start and end of each copy, dependencies met first). */
hsa_status_t hsa_amd_profiling_async_copy_enable(bool enable) {
  RETURN_IF_NOT_INITIALIZED();
  /* A copy queue made later takes the flag when it is created. */
  lock_acquire(&rt.async_copy.lock);
  atomic_store(&rt.async_copy.profiling, enable);
  struct queue *q = rt.async_copy.queue;
  hsa_status_t st = q ? hsa_amd_profiling_set_profiler_enabled(queue_hsa(q), enable) : HSA_STATUS_SUCCESS;
  lock_release(&rt.async_copy.lock);
  return st;
}

void async_copy_fini(void) {
  atomic_store(&rt.async_copy.profiling, false);
  lock_acquire(&rt.async_copy.lock);
  struct queue *q = rt.async_copy.queue;
  rt.async_copy.queue = NULL;
  lock_release(&rt.async_copy.lock);
  if (q) hsa_queue_destroy(queue_hsa(q));
}

static uint16_t header_of(hsa_packet_type_t type) {
  return (uint16_t)(type << HSA_PACKET_HEADER_TYPE | 1 << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

/* ROCr's argument checks of an async copy, in its order (hsa_ext_amd.cpp
 * hsa_amd_memory_async_copy): pointers, the dependency list, the agents,
 * then every signal; the completion signal is required. */
static hsa_status_t check_copy(const void *dst, hsa_agent_t dst_agent, const void *src,
                               hsa_agent_t src_agent, uint32_t num_dep_signals,
                               const hsa_signal_t *dep_signals, hsa_signal_t completion_signal) {
  if (!dst || !src) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!agent_from_handle(dst_agent) || !agent_from_handle(src_agent))
    return HSA_STATUS_ERROR_INVALID_AGENT;
  for (uint32_t i = 0; i < num_dep_signals; i++)
    if (!signal_is_valid(dep_signals[i])) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (!signal_is_valid(completion_signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  return HSA_STATUS_SUCCESS;
}

/* Queues barriers for the dependencies, then the agent-dispatch packet. */
static hsa_status_t submit(uint16_t type, const uint64_t args[4], uint32_t num_dep_signals,
                           const hsa_signal_t *dep_signals, hsa_signal_t completion_signal) {
  hsa_status_t st;
  struct queue *q = get_copy_queue(&st);
  if (!q) return st;
  uint32_t barriers = (num_dep_signals + 4) / 5;
  /* Reserve every slot at once: the packets stay together. */
  uint64_t first = __atomic_fetch_add(&q->amd.write_dispatch_id, barriers + 1, __ATOMIC_ACQ_REL);
  while (first + barriers + 1 - __atomic_load_n(&q->amd.read_dispatch_id, __ATOMIC_ACQUIRE) >
         q->amd.hsa_queue.size)
    plat_sleep_ns(1000);
  for (uint32_t b = 0; b < barriers; b++) {
    hsa_barrier_and_packet_t p = {0};
    for (uint32_t i = 0; i < 5 && b * 5 + i < num_dep_signals; i++)
      p.dep_signal[i] = dep_signals[b * 5 + i];
    queue_publish(q, first + b, &p, header_of(HSA_PACKET_TYPE_BARRIER_AND));
  }
  hsa_agent_dispatch_packet_t p = {0};
  p.type = type;
  memcpy(p.arg, args, sizeof p.arg);
  p.completion_signal = completion_signal;
  queue_publish(q, first + barriers, &p, header_of(HSA_PACKET_TYPE_AGENT_DISPATCH));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                                       hsa_agent_t src_agent, size_t size, uint32_t num_dep_signals,
                                       const hsa_signal_t *dep_signals,
                                       hsa_signal_t completion_signal) {
  RETURN_IF_NOT_INITIALIZED();
  hsa_status_t st = check_copy(dst, dst_agent, src, src_agent, num_dep_signals, dep_signals,
                               completion_signal);
  /* ROCr: nothing to copy is done at once, and the signal left alone. */
  if (st != HSA_STATUS_SUCCESS || size == 0) return st;
  const uint64_t args[4] = {(uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, size, 0};
  return submit(CPU_AGENT_FN_MEMORY_COPY, args, num_dep_signals, dep_signals, completion_signal);
}

/* There are no SDMA engines (hsa_amd_memory_copy_engine_status reports
 * none): the copy runs as any async copy, as ROCr runs it with SDMA
 * disabled (GpuAgent::DmaCopyOnEngine: engine and force flag ignored);
 * only an engine mask that is not one bit is refused (Runtime::
 * CopyMemoryOnEngine). */
hsa_status_t hsa_amd_memory_async_copy_on_engine(
    void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent, size_t size,
    uint32_t num_dep_signals, const hsa_signal_t *dep_signals, hsa_signal_t completion_signal,
    hsa_amd_sdma_engine_id_t engine_id, bool force_copy_on_sdma) {
  RETURN_IF_NOT_INITIALIZED();
  (void)force_copy_on_sdma;
  hsa_status_t st = check_copy(dst, dst_agent, src, src_agent, num_dep_signals, dep_signals,
                               completion_signal);
  if (st != HSA_STATUS_SUCCESS || size == 0) return st;
  if (engine_id == 0 || (engine_id & (engine_id - 1))) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, size, num_dep_signals,
                                   dep_signals, completion_signal);
}

hsa_status_t hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent, hsa_agent_t src_agent,
                                               uint32_t *engine_ids_mask) {
  RETURN_IF_NOT_INITIALIZED();
  if (!agent_from_handle(dst_agent) || !agent_from_handle(src_agent))
    return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!engine_ids_mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *engine_ids_mask = 0;
  return HSA_STATUS_SUCCESS;
}

/* ROCr's checks and their order (hsa_amd_memory_async_copy_rect, then
 * BlitSdma SubmitCopyRectCommand): pointers, dependency list, direction
 * (host to host is refused), the agent, the signals; an empty range does
 * nothing; bases, pitches and slices 4-byte aligned, the box inside both
 * pitches and slices. The copy agent may be a CPU agent too (ROCr has
 * only GPUs to name; ours copy with their cores either way). */
hsa_status_t hsa_amd_memory_async_copy_rect(
    const hsa_pitched_ptr_t *dst, const hsa_dim3_t *dst_offset, const hsa_pitched_ptr_t *src,
    const hsa_dim3_t *src_offset, const hsa_dim3_t *range, hsa_agent_t copy_agent,
    hsa_amd_copy_direction_t dir, uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
    hsa_signal_t completion_signal) {
  RETURN_IF_NOT_INITIALIZED();
  if (!dst || !src || !dst_offset || !src_offset || !range) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (dir == hsaHostToHost || (unsigned)dir > hsaDeviceToDevice) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!agent_from_handle(copy_agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  for (uint32_t i = 0; i < num_dep_signals; i++)
    if (!signal_is_valid(dep_signals[i])) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (!signal_is_valid(completion_signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (range->x == 0 || range->y == 0 || range->z == 0) return HSA_STATUS_SUCCESS;
  if (!dst->base || !src->base || ((uintptr_t)dst->base | (uintptr_t)src->base) % 4 ||
      (dst->pitch | src->pitch) % 4 || (dst->slice | src->slice) % 4 || !dst->pitch || !src->pitch)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (src_offset->x + (uint64_t)range->x > src->pitch || dst_offset->x + (uint64_t)range->x > dst->pitch ||
      (src->slice && src_offset->y + (uint64_t)range->y > src->slice / src->pitch) ||
      (dst->slice && dst_offset->y + (uint64_t)range->y > dst->slice / dst->pitch) ||
      (range->z > 1 && (!src->slice || !dst->slice)))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct rect_copy *r = malloc(sizeof *r);
  if (!r) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *r = (struct rect_copy){*dst, *src, *dst_offset, *src_offset, *range};
  const uint64_t args[4] = {(uint64_t)(uintptr_t)r, 0, 0, 0};
  hsa_status_t st =
      submit(CPU_AGENT_FN_MEMORY_COPY_RECT, args, num_dep_signals, dep_signals, completion_signal);
  if (st != HSA_STATUS_SUCCESS) free(r);
  return st;
}
