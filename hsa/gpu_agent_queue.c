/*
 * gpu_agent_queue.c - the GPU agent's queues: the runtime's AQL ring and
 * amd_queue_t loaded into a hardware queue slot by the driver, the
 * doorbell signal pointed at the slot's doorbell, and queue errors turned
 * into the queue's error callback.
 *
 * Errors reach the agent two ways, as on gfx9 with ROCr:
 *   - the command processor writes an error code into the queue's
 *     queue_inactive_signal (a packet it refuses; the trap handler's codes
 *     for an illegal instruction, an aperture violation, s_trap 2) and
 *     raises the signal's event;
 *   - the driver's fault path stops the queue (VM fault, SQ error) and
 *     calls gpu_queue_stopped with the HSA status.
 * Either way the error callback runs on the runtime's async-handler thread
 * (an async handler on queue_inactive_signal, as ROCr's AqlQueue has),
 * never in interrupt context; the first report wins.
 */
#define LOG_TAG "gpu-agent"
#include <errno.h>
#include <stdlib.h>

#include <hsa/hsa_queue_time_limit.h>

#include "hsa/gpu_agent.h"
#include "hsa/queue.h"
#include "hsa/runtime.h"
#include "hsa/signal.h"
#include "lib/plat.h"

#define DESTROY_TIMEOUT_NS 1000000000ull
#define HANDLER_EXIT_TIMEOUT_NS 5000000000ull

/* Codes in queue_inactive_signal's value, as the CP firmware and ROCr's
 * gfx9 trap handler write them (ROCR-Runtime amd_aql_queue.cpp,
 * AqlQueue::DynamicQueueEventsHandler; amd_blit_shaders.h SIGNAL_CODE_*). */
#define CODE_SCRATCH 0x1ull
#define CODE_INVALID_DIM 0x2ull
#define CODE_GROUP_MEMORY 0x4ull
#define CODE_INVALID_CODE 0x8ull
#define CODE_INVALID_FORMAT 0x20ull
#define CODE_GROUP_TOO_LARGE 0x40ull
#define CODE_OUT_OF_VGPRS 0x80ull
#define CODE_VENDOR_FORMAT 0x100ull
#define CODE_MEMORY_VIOLATION 0x20000000ull
#define CODE_ILLEGAL_INSTRUCTION 0x40000000ull
#define CODE_TRAP 0x80000000ull
/* The agent's own marks, above the 32 bits of firmware codes: the driver
 * stopped the queue (status in driver_status); the queue is being
 * destroyed (ROCr stores 1 << 63 for that too). */
#define MARK_DRIVER_STOPPED (1ull << 62)
#define MARK_DETACHING (1ull << 63)

struct gpu_queue {
  struct gpu_agent *ga;
  struct queue *q;
  struct amdgpu_queue *hw;
  struct signal *inactive;       /* amd_queue_t.queue_inactive_signal */
  _Atomic int driver_status;     /* set by gpu_queue_stopped, 0 = none */
  _Atomic bool handler_done;     /* the async handler will not run again */
};

/* The agent's record of a runtime queue. */
static bool track(struct gpu_agent *ga, struct gpu_queue *gq) {
  lock_acquire(&ga->queues_lock);
  bool room = ga->queue_count < AMDGPU_QUEUES_MAX;
  if (room) ga->queues[ga->queue_count++] = gq;
  lock_release(&ga->queues_lock);
  return room;
}

static struct gpu_queue *untrack(struct gpu_agent *ga, const struct queue *q) {
  struct gpu_queue *found = NULL;
  lock_acquire(&ga->queues_lock);
  for (uint32_t i = 0; i < ga->queue_count; i++)
    if (ga->queues[i]->q == q) {
      found = ga->queues[i];
      ga->queues[i] = ga->queues[--ga->queue_count];
      break;
    }
  lock_release(&ga->queues_lock);
  return found;
}

static hsa_status_t status_of_code(uint64_t code) {
  if (code & CODE_INVALID_DIM) return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  if (code & CODE_GROUP_MEMORY) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  if (code & CODE_INVALID_CODE) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (code & (CODE_INVALID_FORMAT | CODE_VENDOR_FORMAT)) return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  if (code & CODE_GROUP_TOO_LARGE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (code & CODE_OUT_OF_VGPRS) return (hsa_status_t)HSA_STATUS_ERROR_OUT_OF_REGISTERS;
  if (code & CODE_MEMORY_VIOLATION) return (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
  if (code & CODE_ILLEGAL_INSTRUCTION) return (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION;
  if (code & CODE_TRAP) return HSA_STATUS_ERROR_EXCEPTION;
  /* Scratch the queue cannot give (regrow_scratch failed). */
  if (code & CODE_SCRATCH) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  return HSA_STATUS_ERROR;
}

/* What a program sees of a queue the driver stopped, as ROCr reports a
 * KFD queue error (amd_gpu_agent.cpp / amd_aql_queue.cpp: a memory fault,
 * the SQ's illegal instruction and aperture violation, a packet the CP
 * refused); everything else, and a dispatch that overran its time limit
 * (the driver aborts it), is an exception. */
hsa_status_t gpu_queue_error_status(const struct amdgpu_queue_error *error) {
  switch (error->kind) {
    case AMDGPU_QUEUE_ERROR_VM_FAULT: return (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT;
    case AMDGPU_QUEUE_ERROR_ILLEGAL_INSTRUCTION: return (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION;
    case AMDGPU_QUEUE_ERROR_MEMORY_VIOLATION: return (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
    case AMDGPU_QUEUE_ERROR_BAD_PACKET: return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
    case AMDGPU_QUEUE_ERROR_HARDWARE:
    case AMDGPU_QUEUE_ERROR_ABORTED: break;
  }
  return HSA_STATUS_ERROR_EXCEPTION;
}

/* ROCr's answer to "insufficient scratch" (AqlQueue::HandleInsufficientScratch):
 * the waiting dispatch's private segment per work-item becomes the queue's
 * slot size. If the queue's scratch memory holds the waves of one
 * work-group at that size, it is cut into fewer, larger wave slots (fewer
 * waves may use scratch at once: COMPUTE_TMPRING_SIZE WAVES [11:0],
 * WAVESIZE [24:12] in KiB per wave; gc_9_1_sh_mask.h), as ROCr's reduced
 * "use once" scratch; otherwise the driver gives the queue new scratch.
 * False if neither works. */
#define TMPRING_WAVES_MAX 0xfffu
#define TMPRING_WAVESIZE_SHIFT 12
#define TMPRING_WAVESIZE_MAX 0x1fffu
#define SCRATCH_WAVE_UNIT 1024u /* WAVESIZE granule: bytes per wave */
#define SCRATCH_SLOTS_PER_CU 32u /* KFD's max_slots_scratch_cu on gfx9 */
#define SCRATCH_LIMIT_BYTES (128ull << 20) /* ROCr's DEFAULT_SCRATCH_SINGLE_LIMIT */
static bool regrow_scratch(struct gpu_queue *gq) {
  amd_queue_t *a = &gq->q->amd;
  uint64_t index = __atomic_load_n(&a->read_dispatch_id, __ATOMIC_ACQUIRE);
  const hsa_kernel_dispatch_packet_t *p =
      (const hsa_kernel_dispatch_packet_t *)gq->q->ring + (index & (a->hsa_queue.size - 1));
  uint32_t lane = (p->private_segment_size + SCRATCH_WAVE_UNIT / 64 - 1) & ~(SCRATCH_WAVE_UNIT / 64 - 1);
  uint64_t wave_bytes = (uint64_t)lane * 64;
  uint64_t group_waves =
      ((uint64_t)p->workgroup_size_x * p->workgroup_size_y * p->workgroup_size_z + 63) / 64;
  if (!lane || wave_bytes / SCRATCH_WAVE_UNIT > TMPRING_WAVESIZE_MAX) {
    log_error("queue %llu: a dispatch asks for %u scratch bytes per work-item (at most %u)",
              (unsigned long long)a->hsa_queue.id, p->private_segment_size,
              TMPRING_WAVESIZE_MAX * SCRATCH_WAVE_UNIT / 64);
    return false;
  }
  uint64_t waves = a->scratch_backing_memory_byte_size / wave_bytes;
  if (waves < group_waves) {
    /* Too little memory even for one work-group: the driver allocates
     * scratch of the new size for every wave slot of the chip (KFD's 32
     * per CU), or, when that passes ROCr's limit for one queue's scratch,
     * for as many waves as the limit holds (ROCr's reduced scratch), if
     * that is one work-group at least. */
    uint64_t chip_waves = (uint64_t)gq->ga->info.compute_units * SCRATCH_SLOTS_PER_CU;
    uint64_t fit = SCRATCH_LIMIT_BYTES / wave_bytes;
    if (fit < group_waves) {
      log_error("queue %llu: %u scratch bytes per work-item for %llu waves would pass the %llu MiB limit",
                (unsigned long long)a->hsa_queue.id, lane, (unsigned long long)group_waves,
                (unsigned long long)(SCRATCH_LIMIT_BYTES >> 20));
      return false;
    }
    int r = amdgpu_queue_set_scratch(gq->hw, lane, chip_waves <= fit ? 0 : (uint32_t)fit);
    if (r) {
      log_error("queue %llu: no scratch of %u bytes per work-item (%d)", (unsigned long long)a->hsa_queue.id,
                lane, r);
      return false;
    }
    return true;
  }
  if (waves > TMPRING_WAVES_MAX) waves = TMPRING_WAVES_MAX;
  a->scratch_wave64_lane_byte_size = lane;
  a->compute_tmpring_size =
      (uint32_t)waves | (uint32_t)(wave_bytes / SCRATCH_WAVE_UNIT) << TMPRING_WAVESIZE_SHIFT;
  log_debug("queue %llu: scratch re-cut to %llu waves of %u bytes per work-item",
            (unsigned long long)a->hsa_queue.id, (unsigned long long)waves, lane);
  return true;
}

/* Runs on the runtime's async-handler thread once queue_inactive_signal
 * is non-zero. One-shot after an error: the queue is dead then. */
static bool on_queue_inactive(hsa_signal_value_t value, void *arg) {
  struct gpu_queue *gq = arg;
  uint64_t v = (uint64_t)value;
  if (v & MARK_DETACHING) {
    atomic_store(&gq->handler_done, true);
    return false;
  }
  int driver = atomic_load(&gq->driver_status);
  /* Only a scratch request: answer it and let the queue go on. */
  if (!driver && (v & 0xffffffffull) == CODE_SCRATCH && regrow_scratch(gq)) {
    /* The code goes, a mark set meanwhile stays (the detach or the driver
     * waits for this handler to see it: the handler runs again at once). */
    __atomic_fetch_and(&gq->inactive->amd.value, (int64_t)~0xffffffffull, __ATOMIC_ACQ_REL);
    signal_notify(gq->inactive);
    return true;
  }
  hsa_status_t status = driver ? (hsa_status_t)driver : status_of_code(v & 0xffffffffull);
  struct queue *q = gq->q;
  /* The firmware stopped the queue: the hardware lets it go, as ROCr
   * inactivates a queue after an error (AqlQueue::Inactivate), so that its
   * slot serves other queues. */
  if (!driver) amdgpu_queue_abort(gq->hw, DESTROY_TIMEOUT_NS);
  /* Done before the callback: it may destroy the queue (and gq with it). */
  atomic_store(&gq->handler_done, true);
  queue_report_error(q, status);
  return false;
}

/* The driver stopped the queue (interrupt context or the abort caller):
 * note the status and wake the async handler. Must not block. */
static void gpu_queue_stopped(void *ctx, struct amdgpu_queue *hw,
                              const struct amdgpu_queue_error *error) {
  struct gpu_queue *gq = ctx;
  int none = 0;
  atomic_compare_exchange_strong(&gq->driver_status, &none, (int)gpu_queue_error_status(error));
  __atomic_fetch_or(&gq->inactive->amd.value, (int64_t)MARK_DRIVER_STOPPED, __ATOMIC_SEQ_CST);
  signal_notify(gq->inactive);
}

/* The doorbell signal's store also tells the hardware (the model's CP). */
static void ring_doorbell(struct signal *s, int64_t value) {
  amdgpu_queue_ring_doorbell(s->ring_arg, (uint64_t)value);
}

static enum amdgpu_queue_priority priority_of(hsa_amd_queue_priority_t p) {
  switch (p) {
    case HSA_AMD_QUEUE_PRIORITY_LOW: return AMDGPU_QUEUE_PRIORITY_LOW;
    case HSA_AMD_QUEUE_PRIORITY_HIGH: return AMDGPU_QUEUE_PRIORITY_HIGH;
    default: return AMDGPU_QUEUE_PRIORITY_NORMAL;
  }
}

hsa_status_t gpu_queue_attach(struct agent *agent, struct queue *q) {
  struct gpu_agent *ga = gpu_agent_of(agent);
  struct gpu_queue *gq = calloc(1, sizeof *gq);
  if (!gq) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  gq->ga = ga;
  gq->q = q;
  hsa_status_t st = signal_create(AMD_SIGNAL_KIND_USER, 0, 0, &gq->inactive);
  if (st != HSA_STATUS_SUCCESS) {
    free(gq);
    return st;
  }
  /* The CP (or a trap handler) writes an error code there and raises the
   * signal's event: the end-of-pipe interrupt wakes the queue's error
   * handler (without an event left, it polls). */
  signal_event_attach(gq->inactive);
  if (amdgpu_map_system_range(ga->dev, gq->inactive, sizeof *gq->inactive)) {
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    goto fail_signal;
  }
  q->amd.queue_inactive_signal = signal_handle(gq->inactive);
  struct amdgpu_queue_desc desc = {
      .amd_queue = &q->amd,
      .ring_bytes = (uint32_t)q->ring_bytes,
      .priority = priority_of(q->priority),
      .scratch_bytes_per_lane = ga->scratch_lane_bytes,
      .error_fn = gpu_queue_stopped,
      .error_ctx = gq,
  };
  int r = amdgpu_queue_create(ga->dev, &desc, &gq->hw);
  if (r) {
    log_error("queue %llu: the driver could not create it (%d)", (unsigned long long)q->amd.hsa_queue.id, r);
    st = r == -EBUSY ? HSA_STATUS_ERROR_OUT_OF_RESOURCES : HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
    goto fail_signal;
  }
  struct amdgpu_queue_info info;
  amdgpu_queue_get_info(gq->hw, &info);
  q->doorbell->amd.hardware_doorbell_ptr = info.doorbell;
  q->doorbell->ring = ring_doorbell;
  q->doorbell->ring_arg = gq->hw;
  if (!track(ga, gq)) {
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    amdgpu_queue_destroy(gq->hw, DESTROY_TIMEOUT_NS);
    goto fail_signal;
  }
  if (ga->time_limit_ns) amdgpu_queue_set_time_limit(gq->hw, ga->time_limit_ns);
  st = hsa_amd_signal_async_handler(signal_handle(gq->inactive), HSA_SIGNAL_CONDITION_NE, 0,
                                    on_queue_inactive, gq);
  if (st != HSA_STATUS_SUCCESS) {
    untrack(ga, q);
    amdgpu_queue_destroy(gq->hw, DESTROY_TIMEOUT_NS);
    goto fail_signal;
  }
  log_debug("queue %llu on ME %u pipe %u queue %u, VMID %u, doorbell %u",
            (unsigned long long)q->amd.hsa_queue.id, info.me, info.pipe, info.queue, info.vmid,
            info.doorbell_index);
  return HSA_STATUS_SUCCESS;

fail_signal:
  q->amd.queue_inactive_signal.handle = 0;
  signal_destroy(gq->inactive);
  free(gq);
  return st;
}

void gpu_queue_detach(struct agent *agent, struct queue *q) {
  struct gpu_queue *gq = untrack(gpu_agent_of(agent), q);
  if (!gq) return;
  /* The async handler first, since it may be answering a scratch request
   * with the hardware queue (regrow_scratch): make it run once more and
   * leave, unless it already did (it may be the caller, inside the error
   * callback), or unless no handler runs any more (hsa_shut_down stops
   * them before it destroys the queues a program left open). Driver
   * reports until the dequeue only mark the signal. */
  if (!atomic_load(&gq->handler_done) && !async_handlers_finished()) {
    __atomic_fetch_or(&gq->inactive->amd.value, (int64_t)MARK_DETACHING, __ATOMIC_SEQ_CST);
    signal_notify(gq->inactive);
    uint64_t until = plat_now_ns() + HANDLER_EXIT_TIMEOUT_NS;
    while (!atomic_load(&gq->handler_done)) {
      if (plat_now_ns() > until) {
        log_error("queue %llu: its error handler did not stop; leaking the queue and its slot",
                  (unsigned long long)q->amd.hsa_queue.id);
        return;
      }
      plat_sleep_ns(100000);
    }
  }
  /* Then the hardware lets go of the queue: no more fetches, no more
   * driver reports. */
  int r = amdgpu_queue_destroy(gq->hw, DESTROY_TIMEOUT_NS);
  if (r) log_error("queue %llu: dequeue failed (%d); its slot stays reserved", (unsigned long long)q->amd.hsa_queue.id, r);
  q->amd.queue_inactive_signal.handle = 0;
  signal_destroy(gq->inactive);
  free(gq);
}

/* hsa_amd_queue_cu_set_mask / hsa_amd_queue_set_priority: the driver's
 * queue takes the runtime's fields (bits past the agent's CUs are gone
 * already). */
hsa_status_t gpu_queue_update(struct agent *agent, struct queue *q) {
  struct gpu_agent *ga = gpu_agent_of(agent);
  lock_acquire(&ga->queues_lock);
  struct gpu_queue *gq = NULL;
  for (uint32_t i = 0; i < ga->queue_count && !gq; i++)
    if (ga->queues[i]->q == q) gq = ga->queues[i];
  int r = -ENOENT;
  if (gq) {
    uint32_t mask[QUEUE_MAX_CU_MASK_WORDS];
    for (uint32_t w = 0; w < QUEUE_MAX_CU_MASK_WORDS; w++) mask[w] = __atomic_load_n(&q->cu_mask[w], __ATOMIC_RELAXED);
    r = amdgpu_queue_set_cu_mask(gq->hw, mask, 32 * QUEUE_MAX_CU_MASK_WORDS);
    if (!r) r = amdgpu_queue_set_priority(gq->hw, priority_of(q->priority));
  }
  lock_release(&ga->queues_lock);
  if (r) log_error("queue %llu: the driver refused its CU mask or priority (%d)", (unsigned long long)q->amd.hsa_queue.id, r);
  return r == -ENOENT ? HSA_STATUS_ERROR_INVALID_QUEUE : r ? HSA_STATUS_ERROR_INVALID_ARGUMENT : HSA_STATUS_SUCCESS;
}

void gpu_agents_tick(uint64_t now_ns) {
  (void)now_ns;
  for (uint32_t i = 0; i < agent_count(); i++) {
    struct agent *a = agent_at(i);
    if (a->ops->queue_attach == gpu_queue_attach) amdgpu_queues_schedule(gpu_agent_of(a)->dev);
  }
}

/* ---- Time limits (hsa_queue_time_limit.h) ---------------------------------- */

hsa_status_t hsa_queue_set_time_limit(hsa_queue_t *queue, uint64_t limit_ns) {
  RETURN_IF_NOT_INITIALIZED();
  if (!queue || !object_set_contains(&rt.queues, queue_from_hsa(queue))) return HSA_STATUS_ERROR_INVALID_QUEUE;
  struct queue *q = queue_from_hsa(queue);
  if (!q->agent || q->agent->ops->queue_attach != gpu_queue_attach) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct gpu_agent *ga = gpu_agent_of(q->agent);
  lock_acquire(&ga->queues_lock);
  struct gpu_queue *gq = NULL;
  for (uint32_t i = 0; i < ga->queue_count && !gq; i++)
    if (ga->queues[i]->q == q) gq = ga->queues[i];
  if (gq) amdgpu_queue_set_time_limit(gq->hw, limit_ns);
  lock_release(&ga->queues_lock);
  return gq ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_QUEUE;
}

/* A waiter woke up (signal_wait_loop): every few milliseconds, let the
 * driver stop queues that overran their time limit. Cheap when no queue
 * has one. */
#define WATCHDOG_PERIOD_NS 5000000ull
void gpu_agents_watchdog(uint64_t now_ns) {
  uint64_t prev = atomic_load_explicit(&rt.gpu_watchdog_ns, memory_order_relaxed);
  if (now_ns - prev < WATCHDOG_PERIOD_NS ||
      !atomic_compare_exchange_strong(&rt.gpu_watchdog_ns, &prev, now_ns))
    return;
  for (uint32_t i = 0; i < agent_count(); i++) {
    struct agent *a = agent_at(i);
    if (a->ops->queue_attach != gpu_queue_attach) continue;
    int n = amdgpu_queues_check_progress(gpu_agent_of(a)->dev, now_ns);
    if (n > 0) log_warn("GPU agent %u: %d queue(s) stopped: a dispatch overran its time limit", a->node, n);
  }
}

