/*
 * queue.c - user-mode queues (HSA Runtime PRM 1.2, 2.4): creation (agent
 * queues and soft queues), destruction, inactivation, and the read/write
 * index operations in every memory order.
 */
#define LOG_TAG "queue"
#include "hsa/queue.h"

#include <stdlib.h>
#include <string.h>

#include "hsa/agent.h"
#include "hsa/memory.h"
#include "lib/plat.h"
#include "lib/util.h"

/* The common part of every queue: descriptor, ring of INVALID packets. */
static hsa_status_t queue_alloc(uint32_t size, uint32_t type, uint32_t features,
                                struct queue **out) {
  struct queue *q = runtime_alloc_aligned(sizeof *q, AMD_QUEUE_ALIGN_BYTES);
  if (!q) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  memset(q, 0, sizeof *q);
  q->ring_bytes = (size_t)size * 64;
  q->ring = plat_dma_alloc(q->ring_bytes, 64);
  /* Runtime memory a program may name (hsa_amd_pointer_info, a free that
   * is refused while the queue lives), as ROCr's rings in its system pool. */
  if (!q->ring || memory_track_runtime_block(q->ring, q->ring_bytes) != HSA_STATUS_SUCCESS) {
    if (q->ring) plat_dma_free(q->ring, q->ring_bytes);
    free(q);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  /* 2.4: every packet slot starts INVALID, so a processor never runs a slot
   * the producer has not written. */
  for (uint32_t i = 0; i < size; i++)
    ((uint16_t *)q->ring)[i * 32] = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
  hsa_queue_t *hq = &q->amd.hsa_queue;
  hq->type = type;
  hq->features = features;
  hq->base_address = q->ring;
  hq->size = size;
  hq->id = atomic_fetch_add(&rt.next_queue_id, 1);
  q->ring_mask = size - 1;
  q->packet_features = features;
  q->amd.queue_properties = AMD_QUEUE_PROPERTIES_IS_PTR64;
  memset(q->cu_mask, 0xff, sizeof q->cu_mask);
  q->priority = HSA_AMD_QUEUE_PRIORITY_NORMAL;
  *out = q;
  return HSA_STATUS_SUCCESS;
}

static void queue_free(struct queue *q) {
  if (q->owns_doorbell && q->doorbell) signal_destroy(q->doorbell);
  memory_untrack_runtime_block(q->ring);
  plat_dma_free(q->ring, q->ring_bytes);
  free(q);
}

static hsa_status_t queue_create_on_agent(struct agent *agent, uint32_t size, uint32_t type,
                                          void (*callback)(hsa_status_t, hsa_queue_t *, void *),
                                          void *data, struct queue **out) {
  /* ROCr (GpuAgent::QueueCreate): no cooperative queues here, too large is
   * out of resources, too small an invalid argument. */
  if (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE)
    return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  if (!IS_POW2(size) || size < agent->queue_min_size) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size > agent->queue_max_size) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (!(agent->features & (HSA_AGENT_FEATURE_KERNEL_DISPATCH | HSA_AGENT_FEATURE_AGENT_DISPATCH)))
    return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  lock_acquire(&rt.lock);
  bool full = agent->queue_count >= agent->queues_max;
  if (!full) agent->queue_count++;
  lock_release(&rt.lock);
  if (full) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;

  struct queue *q = NULL;
  hsa_status_t st = queue_alloc(size, type, agent->features, &q);
  if (st == HSA_STATUS_SUCCESS) {
    q->agent = agent;
    q->error_callback = callback;
    q->error_data = data;
    q->amd.max_cu_id = agent->compute_units ? agent->compute_units - 1 : 0;
    st = signal_create(AMD_SIGNAL_KIND_DOORBELL, 0, 0, &q->doorbell);
  }
  if (st == HSA_STATUS_SUCCESS) {
    q->owns_doorbell = true;
    q->doorbell->amd.hardware_doorbell_ptr = &q->doorbell_word;
    q->doorbell->amd.queue_ptr = &q->amd;
    q->amd.hsa_queue.doorbell_signal = signal_handle(q->doorbell);
    st = agent->ops->queue_attach(agent, q);
  }
  if (st == HSA_STATUS_SUCCESS && !object_set_insert(&rt.queues, q)) {
    agent->ops->queue_detach(agent, q);
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if (st != HSA_STATUS_SUCCESS) {
    if (q) queue_free(q);
    lock_acquire(&rt.lock);
    agent->queue_count--;
    lock_release(&rt.lock);
    return st;
  }
  *out = q;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_create(hsa_agent_t agent_handle, uint32_t size, hsa_queue_type32_t type,
                              void (*callback)(hsa_status_t status, hsa_queue_t *source,
                                               void *data),
                              void *data, uint32_t private_segment_size,
                              uint32_t group_segment_size, hsa_queue_t **queue) {
  RETURN_IF_NOT_INITIALIZED();
  /* ROCr's order (hsa.cpp): the arguments, then the agent. */
  if (!queue || !IS_POW2(size) || type > HSA_QUEUE_TYPE_COOPERATIVE)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct agent *agent = agent_from_handle(agent_handle);
  if (!agent) return HSA_STATUS_ERROR_INVALID_AGENT;
  /* The segment sizes are hints (UINT32_MAX: the agent's default). ROCr
   * refuses a private segment beyond what a work-item can address
   * (262128 bytes); a CPU agent's private segment is its stack, its group
   * segment a per-core buffer, so other values are accepted. */
  if (private_segment_size != UINT32_MAX && private_segment_size > 262128)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  (void)group_segment_size;
  struct queue *q;
  hsa_status_t st = queue_create_on_agent(agent, size, type, callback, data, &q);
  if (st == HSA_STATUS_SUCCESS) *queue = queue_hsa(q);
  return st;
}

hsa_status_t queue_create_internal(struct agent *agent, uint32_t size, struct queue **out) {
  return queue_create_on_agent(agent, size, HSA_QUEUE_TYPE_MULTI, NULL, NULL, out);
}

hsa_status_t hsa_soft_queue_create(hsa_region_t region, uint32_t size, hsa_queue_type32_t type,
                                   uint32_t features, hsa_signal_t doorbell_signal,
                                   hsa_queue_t **queue) {
  RETURN_IF_NOT_INITIALIZED();
  struct memory_pool *pool = memory_pool_from_handle(region.handle);
  if (!pool) return HSA_STATUS_ERROR_INVALID_REGION;
  if (!queue || !IS_POW2(size) || size > (1u << 24))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (features == 0 || (features & ~(uint32_t)(HSA_QUEUE_FEATURE_KERNEL_DISPATCH |
                                               HSA_QUEUE_FEATURE_AGENT_DISPATCH)))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!signal_is_valid(doorbell_signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  struct queue *q;
  hsa_status_t st = queue_alloc(size, type, features, &q);
  if (st != HSA_STATUS_SUCCESS) return st;
  /* A soft queue has no packet processor: the program serves it, and the
   * doorbell is the program's own signal. */
  q->doorbell = signal_from_handle(doorbell_signal);
  q->amd.hsa_queue.doorbell_signal = doorbell_signal;
  if (!object_set_insert(&rt.queues, q)) {
    queue_free(q);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *queue = queue_hsa(q);
  return HSA_STATUS_SUCCESS;
}

/* Active -> inactive, and off its agent's list. An errored queue keeps
 * QUEUE_ERROR: its processor dropped it already, so detaching does not wait
 * for the processor (which may be the caller: an error callback that
 * destroys its queue). Detaching twice is harmless. */
static void queue_stop(struct queue *q) {
  uint32_t expected = QUEUE_ACTIVE;
  atomic_compare_exchange_strong(&q->state, &expected, QUEUE_INACTIVE);
  if (q->agent) q->agent->ops->queue_detach(q->agent, q);
}

hsa_status_t hsa_queue_destroy(hsa_queue_t *queue) {
  RETURN_IF_NOT_INITIALIZED();
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return queue_destroy(queue_from_hsa(queue));
}

hsa_status_t queue_destroy(struct queue *q) {
  if (!object_set_remove(&rt.queues, q)) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (atomic_load(&q->state) != QUEUE_INACTIVE) queue_stop(q);
  if (q->agent) {
    lock_acquire(&rt.lock);
    q->agent->queue_count--;
    lock_release(&rt.lock);
  }
  queue_free(q);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_inactivate(hsa_queue_t *queue) {
  RETURN_IF_NOT_INITIALIZED();
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct queue *q = queue_from_hsa(queue);
  if (!object_set_contains(&rt.queues, q)) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (atomic_load(&q->state) != QUEUE_INACTIVE) queue_stop(q);
  return HSA_STATUS_SUCCESS;
}

void queue_report_error(struct queue *q, hsa_status_t status) {
  uint32_t expected = QUEUE_ACTIVE;
  if (!atomic_compare_exchange_strong(&q->state, &expected, QUEUE_ERROR)) return;
  const char *why = NULL;
  hsa_status_string(status, &why);
  log_warn("queue %llu stopped: packet %llu: status 0x%x (%s)", (unsigned long long)q->amd.hsa_queue.id,
           (unsigned long long)q->amd.read_dispatch_id, (unsigned)status, why ? why : "unknown status");
  if (q->error_callback) q->error_callback(status, queue_hsa(q), q->error_data);
}

void queues_fini(void) {
  struct queue *q;
  while ((q = object_set_pop(&rt.queues)) != NULL) {
    if (atomic_load(&q->state) != QUEUE_INACTIVE) queue_stop(q);
    if (q->agent) q->agent->queue_count--;
    queue_free(q);
  }
  object_set_free(&rt.queues);
}

/* ---- Producer helpers for the runtime's own queues ------------------------ */

void queue_publish(struct queue *q, uint64_t index, const void *packet, uint16_t header) {
  uint8_t *slot = (uint8_t *)q->ring + (index & (q->amd.hsa_queue.size - 1)) * 64;
  memcpy(slot + 2, (const uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->amd.hsa_queue.doorbell_signal, (hsa_signal_value_t)index);
}

/* ---- Index operations ------------------------------------------------------- */

/* `index` is read or write: amd_queue_t's read_dispatch_id / write_dispatch_id. */
#define INDEX(q, index) (&((amd_queue_t *)(uintptr_t)(q))->index##_dispatch_id)
#define WRITE_INDEX(q)  INDEX(q, write)

#define DEFINE_INDEX_LOAD(index, suffix, order)                               \
  uint64_t hsa_queue_load_##index##_index_##suffix(const hsa_queue_t *q) {    \
    return __atomic_load_n(INDEX(q, index), order);                           \
  }
#define DEFINE_INDEX_STORE(index, suffix, order)                                    \
  void hsa_queue_store_##index##_index_##suffix(const hsa_queue_t *q, uint64_t v) { \
    __atomic_store_n(INDEX(q, index), v, order);                                    \
  }
DEFINE_INDEX_LOAD(read, acquire, __ATOMIC_ACQUIRE)
DEFINE_INDEX_LOAD(read, scacquire, __ATOMIC_ACQUIRE)
DEFINE_INDEX_LOAD(read, relaxed, __ATOMIC_RELAXED)
DEFINE_INDEX_LOAD(write, acquire, __ATOMIC_ACQUIRE)
DEFINE_INDEX_LOAD(write, scacquire, __ATOMIC_ACQUIRE)
DEFINE_INDEX_LOAD(write, relaxed, __ATOMIC_RELAXED)
DEFINE_INDEX_STORE(write, relaxed, __ATOMIC_RELAXED)
DEFINE_INDEX_STORE(write, release, __ATOMIC_RELEASE)
DEFINE_INDEX_STORE(write, screlease, __ATOMIC_RELEASE)
DEFINE_INDEX_STORE(read, relaxed, __ATOMIC_RELAXED)
DEFINE_INDEX_STORE(read, release, __ATOMIC_RELEASE)
DEFINE_INDEX_STORE(read, screlease, __ATOMIC_RELEASE)

static uint64_t cas_write_index(const hsa_queue_t *q, uint64_t expected, uint64_t v, int order) {
  uint64_t observed = expected;
  int fail =
      order == __ATOMIC_ACQ_REL || order == __ATOMIC_ACQUIRE ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED;
  __atomic_compare_exchange_n(WRITE_INDEX(q), &observed, v, false, order, fail);
  return observed;
}

#define DEFINE_INDEX_RMW(suffix, order)                                                       \
  uint64_t hsa_queue_cas_write_index_##suffix(const hsa_queue_t *q, uint64_t e, uint64_t v) { \
    return cas_write_index(q, e, v, order);                                                   \
  }                                                                                           \
  uint64_t hsa_queue_add_write_index_##suffix(const hsa_queue_t *q, uint64_t v) {             \
    return __atomic_fetch_add(WRITE_INDEX(q), v, order);                                      \
  }
DEFINE_INDEX_RMW(acq_rel, __ATOMIC_ACQ_REL)
DEFINE_INDEX_RMW(scacq_screl, __ATOMIC_ACQ_REL)
DEFINE_INDEX_RMW(acquire, __ATOMIC_ACQUIRE)
DEFINE_INDEX_RMW(scacquire, __ATOMIC_ACQUIRE)
DEFINE_INDEX_RMW(relaxed, __ATOMIC_RELAXED)
DEFINE_INDEX_RMW(release, __ATOMIC_RELEASE)
DEFINE_INDEX_RMW(screlease, __ATOMIC_RELEASE)

/* ---- AMD queue extras ------------------------------------------------------------ */

static struct queue *live_queue(const hsa_queue_t *queue) {
  struct queue *q = queue_from_hsa(queue);
  return queue && object_set_contains(&rt.queues, q) ? q : NULL;
}

/* ROCr (hsa_ext_amd.cpp, AqlQueue::SetCUMasking): the queue, then the mask
 * (which a zero count may leave out: back to every CU), counted in whole
 * 32-bit words; bits past the agent's CUs are dropped and said so. */
hsa_status_t hsa_amd_queue_cu_set_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
                                       const uint32_t *cu_mask) {
  RETURN_IF_NOT_INITIALIZED();
  struct queue *q = live_queue(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if ((num_cu_mask_count != 0 && !cu_mask) || num_cu_mask_count % 32 != 0 || !q->agent)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint32_t mask[QUEUE_MAX_CU_MASK_WORDS] = {0};
  bool reduced = false, any = num_cu_mask_count == 0;
  for (uint32_t cu = 0; cu < num_cu_mask_count; cu++) {
    if (!(cu_mask[cu / 32] & (1u << (cu % 32)))) continue;
    if (cu >= q->agent->compute_units || cu >= 32 * QUEUE_MAX_CU_MASK_WORDS) {
      reduced = true;
      continue;
    }
    mask[cu / 32] |= 1u << (cu % 32);
    any = true;
  }
  if (!any) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t w = 0; w < QUEUE_MAX_CU_MASK_WORDS; w++)
    __atomic_store_n(&q->cu_mask[w], num_cu_mask_count ? mask[w] : UINT32_MAX, __ATOMIC_RELAXED);
  hsa_status_t st = q->agent->ops->queue_update ? q->agent->ops->queue_update(q->agent, q) : HSA_STATUS_SUCCESS;
  if (st != HSA_STATUS_SUCCESS) return st;
  return reduced ? (hsa_status_t)HSA_STATUS_CU_MASK_REDUCED : HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_cu_get_mask(const hsa_queue_t *queue, uint32_t num_cu_mask_count,
                                       uint32_t *cu_mask) {
  RETURN_IF_NOT_INITIALIZED();
  if (!cu_mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: the pointer first */
  struct queue *q = live_queue(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (num_cu_mask_count == 0 || num_cu_mask_count % 32 != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t w = 0; w < num_cu_mask_count / 32; w++)
    cu_mask[w] =
        w < QUEUE_MAX_CU_MASK_WORDS ? __atomic_load_n(&q->cu_mask[w], __ATOMIC_RELAXED) : 0;
  if (q->agent && q->agent->compute_units < 32 * QUEUE_MAX_CU_MASK_WORDS) {
    /* Report only bits of cores that exist. */
    for (uint32_t cu = q->agent->compute_units; cu < num_cu_mask_count; cu++)
      cu_mask[cu / 32] &= ~(1u << (cu % 32));
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_set_priority(hsa_queue_t *queue, hsa_amd_queue_priority_t priority) {
  RETURN_IF_NOT_INITIALIZED();
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: IS_BAD_PTR before the queue */
  struct queue *q = live_queue(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if ((unsigned)priority > HSA_AMD_QUEUE_PRIORITY_HIGH) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  q->priority = priority;
  if (q->agent && q->agent->ops->queue_update) return q->agent->ops->queue_update(q->agent, q);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_get_info(hsa_queue_t *queue, hsa_queue_info_attribute_t attribute,
                                    void *value) {
  RETURN_IF_NOT_INITIALIZED();
  struct queue *q = live_queue(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_AMD_QUEUE_INFO_AGENT:
      if (!q->agent) return HSA_STATUS_ERROR_INVALID_QUEUE;
      *(hsa_agent_t *)value = agent_handle(q->agent);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_QUEUE_INFO_DOORBELL_ID:
      *(uint64_t *)value = (uint64_t)(uintptr_t)q->doorbell->amd.hardware_doorbell_ptr;
      return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable) {
  RETURN_IF_NOT_INITIALIZED();
  struct queue *q = live_queue(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  atomic_store(&q->profiling, enable != 0);
  if (enable)
    q->amd.queue_properties |= AMD_QUEUE_PROPERTIES_ENABLE_PROFILING;
  else
    q->amd.queue_properties &= ~(uint32_t)AMD_QUEUE_PROPERTIES_ENABLE_PROFILING;
  return HSA_STATUS_SUCCESS;
}
