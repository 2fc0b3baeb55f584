/*
 * queue.h - queues inside the runtime.
 *
 * A queue is an amd_queue_t (256 bytes; hsa_queue_t at its start, so the
 * hsa_queue_t* the API hands out is the queue's address) followed by the
 * runtime's bookkeeping. The write index is amd.write_dispatch_id, the read
 * index amd.read_dispatch_id; the ring holds amd.hsa_queue.size 64-byte
 * packets, all INVALID at creation.
 *
 * Packet processors (agent.h) use queue_report_error() when a packet is
 * malformed: the queue stops (state QUEUE_ERROR) and its error callback runs
 * once, on the processor's core.
 */
#ifndef HSA_QUEUE_H
#define HSA_QUEUE_H

#include <hsa/amd_hsa_queue.h>

#include "hsa/runtime.h"
#include "hsa/signal.h"

enum queue_state { QUEUE_ACTIVE = 0, QUEUE_INACTIVE = 1, QUEUE_ERROR = 2 };

#define QUEUE_MAX_CU_MASK_WORDS 4 /* up to 128 cores */

struct queue {
  amd_queue_t amd;
  struct agent *agent;     /* NULL for a soft queue */
  struct signal *doorbell; /* the doorbell signal (owned unless soft) */
  bool owns_doorbell;
  void (*error_callback)(hsa_status_t status, hsa_queue_t *source, void *data);
  void *error_data;
  _Atomic uint32_t state; /* enum queue_state */
  /* What a packet processor reads per packet, copied out of the first line
   * of amd_queue_t, which producers write (write_dispatch_id) all the time. */
  void *ring;
  uint64_t ring_mask;       /* size - 1 */
  uint32_t packet_features; /* hsa_queue_feature_t bits */
  size_t ring_bytes;
  uint32_t cu_mask[QUEUE_MAX_CU_MASK_WORDS]; /* cores allowed to run its work */
  _Atomic bool profiling;                    /* fill start_ts/end_ts of completion signals */
  hsa_amd_queue_priority_t priority;
  /* A placement queue's forward queue: that placement queue (its
   * profiling is this queue's; placement_split.h), else NULL. */
  const struct queue *forwarded_for;
  struct signal_check completion_check; /* the processor's last validated completion signal */
  /* CPU agents point the doorbell here; a line of its own, since the
   * producer writes it for every packet. */
  _Alignas(64) volatile uint64_t doorbell_word;
};

static inline struct queue *queue_from_hsa(const hsa_queue_t *q) {
  return (struct queue *)(uintptr_t)q;
}

static inline hsa_queue_t *queue_hsa(struct queue *q) { return &q->amd.hsa_queue; }

/* Stops a queue after a malformed packet and calls its error callback. */
void queue_report_error(struct queue *q, hsa_status_t status);

/* Creates a queue owned by the runtime itself (async copies, functions). */
hsa_status_t queue_create_internal(struct agent *agent, uint32_t size, struct queue **out);

/* hsa_queue_destroy without the initialisation check (hsa_shut_down's
 * queues_fini destroys queues that own queues); INVALID_QUEUE if q is not
 * a live queue. */
hsa_status_t queue_destroy(struct queue *q);

/* Publishes a packet written at `index` (header last, release) and rings. */
void queue_publish(struct queue *q, uint64_t index, const void *packet, uint16_t header);

#endif
