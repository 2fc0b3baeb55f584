/* amdgpu_queue_internal.h - a compute queue as the driver keeps it, shared
 * by the files that make up the queues: amdgpu_queue.c (resources, errors,
 * the public calls), amdgpu_hqd.c (the HQD register sequences) and
 * amdgpu_queue_sched.c (which queues hold the hardware slots).
 *
 * A queue has a doorbell and an MQD of its own for its whole life; it holds
 * one of the 32 HQD slots only while it is resident. Everything below is
 * under dev->queues.lock unless said otherwise. */
#ifndef DRIVERS_AMDGPU_AMDGPU_QUEUE_INTERNAL_H
#define DRIVERS_AMDGPU_AMDGPU_QUEUE_INTERNAL_H

#include "drivers/amdgpu/amdgpu_dev.h"

/* What the queue may still do. */
enum queue_state {
  QUEUE_RUNNING,
  QUEUE_STOPPED, /* an error or an abort stopped it; never loaded again */
  QUEUE_LOST,    /* the hardware did not let it go: its slot stays reserved */
};

/* Where the queue is. Read without the lock by the doorbell path
 * (__atomic accesses), written with it. */
enum queue_residency {
  QUEUE_SWAPPED_OUT, /* in its MQD only: the CP saved it there, or it never ran */
  QUEUE_RESIDENT,    /* in an HQD slot: the CP runs it */
  QUEUE_DRAINING,    /* in its slot with a drain dequeue request pending */
};

struct amdgpu_queue {
  struct amdgpu_device *dev;
  amd_queue_t *amd;
  uint32_t ring_bytes;
  uint32_t id;                  /* 0 .. AMDGPU_QUEUES_MAX-1: dev->queues.queue[id] */
  uint32_t vmid, doorbell_index;
  volatile uint64_t *doorbell;
  uint32_t *mqd;                /* one page, GART-mapped at mqd_address */
  uint64_t mqd_address;
  bool mqd_mapped;
  void *eop;
  void *scratch;
  size_t scratch_bytes;
  /* What its MQD gets at each load (the CP's save between loads holds
   * the registers as they were). */
  enum amdgpu_queue_priority priority;
  uint32_t cu_se_mask[4];       /* COMPUTE_STATIC_THREAD_MGMT_SE0..3 */
  amdgpu_queue_error_fn error_fn;
  void *error_ctx;
  enum queue_state state;
  uint32_t residency;           /* enum queue_residency */
  uint32_t slot;                /* the HQD slot while resident or draining */
  uint64_t resident_since_ns;   /* start of its turn in the slot */
  uint64_t drain_since_ns;      /* its drain was asked for then */
  uint64_t waiting_since_ns;    /* its packets have waited for a slot since; 0: not waiting */
  /* Progress watch (amdgpu_queues_check_progress). */
  uint64_t time_limit_ns;
  uint64_t last_read_index, last_progress_ns;
};

static inline uint32_t slot_pipe(uint32_t slot) { return slot / AMDGPU_HQD_QUEUES; }
static inline uint32_t slot_queue(uint32_t slot) { return slot % AMDGPU_HQD_QUEUES; }

static inline enum queue_residency queue_residency(const struct amdgpu_queue *q) {
  return (enum queue_residency)__atomic_load_n(&q->residency, __ATOMIC_ACQUIRE);
}

/* amdgpu_queue.c: the lock. Whoever releases it also handles what the
 * interrupt handler and the doorbell path left for the holder (errors,
 * a scheduling pass). */
bool queues_try_lock(struct amdgpu_device *dev);
void queues_lock(struct amdgpu_device *dev);
void queues_unlock(struct amdgpu_device *dev);
/* The errors the interrupt handler left: stops their queues. */
void queues_handle_errors_locked(struct amdgpu_device *dev);

/* amdgpu_hqd.c: the HQD register sequences, under the GRBM queue select. */
void hqd_load(struct amdgpu_queue *q);
/* Dequeue request of `type` (CP_HQD_DEQUEUE_*), then CP_HQD_ACTIVE polled
 * until clear: 0 or -ETIMEDOUT. Busy-waits (also in interrupt context). */
int hqd_dequeue(struct amdgpu_queue *q, uint32_t type, uint64_t timeout_ns);
/* The request alone, and whether the HQD has let the queue go. */
void hqd_request_dequeue(struct amdgpu_queue *q, uint32_t type);
bool hqd_released(struct amdgpu_queue *q);

/* amdgpu_queue_sched.c: residency. */
int sched_add(struct amdgpu_queue *q);      /* a new queue: its id and doorbell; -EBUSY */
void sched_admit(struct amdgpu_queue *q);   /* ... then a slot, if one is free */
void sched_vacate(struct amdgpu_queue *q);  /* the HQD let it go: its slot is free */
/* Stops the queue on the hardware at once (reset dequeue) wherever it is:
 * 0, or -ETIMEDOUT (the queue is then LOST and keeps its slot). */
int sched_evict_now(struct amdgpu_queue *q, uint64_t timeout_ns);
/* The queue's MQD changed: drain it so that its next load takes the new
 * MQD (packets not yet started run with it). */
void sched_reload(struct amdgpu_queue *q);
/* One scheduling pass; returns when the next one is wanted (UINT64_MAX:
 * every queue with work is resident, nothing drains). */
uint64_t sched_pass_locked(struct amdgpu_device *dev, uint64_t now_ns);

#endif
