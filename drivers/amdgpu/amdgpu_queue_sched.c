/* amdgpu_queue_sched.c - more queues than hardware slots: which of the
 * device's queues (up to AMDGPU_QUEUES_MAX, one per doorbell of the MEC's
 * user-queue range) hold the 32 HQD slots of the first MEC, swapped by the
 * driver with the documented dequeue and MQD reload.
 *
 * Why the driver and not the MEC's hardware scheduler (HWS) that KFD uses
 * by default on gfx9 (runlists of MAP_PROCESS/MAP_QUEUES packets through
 * the HIQ, kfd_packet_manager_v9.c): the HWS needs its own firmware
 * interface (the MEC scheduler firmware's PM4 packets, the HIQ, a
 * runlist IB, QUERY_STATUS fences) whose behaviour on oversubscription is
 * not documented beyond KFD's use of it; the direct HQD path is what this
 * driver already programs and what KFD's sched_policy=2 (no HWS) runs on
 * every gfx9 chip: kgd_gfx_v9_hqd_load, hqd_destroy with
 * WAVEFRONT_DRAIN for an eviction, load_mqd again for the restore
 * (kfd_device_queue_manager.c evict/restore_process_queues_nocpsch). What
 * it costs on silicon: the CPU makes every swap (a pass takes ~70 register
 * accesses per queue loaded), and a drain waits for the dispatch in
 * progress to finish (no context save: a queue gives up its slot between
 * packets, so one long dispatch holds its slot for as long as it runs),
 * where the HWS switches on its own at its quantum.
 *
 * The policy:
 *   - A queue with work (write_dispatch_id beyond read_dispatch_id, both in
 *     amd_queue_t) that is swapped out waits for a slot; waiting queues are
 *     served by priority, then in the order they began to wait.
 *   - A free slot goes to the first waiting queue at once.
 *   - Otherwise a resident queue is drained for it: one without work, or
 *     stopped by its firmware (an error code in its queue_inactive_signal),
 *     first; then one whose turn has lasted a quantum, of no higher
 *     priority than the waiting queue, the lowest priority and longest
 *     resident first. At most one drain per waiting queue.
 *   - A drained queue is swapped out once CP_HQD_ACTIVE clears: the CP has
 *     saved its read and write pointers in its MQD. A pass waits up to
 *     100 us for an idle queue to go (the MEC lets it go at once), so that
 *     the queue waiting for it runs without waiting for the next pass.
 *   - With at most 32 queues every queue stays resident: no pass ever runs
 *     for a doorbell, and the dispatch path is what it was.
 * A queue's doorbell never changes; a write to the doorbell of a queue
 * that is swapped out reaches no HQD (the BIF drops it), so the runtime's
 * doorbell call (amdgpu_queue_ring_doorbell) asks for a pass, and each
 * pass reads the write index from memory anyway.
 *
 * Passes run under the queue lock, from the doorbell path, the runtime's
 * periodic call (amdgpu_queues_schedule) or whoever releases the lock after
 * a pass was asked for; they never wait for the hardware. */
#define LOG_TAG "queue"
#include <errno.h>

#include <hsa/amd_hsa_signal.h>

#include "drivers/amdgpu/amdgpu_queue_internal.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "lib/plat.h"

#define QUANTUM_NS 10000000ull /* a busy queue's turn while others wait: 10 ms */
#define PASS_PERIOD_NS 1000000ull /* passes while queues wait or drain: every 1 ms */
#define IDLE_DRAIN_WAIT_NS 100000ull /* how long a pass waits for an idle queue to go */

/* ROCr's queue_inactive_signal codes (amd_aql_queue.cpp): 1 asks the
 * runtime for scratch and the queue goes on; anything else stopped it. */
#define INACTIVE_CODE_SCRATCH 1

_Static_assert(AMDGPU_QUEUES_MAX == DOORBELL64_USERQUEUE_END - DOORBELL64_USERQUEUE_START + 1,
               "one queue per doorbell of the MEC's user-queue range");

static void set_residency(struct amdgpu_queue *q, enum queue_residency r) {
  __atomic_store_n(&q->residency, (uint32_t)r, __ATOMIC_RELEASE);
}

static bool has_work(const struct amdgpu_queue *q) {
  return __atomic_load_n(&q->amd->write_dispatch_id, __ATOMIC_ACQUIRE) >
         __atomic_load_n(&q->amd->read_dispatch_id, __ATOMIC_ACQUIRE);
}

/* The firmware stopped the queue: its queue_inactive_signal holds an error
 * code (or the runtime's own mark of a dead queue). Such a queue is never
 * loaded again: the packet it stopped at would run a second time. */
static bool stopped_by_firmware(const struct amdgpu_queue *q) {
  uint64_t signal = q->amd->queue_inactive_signal.handle;
  if (!signal || (signal & (AMD_SIGNAL_ALIGN_BYTES - 1))) return false;
  int64_t value = __atomic_load_n(&((const amd_signal_t *)(uintptr_t)signal)->value, __ATOMIC_ACQUIRE);
  return value != 0 && value != INACTIVE_CODE_SCRATCH;
}

/* A free slot, pipes taken round robin so queues spread over the pipes. */
static int free_slot(struct amdgpu_queues *qs) {
  for (uint32_t n = 0; n < AMDGPU_HQD_PIPES; n++) {
    uint32_t pipe = (qs->next_pipe + n) % AMDGPU_HQD_PIPES;
    for (uint32_t queue = 0; queue < AMDGPU_HQD_QUEUES; queue++)
      if (!qs->slot[pipe * AMDGPU_HQD_QUEUES + queue]) {
        qs->next_pipe = pipe + 1;
        return (int)(pipe * AMDGPU_HQD_QUEUES + queue);
      }
  }
  return -1;
}

static void load(struct amdgpu_queue *q, uint32_t slot, uint64_t now_ns) {
  struct amdgpu_queues *qs = &q->dev->queues;
  q->slot = slot;
  qs->slot[slot] = q;
  mqd_set_cu_masks(q->mqd, q->cu_se_mask);
  mqd_set_priority(q->mqd, q->priority);
  hqd_load(q);
  set_residency(q, QUEUE_RESIDENT);
  q->resident_since_ns = now_ns;
  if (q->waiting_since_ns) qs->swap_ins++;
  q->waiting_since_ns = 0;
  /* Time spent swapped out is no time a dispatch ran. */
  q->last_read_index = __atomic_load_n(&q->amd->read_dispatch_id, __ATOMIC_ACQUIRE);
  q->last_progress_ns = now_ns;
}

int sched_add(struct amdgpu_queue *q) {
  struct amdgpu_queues *qs = &q->dev->queues;
  for (uint32_t id = 0; id < AMDGPU_QUEUES_MAX; id++) {
    if (qs->queue[id]) continue;
    qs->queue[id] = q;
    q->id = id;
    q->doorbell_index = DOORBELL64_USERQUEUE_START + id;
    set_residency(q, QUEUE_SWAPPED_OUT);
    return 0;
  }
  return -EBUSY;
}

void sched_admit(struct amdgpu_queue *q) {
  int slot = free_slot(&q->dev->queues);
  if (slot >= 0) load(q, (uint32_t)slot, plat_now_ns());
}

void sched_vacate(struct amdgpu_queue *q) {
  if (queue_residency(q) == QUEUE_SWAPPED_OUT) return;
  q->dev->queues.slot[q->slot] = NULL;
  set_residency(q, QUEUE_SWAPPED_OUT);
}

int sched_evict_now(struct amdgpu_queue *q, uint64_t timeout_ns) {
  if (q->state == QUEUE_LOST) return -ETIMEDOUT;
  if (queue_residency(q) == QUEUE_SWAPPED_OUT) return 0;
  if (hqd_dequeue(q, CP_HQD_DEQUEUE_RESET_WAVES, timeout_ns)) {
    q->state = QUEUE_LOST; /* the CP may still use its memory and its slot */
    return -ETIMEDOUT;
  }
  sched_vacate(q);
  return 0;
}

static void drain(struct amdgpu_queue *q, uint64_t now_ns) {
  hqd_request_dequeue(q, CP_HQD_DEQUEUE_DRAIN_PIPE);
  set_residency(q, QUEUE_DRAINING);
  q->drain_since_ns = now_ns;
}

void sched_reload(struct amdgpu_queue *q) {
  if (queue_residency(q) == QUEUE_RESIDENT) drain(q, plat_now_ns());
  /* else the next load takes the MQD as it is */
}

/* Waiting queues, best first: higher priority, then longer waiting. */
static bool serves_before(const struct amdgpu_queue *a, const struct amdgpu_queue *b) {
  if (a->priority != b->priority) return a->priority > b->priority;
  return a->waiting_since_ns < b->waiting_since_ns;
}

/* Fills qs->waiting with the queues that wait for a slot, best first;
 * returns how many. */
static uint32_t collect_waiting(struct amdgpu_queues *qs, uint64_t now_ns) {
  uint32_t n = 0;
  for (uint32_t id = 0; id < AMDGPU_QUEUES_MAX; id++) {
    struct amdgpu_queue *q = qs->queue[id];
    if (!q || q->state != QUEUE_RUNNING || queue_residency(q) != QUEUE_SWAPPED_OUT) continue;
    if (!has_work(q) || stopped_by_firmware(q)) {
      q->waiting_since_ns = 0;
      continue;
    }
    if (!q->waiting_since_ns) q->waiting_since_ns = now_ns;
    uint32_t i = n++;
    for (; i > 0 && serves_before(q, qs->waiting[i - 1]); i--) qs->waiting[i] = qs->waiting[i - 1];
    qs->waiting[i] = q;
  }
  return n;
}

/* The resident queue to drain for `waiting`, or NULL. */
static struct amdgpu_queue *victim_for(struct amdgpu_queues *qs, const struct amdgpu_queue *waiting,
                                       uint64_t now_ns) {
  struct amdgpu_queue *best = NULL;
  for (uint32_t slot = 0; slot < AMDGPU_HQD_SLOTS; slot++) {
    struct amdgpu_queue *q = qs->slot[slot];
    if (!q || q->state != QUEUE_RUNNING || queue_residency(q) != QUEUE_RESIDENT) continue;
    if (!has_work(q) || stopped_by_firmware(q)) return q; /* costs nobody anything */
    if (now_ns - q->resident_since_ns < QUANTUM_NS || q->priority > waiting->priority) continue;
    if (!best || q->priority < best->priority ||
        (q->priority == best->priority && q->resident_since_ns < best->resident_since_ns))
      best = q;
  }
  return best;
}

/* Drains that completed: their queues leave their slots. Before a slot
 * goes to another queue, the interrupts the drained queue raised (an SQ
 * error names its slot) are taken and handled: they would otherwise stop
 * the slot's next queue. Returns how many drains are still under way;
 * *recent: how many of them began less than a quantum ago (one still
 * waiting for a long dispatch after that no longer counts on: another
 * queue's turn may end sooner). */
static uint32_t complete_drains(struct amdgpu_device *dev, uint64_t now_ns, uint32_t *recent) {
  struct amdgpu_queues *qs = &dev->queues;
  uint32_t draining = 0, released = 0;
  *recent = 0;
  for (uint32_t slot = 0; slot < AMDGPU_HQD_SLOTS; slot++) {
    struct amdgpu_queue *q = qs->slot[slot];
    if (!q || queue_residency(q) != QUEUE_DRAINING) continue;
    if (hqd_released(q)) {
      released++;
      continue;
    }
    draining++;
    if (now_ns - q->drain_since_ns < QUANTUM_NS) ++*recent;
  }
  if (!released) return draining;
  amdgpu_ih_interrupt(dev);
  queues_handle_errors_locked(dev);
  for (uint32_t slot = 0; slot < AMDGPU_HQD_SLOTS; slot++) {
    struct amdgpu_queue *q = qs->slot[slot];
    if (q && queue_residency(q) == QUEUE_DRAINING && hqd_released(q)) sched_vacate(q);
  }
  return draining;
}

/* Waits a little for drains of queues that had nothing to run: the MEC lets
 * such a queue go within microseconds, and the queue waiting for its slot
 * then gets it in this pass instead of the next. True if one was let go. */
static bool idle_drains_done(struct amdgpu_queues *qs) {
  uint64_t until = plat_now_ns() + IDLE_DRAIN_WAIT_NS;
  do {
    for (uint32_t slot = 0; slot < AMDGPU_HQD_SLOTS; slot++) {
      struct amdgpu_queue *q = qs->slot[slot];
      if (q && queue_residency(q) == QUEUE_DRAINING && hqd_released(q)) return true;
    }
    plat_cpu_relax();
  } while (plat_now_ns() < until);
  return false;
}

uint64_t sched_pass_locked(struct amdgpu_device *dev, uint64_t now_ns) {
  struct amdgpu_queues *qs = &dev->queues;
  for (int round = 0;; round++) {
    uint32_t recent, draining = complete_drains(dev, now_ns, &recent);
    /* Free slots to the best waiting queues; then a drain for each queue
     * that still waits, beyond the drains already under way. */
    uint32_t waiting = collect_waiting(qs, now_ns), placed = 0;
    for (int slot; placed < waiting && (slot = free_slot(qs)) >= 0; placed++)
      load(qs->waiting[placed], (uint32_t)slot, now_ns);
    bool idle_victim = false;
    for (uint32_t i = placed + recent; i < waiting; i++) {
      struct amdgpu_queue *victim = victim_for(qs, qs->waiting[i], now_ns);
      if (!victim) break;
      idle_victim |= !has_work(victim);
      drain(victim, now_ns);
      draining++;
    }
    if (round == 0 && idle_victim && idle_drains_done(qs)) continue;
    return waiting > placed || draining ? now_ns + PASS_PERIOD_NS : UINT64_MAX;
  }
}
