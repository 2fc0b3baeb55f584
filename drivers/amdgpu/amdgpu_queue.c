/* amdgpu_queue.c - AQL compute queues: resources (MQD in the GART, EOP
 * buffer, scratch, doorbell), the queue lock, and the routing of GPU errors
 * to the queue they belong to. Which queues hold the MEC's hardware slots
 * is amdgpu_queue_sched.c; the HQD register sequences amdgpu_hqd.c.
 *
 * Scratch and amd_queue_t fields: ROCR amd_aql_queue.cpp (AqlQueue
 * constructor, InitScratchSRD for gfx9, FillComputeTmpRingSize); gfx9
 * buffer descriptor fields from gc_9_1_sh_mask.h SQ_BUF_RSRC_WORD*, values
 * from vega10_enum.h. */
#define LOG_TAG "queue"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_queue_internal.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "drivers/amdgpu/regs/soc15_ih.h"
#include "lib/plat.h"

#define EOP_BYTES 4096u                /* GFX9_MEC_HPD_SIZE (gfx_v9_0.c) */
#define MIN_RING_BYTES 256u
#define MAX_RING_BYTES (4u << 20)
#define ERROR_DEQUEUE_TIMEOUT_NS 100000000ull /* 100 ms, from the interrupt handler */
#define SCRATCH_WAVE_ALIGN 1024u       /* COMPUTE_TMPRING_SIZE.WAVESIZE unit */
#define SCRATCH_SLOTS_PER_CU 32u       /* KFD max_slots_scratch_cu on gfx9 */
#define SIMD_PER_CU 4u

/* gfx9 buffer resource (V#) fields, gc_9_1_sh_mask.h / vega10_enum.h. */
#define SQ_BUF_RSRC_WORD1__SWIZZLE_ENABLE  0x80000000u
#define SQ_SEL_X 4u
#define SQ_SEL_Y 5u
#define SQ_SEL_Z 6u
#define SQ_SEL_W 7u
#define BUF_NUM_FORMAT_UINT 4u
#define BUF_DATA_FORMAT_32 4u
#define SQ_BUF_RSRC_WORD3__NUM_FORMAT_SHIFT 12
#define SQ_BUF_RSRC_WORD3__DATA_FORMAT_SHIFT 15
#define SQ_BUF_RSRC_WORD3__INDEX_STRIDE_SHIFT 21 /* 3: 64 (one lane per record) */
#define SQ_BUF_RSRC_WORD3__ADD_TID_ENABLE 0x00800000u

/* ---- The lock, and what others leave for its holder ----
 * The interrupt handler may run on the core that holds the lock (image), so
 * it never waits for it: it leaves the error in by_vmid/by_slot and
 * whoever holds the lock handles it on release. A doorbell or the
 * runtime's periodic call that finds the lock taken leaves the scheduling
 * pass it wanted the same way. */

bool queues_try_lock(struct amdgpu_device *dev) { return spin_trylock(&dev->queues.lock); }

void queues_lock(struct amdgpu_device *dev) { spin_lock(&dev->queues.lock); }

static bool left_for_holder(struct amdgpu_queues *qs) {
  return __atomic_load_n(&qs->by_vmid.pending, __ATOMIC_ACQUIRE) ||
         __atomic_load_n(&qs->by_slot.pending, __ATOMIC_ACQUIRE) ||
         __atomic_load_n(&qs->pass_pending, __ATOMIC_ACQUIRE);
}

void queues_unlock(struct amdgpu_device *dev) {
  struct amdgpu_queues *qs = &dev->queues;
  for (;;) {
    spin_unlock(&qs->lock);
    /* The look below must not pass the release above (x86 lets a load pass
     * an earlier store, Intel SDM vol. 3A, 9.2.3.4): else an interrupt that
     * left an error and found the lock still taken, and this look, could
     * both miss it, and the queue would not be stopped and told. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (!left_for_holder(qs)) return;
    if (!queues_try_lock(dev)) return; /* the holder handles them when it unlocks */
    queues_handle_errors_locked(dev);
    if (__atomic_exchange_n(&qs->pass_pending, 0, __ATOMIC_ACQ_REL)) {
      uint64_t next = sched_pass_locked(dev, plat_now_ns());
      amdgpu_schedule_handler fn = __atomic_load_n(&dev->schedule_fn, __ATOMIC_ACQUIRE);
      if (next != UINT64_MAX && fn) fn(dev->schedule_ctx, next);
    }
  }
}

/* ---- Errors ---- */

static const char *const error_kind_names[] = {
    [AMDGPU_QUEUE_ERROR_VM_FAULT] = "VM fault",
    [AMDGPU_QUEUE_ERROR_ILLEGAL_INSTRUCTION] = "illegal instruction",
    [AMDGPU_QUEUE_ERROR_MEMORY_VIOLATION] = "memory violation",
    [AMDGPU_QUEUE_ERROR_HARDWARE] = "hardware error",
    [AMDGPU_QUEUE_ERROR_ABORTED] = "aborted",
    [AMDGPU_QUEUE_ERROR_BAD_PACKET] = "bad packet",
};

static enum amdgpu_queue_error_kind error_kind(const struct amdgpu_fault *f) {
  switch (f->kind) {
    case AMDGPU_FAULT_VM:
    case AMDGPU_FAULT_DMA: return AMDGPU_QUEUE_ERROR_VM_FAULT;
    case AMDGPU_FAULT_CP_BAD_OPCODE: return AMDGPU_QUEUE_ERROR_BAD_PACKET;
    case AMDGPU_FAULT_SQ_ERROR:
      if (f->sq_error_type == SQ_INTERRUPT_ERROR_TYPE_ILLEGAL_INST) return AMDGPU_QUEUE_ERROR_ILLEGAL_INSTRUCTION;
      if (f->sq_error_type == SQ_INTERRUPT_ERROR_TYPE_MEMVIOL) return AMDGPU_QUEUE_ERROR_MEMORY_VIOLATION;
      break;
    default: break;
  }
  return AMDGPU_QUEUE_ERROR_HARDWARE;
}

/* Stops a running queue (reset, wherever it is) and reports `error`. */
static void stop_and_report(struct amdgpu_queue *q, const struct amdgpu_queue_error *error) {
  if (q->state != QUEUE_RUNNING) return;
  bool resident = queue_residency(q) != QUEUE_SWAPPED_OUT;
  uint32_t slot = q->slot;
  if (!sched_evict_now(q, ERROR_DEQUEUE_TIMEOUT_NS)) q->state = QUEUE_STOPPED;
  if (resident)
    log_error("queue %u on ME%u pipe %u queue %u (VMID %u) stopped: %s", q->id, AMDGPU_HQD_ME,
              slot_pipe(slot), slot_queue(slot), q->vmid, error_kind_names[error->kind]);
  else
    log_error("queue %u (VMID %u, swapped out) stopped: %s", q->id, q->vmid, error_kind_names[error->kind]);
  if (q->error_fn) q->error_fn(q->error_ctx, q, error);
}

/* Takes the errors left by the interrupt handler; for each its queues: a
 * slot's error belongs to the queue in the slot, a VMID's to every queue
 * of the VMID, resident or not (one that faulted may have been swapped out
 * since: halted, it leaves at once when drained). */
void queues_handle_errors_locked(struct amdgpu_device *dev) {
  struct amdgpu_queues *qs = &dev->queues;
  struct amdgpu_queue_errors *sets[2] = {&qs->by_vmid, &qs->by_slot};
  for (int s = 0; s < 2; s++) {
    uint32_t bits = __atomic_exchange_n(&sets[s]->pending, 0, __ATOMIC_ACQUIRE);
    while (bits) {
      uint32_t i = (uint32_t)__builtin_ctz(bits);
      bits &= bits - 1;
      struct amdgpu_fault fault = sets[s]->fault[i];
      __atomic_and_fetch(&sets[s]->latched, ~(1u << i), __ATOMIC_RELEASE);
      struct amdgpu_queue_error error = {.kind = error_kind(&fault), .fault = &fault};
      if (s == 1) {
        if (qs->slot[i]) stop_and_report(qs->slot[i], &error);
        continue;
      }
      for (uint32_t id = 0; id < AMDGPU_QUEUES_MAX; id++) {
        struct amdgpu_queue *q = qs->queue[id];
        if (q && q->vmid == AMDGPU_COMPUTE_VMID_FIRST + i) stop_and_report(q, &error);
      }
    }
  }
}

static void leave_error(struct amdgpu_queue_errors *set, uint32_t index, const struct amdgpu_fault *f) {
  uint32_t bit = 1u << index;
  /* The first error of a VMID/slot wins until it is handled. */
  if (__atomic_fetch_or(&set->latched, bit, __ATOMIC_ACQUIRE) & bit) return;
  set->fault[index] = *f;
  __atomic_or_fetch(&set->pending, bit, __ATOMIC_RELEASE);
}

/* An IOMMU fault names the device, not a VMID (no PASID on bare metal):
 * it belongs to a queue only while one compute VMID has queues. -1 else. */
static int only_vmid_in_use(struct amdgpu_device *dev) {
  int in_use = -1;
  for (int i = 0; i < AMDGPU_COMPUTE_VMID_COUNT; i++) {
    if (!__atomic_load_n(&dev->queues.vmid_users[i], __ATOMIC_ACQUIRE)) continue;
    if (in_use >= 0) return -1;
    in_use = i;
  }
  return in_use;
}

void amdgpu_queue_fault(struct amdgpu_device *dev, const struct amdgpu_fault *f) {
  if (f->kind == AMDGPU_FAULT_DMA) {
    int vmid_index = only_vmid_in_use(dev);
    if (vmid_index < 0) {
      log_error("%s: the refused access at 0x%llx is no single queue's: no queue stopped",
                dev->chip->name, (unsigned long long)f->vm.address);
      return;
    }
    leave_error(&dev->queues.by_vmid, (uint32_t)vmid_index, f);
  } else if (f->kind == AMDGPU_FAULT_VM) {
    if (!f->vm.gfx_hub || f->vm.vmid < AMDGPU_COMPUTE_VMID_FIRST ||
        f->vm.vmid >= AMDGPU_COMPUTE_VMID_FIRST + AMDGPU_COMPUTE_VMID_COUNT)
      return; /* not a compute queue's address space */
    leave_error(&dev->queues.by_vmid, f->vm.vmid - AMDGPU_COMPUTE_VMID_FIRST, f);
  } else {
    if (f->me != AMDGPU_HQD_ME || f->pipe >= AMDGPU_HQD_PIPES || f->queue >= AMDGPU_HQD_QUEUES) return;
    leave_error(&dev->queues.by_slot, f->pipe * AMDGPU_HQD_QUEUES + f->queue, f);
  }
  if (queues_try_lock(dev)) {
    queues_handle_errors_locked(dev);
    queues_unlock(dev);
  }
}

/* ---- Resources ---- */

static void free_queue(struct amdgpu_queue *q) {
  struct amdgpu_device *dev = q->dev;
  if (q->mqd_mapped) gmc_gart_unmap(dev, q->mqd_address, 4096);
  if (q->mqd) plat_dma_free(q->mqd, 4096);
  if (q->eop) plat_dma_free(q->eop, EOP_BYTES);
  if (q->scratch) plat_dma_free(q->scratch, q->scratch_bytes);
  plat_protected_free(q);
}

/* Scratch for `lane_bytes` per work-item: every wave slot of every CU
 * (ROCr FillComputeTmpRingSize), or `max_waves` of them when fewer,
 * described for the queue's dispatches in amd_queue_t (V#, backing memory,
 * COMPUTE_TMPRING_SIZE). On failure the queue keeps what it had. */
static int setup_scratch(struct amdgpu_queue *q, uint32_t lane_bytes, uint32_t max_waves, uint32_t *tmpring) {
  struct amdgpu_device *dev = q->dev;
  amd_queue_t *a = q->amd;
  *tmpring = a->compute_tmpring_size;
  if (!lane_bytes) {
    if (q->scratch) plat_dma_free(q->scratch, q->scratch_bytes);
    q->scratch = NULL;
    q->scratch_bytes = 0;
    memset(a->scratch_resource_descriptor, 0, sizeof a->scratch_resource_descriptor);
    a->scratch_backing_memory_location = 0;
    a->scratch_backing_memory_byte_size = 0;
    a->scratch_wave64_lane_byte_size = 0;
    a->compute_tmpring_size = *tmpring = 0;
    return 0;
  }
  uint32_t wave_units = (lane_bytes * 64 + SCRATCH_WAVE_ALIGN - 1) / SCRATCH_WAVE_ALIGN;
  uint32_t waves = dev->active_cus * SCRATCH_SLOTS_PER_CU;
  if (max_waves && max_waves < waves) waves = max_waves;
  if (wave_units > COMPUTE_TMPRING_SIZE__WAVESIZE_MASK >> COMPUTE_TMPRING_SIZE__WAVESIZE_SHIFT ||
      waves > COMPUTE_TMPRING_SIZE__WAVES_MASK) {
    log_error("scratch of %u bytes per work-item is more than COMPUTE_TMPRING_SIZE describes", lane_bytes);
    return -EINVAL;
  }
  uint64_t bytes = (uint64_t)waves * wave_units * SCRATCH_WAVE_ALIGN;
  if (bytes > UINT32_MAX) return -EINVAL; /* NUM_RECORDS is 32 bits */
  void *memory = plat_dma_alloc(bytes, 4096);
  if (!memory) {
    log_error("no memory for %llu KiB of queue scratch", (unsigned long long)(bytes >> 10));
    return -ENOMEM;
  }
  int r = amdgpu_map_system_range(dev, memory, bytes);
  if (r) {
    plat_dma_free(memory, bytes);
    return r;
  }
  if (q->scratch) plat_dma_free(q->scratch, q->scratch_bytes);
  q->scratch = memory;
  q->scratch_bytes = bytes;
  uint64_t base = (uint64_t)(uintptr_t)q->scratch;
  a->scratch_resource_descriptor[0] = (uint32_t)base;
  a->scratch_resource_descriptor[1] = (uint32_t)(base >> 32) & 0xffff; /* STRIDE 0 */
  a->scratch_resource_descriptor[1] |= SQ_BUF_RSRC_WORD1__SWIZZLE_ENABLE;
  a->scratch_resource_descriptor[2] = (uint32_t)bytes; /* NUM_RECORDS */
  a->scratch_resource_descriptor[3] =
      SQ_SEL_X | SQ_SEL_Y << 3 | SQ_SEL_Z << 6 | SQ_SEL_W << 9 |
      BUF_NUM_FORMAT_UINT << SQ_BUF_RSRC_WORD3__NUM_FORMAT_SHIFT |
      BUF_DATA_FORMAT_32 << SQ_BUF_RSRC_WORD3__DATA_FORMAT_SHIFT |
      3u << SQ_BUF_RSRC_WORD3__INDEX_STRIDE_SHIFT | SQ_BUF_RSRC_WORD3__ADD_TID_ENABLE; /* TYPE 0: buffer */
  a->scratch_backing_memory_location = base;
  a->scratch_backing_memory_byte_size = bytes;
  a->scratch_wave64_lane_byte_size = wave_units * SCRATCH_WAVE_ALIGN / 64;
  *tmpring = waves | wave_units << COMPUTE_TMPRING_SIZE__WAVESIZE_SHIFT;
  a->compute_tmpring_size = *tmpring;
  return 0;
}

static int check_desc(const struct amdgpu_queue_desc *d) {
  const amd_queue_t *a = d->amd_queue;
  if (!a || ((uintptr_t)a & 63)) {
    log_error("queue create: amd_queue_t %p is NULL or not 64-byte aligned", (const void *)a);
    return -EINVAL;
  }
  uintptr_t ring = (uintptr_t)a->hsa_queue.base_address;
  uint32_t n = d->ring_bytes;
  if (!ring || (ring & 255) || n < MIN_RING_BYTES || n > MAX_RING_BYTES || (n & (n - 1)) ||
      (uint64_t)a->hsa_queue.size * 64 != n) {
    log_error("queue create: ring %p of %u bytes (%u packets) is not a 256-byte aligned power of two "
              "of %u B-%u MiB matching hsa_queue.size",
              (void *)ring, n, a->hsa_queue.size, MIN_RING_BYTES, MAX_RING_BYTES >> 20);
    return -EINVAL;
  }
  /* A new HQD starts at packet 0 (the MQD's CP_HQD_PQ_RPTR): a queue
   * whose indices moved on would have the CP wait at slot 0. */
  if (a->read_dispatch_id || a->write_dispatch_id) {
    log_error("queue create: read index %llu, write index %llu: a new hardware queue starts at packet 0",
              (unsigned long long)a->read_dispatch_id, (unsigned long long)a->write_dispatch_id);
    return -EINVAL;
  }
  if ((unsigned)d->priority > AMDGPU_QUEUE_PRIORITY_HIGH) {
    log_error("queue create: priority %d is not LOW, NORMAL or HIGH", (int)d->priority);
    return -EINVAL;
  }
  return 0;
}

/* The least used compute VMID (a fault then stops as few queues as possible). */
static uint32_t pick_vmid(struct amdgpu_queues *qs) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < AMDGPU_COMPUTE_VMID_COUNT; i++)
    if (qs->vmid_users[i] < qs->vmid_users[best]) best = i;
  return best;
}

int amdgpu_queue_create(struct amdgpu_device *dev, const struct amdgpu_queue_desc *desc,
                        struct amdgpu_queue **out) {
  if (!out) return -EINVAL;
  *out = NULL;
  if (!dev || !desc) return -EINVAL;
  int r = check_desc(desc);
  if (r) return r;
  struct amdgpu_queue *q = plat_protected_alloc(sizeof *q);
  if (!q) return -ENOMEM;
  q->dev = dev;
  q->amd = desc->amd_queue;
  q->ring_bytes = desc->ring_bytes;
  q->priority = desc->priority;
  for (int se = 0; se < 4; se++) q->cu_se_mask[se] = UINT32_MAX;
  q->error_fn = desc->error_fn;
  q->error_ctx = desc->error_ctx;
  amd_queue_t *a = q->amd;

  /* Memory first (no lock held): the MQD in VMID 0 through the GART, the
   * EOP buffer and scratch in the compute address space. */
  uint32_t tmpring = 0;
  q->mqd = plat_dma_alloc(4096, 4096);
  q->eop = plat_dma_alloc(EOP_BYTES, 4096);
  if (!q->mqd || !q->eop) r = -ENOMEM;
  if (!r) r = gmc_gart_map(dev, q->mqd, 4096, &q->mqd_address);
  q->mqd_mapped = !r;
  if (!r) r = amdgpu_map_system_range(dev, q->eop, EOP_BYTES);
  if (!r) r = amdgpu_map_system_range(dev, a, sizeof *a);
  if (!r) r = amdgpu_map_system_range(dev, a->hsa_queue.base_address, q->ring_bytes);
  if (!r) r = setup_scratch(q, desc->scratch_bytes_per_lane, 0, &tmpring);
  if (r) {
    free_queue(q);
    return r;
  }
  /* What the CP and the compiler's code read from amd_queue_t (ROCr
   * AqlQueue constructor). */
  a->read_dispatch_id_field_base_byte_offset = (uint32_t)offsetof(amd_queue_t, read_dispatch_id);
  a->max_cu_id = dev->active_cus - 1;
  a->max_wave_id = dev->waves_per_simd * SIMD_PER_CU - 1;
  a->group_segment_aperture_base_hi = (uint32_t)(AMDGPU_LDS_APERTURE_BASE >> 32);
  a->private_segment_aperture_base_hi = (uint32_t)(AMDGPU_SCRATCH_APERTURE_BASE >> 32);
  a->queue_properties |= AMD_QUEUE_PROPERTIES_IS_PTR64;

  queues_lock(dev);
  struct amdgpu_queues *qs = &dev->queues;
  if (sched_add(q)) {
    queues_unlock(dev);
    log_error("queue create: all %d queues of the device are in use", AMDGPU_QUEUES_MAX);
    free_queue(q);
    return -EBUSY;
  }
  uint32_t vmid_index = pick_vmid(qs);
  q->vmid = AMDGPU_COMPUTE_VMID_FIRST + vmid_index;
  q->doorbell = (volatile uint64_t *)(uintptr_t)(dev->bar_address[2] + q->doorbell_index * 8ull);
  struct mqd_aql params = {
      .mqd_address = q->mqd_address,
      .ring_address = (uint64_t)(uintptr_t)a->hsa_queue.base_address,
      .rptr_address = (uint64_t)(uintptr_t)&a->read_dispatch_id,
      .wptr_address = (uint64_t)(uintptr_t)&a->write_dispatch_id,
      .eop_address = (uint64_t)(uintptr_t)q->eop,
      .ring_bytes = q->ring_bytes,
      .eop_bytes = EOP_BYTES,
      .doorbell_index = q->doorbell_index,
      .vmid = q->vmid,
      .priority = q->priority,
      .tmpring_size = tmpring,
  };
  mqd_init_aql(q->mqd, &params);
  q->state = QUEUE_RUNNING;
  qs->vmid_users[vmid_index]++;
  sched_admit(q);
  bool resident = queue_residency(q) == QUEUE_RESIDENT;
  queues_unlock(dev);
  if (resident)
    log_debug("queue %u on ME%u pipe %u queue %u: VMID %u, doorbell %u, ring %u packets, scratch %zu KiB",
              q->id, AMDGPU_HQD_ME, slot_pipe(q->slot), slot_queue(q->slot), q->vmid, q->doorbell_index,
              q->ring_bytes / 64, q->scratch_bytes >> 10);
  else
    log_debug("queue %u swapped out until a slot frees: VMID %u, doorbell %u, ring %u packets", q->id,
              q->vmid, q->doorbell_index, q->ring_bytes / 64);
  *out = q;
  return 0;
}

int amdgpu_queue_get_info(const struct amdgpu_queue *q, struct amdgpu_queue_info *info) {
  if (!q || !info) return -EINVAL;
  queues_lock(q->dev);
  bool resident = queue_residency(q) != QUEUE_SWAPPED_OUT;
  *info = (struct amdgpu_queue_info){.doorbell = q->doorbell,
                                     .doorbell_index = q->doorbell_index,
                                     .resident = resident,
                                     .me = resident ? AMDGPU_HQD_ME : 0,
                                     .pipe = resident ? slot_pipe(q->slot) : 0,
                                     .queue = resident ? slot_queue(q->slot) : 0,
                                     .vmid = q->vmid};
  queues_unlock(q->dev);
  return 0;
}

void amdgpu_queue_ring_doorbell(struct amdgpu_queue *q, uint64_t value) {
  __atomic_store_n(q->doorbell, value, __ATOMIC_RELEASE);
  if (q->dev->bus->doorbell_written) q->dev->bus->doorbell_written(q->dev, q->doorbell_index * 8u, value);
  /* A resident queue's HQD took the doorbell; any other waits for a pass. */
  if (queue_residency(q) != QUEUE_RESIDENT) amdgpu_queues_schedule(q->dev);
}

void amdgpu_queues_schedule(struct amdgpu_device *dev) {
  if (!dev) return;
  /* Asked for, then run by whoever releases the lock: us, or the holder. */
  __atomic_store_n(&dev->queues.pass_pending, 1, __ATOMIC_RELEASE);
  if (queues_try_lock(dev)) queues_unlock(dev);
}

int amdgpu_queue_set_scratch(struct amdgpu_queue *q, uint32_t bytes_per_lane, uint32_t max_waves) {
  if (!q) return -EINVAL;
  uint32_t tmpring;
  int r = setup_scratch(q, bytes_per_lane, max_waves, &tmpring);
  /* The MQD's copy too, for the next load of the HQD. */
  if (!r) q->mqd[MQD_COMPUTE_TMPRING_SIZE] = tmpring;
  return r;
}

int amdgpu_queue_set_cu_mask(struct amdgpu_queue *q, const uint32_t *mask, uint32_t count) {
  if (!q || (count && !mask) || count % 32) return -EINVAL;
  struct amdgpu_device *dev = q->dev;
  uint32_t se_mask[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
  if (count && gfx_cu_mask_to_se_masks(dev, mask, count, se_mask) == 0) {
    log_error("queue %u: its CU mask enables none of the %u active CUs", q->id, dev->active_cus);
    return -EINVAL;
  }
  queues_lock(dev);
  bool changed = memcmp(q->cu_se_mask, se_mask, sizeof se_mask) != 0;
  memcpy(q->cu_se_mask, se_mask, sizeof se_mask);
  if (changed) sched_reload(q);
  queues_unlock(dev);
  amdgpu_queues_schedule(dev);
  return 0;
}

int amdgpu_queue_set_priority(struct amdgpu_queue *q, enum amdgpu_queue_priority priority) {
  if (!q || (unsigned)priority > AMDGPU_QUEUE_PRIORITY_HIGH) return -EINVAL;
  struct amdgpu_device *dev = q->dev;
  queues_lock(dev);
  bool changed = q->priority != priority;
  q->priority = priority;
  if (changed) sched_reload(q);
  queues_unlock(dev);
  amdgpu_queues_schedule(dev);
  return 0;
}

uint64_t amdgpu_queues_swap_ins(struct amdgpu_device *dev) {
  if (!dev) return 0;
  queues_lock(dev);
  uint64_t n = dev->queues.swap_ins;
  queues_unlock(dev);
  return n;
}

/* Stops a running queue's waves and reports ABORTED; caller holds the lock. */
static int abort_locked(struct amdgpu_queue *q, uint64_t timeout_ns) {
  int r = sched_evict_now(q, timeout_ns);
  if (!r) q->state = QUEUE_STOPPED;
  log_error("queue %u aborted%s", q->id, r ? ": the hardware did not let it go" : "");
  struct amdgpu_queue_error error = {.kind = AMDGPU_QUEUE_ERROR_ABORTED};
  if (q->error_fn) q->error_fn(q->error_ctx, q, &error);
  return r;
}

int amdgpu_queue_abort(struct amdgpu_queue *q, uint64_t timeout_ns) {
  if (!q) return -EINVAL;
  struct amdgpu_device *dev = q->dev;
  queues_lock(dev);
  int r = q->state == QUEUE_RUNNING ? abort_locked(q, timeout_ns) : -EALREADY;
  queues_unlock(dev);
  return r;
}

void amdgpu_queue_set_time_limit(struct amdgpu_queue *q, uint64_t limit_ns) {
  if (!q) return;
  queues_lock(q->dev);
  q->time_limit_ns = limit_ns;
  q->last_read_index = __atomic_load_n(&q->amd->read_dispatch_id, __ATOMIC_ACQUIRE);
  q->last_progress_ns = plat_now_ns();
  queues_unlock(q->dev);
}

int amdgpu_queues_check_progress(struct amdgpu_device *dev, uint64_t now_ns) {
  if (!dev) return -EINVAL;
  int aborted = 0;
  queues_lock(dev);
  /* Only a queue in a slot can run: one swapped out waits (sched_pass_locked
   * restarts its clock when it is loaded). */
  for (uint32_t slot = 0; slot < AMDGPU_HQD_SLOTS; slot++) {
    struct amdgpu_queue *q = dev->queues.slot[slot];
    if (!q || q->state != QUEUE_RUNNING || !q->time_limit_ns) continue;
    uint64_t read = __atomic_load_n(&q->amd->read_dispatch_id, __ATOMIC_ACQUIRE);
    uint64_t write = __atomic_load_n(&q->amd->write_dispatch_id, __ATOMIC_ACQUIRE);
    if (read != q->last_read_index || read >= write) { /* moved, or nothing waits */
      q->last_read_index = read;
      q->last_progress_ns = now_ns;
      continue;
    }
    if (now_ns - q->last_progress_ns <= q->time_limit_ns) continue;
    log_error("queue %u on ME%u pipe %u queue %u: packet %llu unfinished after %llu ms (limit %llu ms)",
              q->id, AMDGPU_HQD_ME, slot_pipe(slot), slot_queue(slot), (unsigned long long)read,
              (unsigned long long)((now_ns - q->last_progress_ns) / 1000000),
              (unsigned long long)(q->time_limit_ns / 1000000));
    abort_locked(q, ERROR_DEQUEUE_TIMEOUT_NS);
    aborted++;
  }
  queues_unlock(dev);
  return aborted;
}

/* Forgets q (no longer on the hardware); caller holds the lock. */
static void forget(struct amdgpu_queue *q) {
  struct amdgpu_queues *qs = &q->dev->queues;
  qs->queue[q->id] = NULL;
  qs->vmid_users[q->vmid - AMDGPU_COMPUTE_VMID_FIRST]--;
}

int amdgpu_queue_destroy(struct amdgpu_queue *q, uint64_t timeout_ns) {
  if (!q) return -EINVAL;
  struct amdgpu_device *dev = q->dev;
  queues_lock(dev);
  /* Its waves go at once, as KFD destroys a queue (destroy_queue_nocpsch:
   * WAVEFRONT_RESET); a lost queue keeps everything (the CP may still
   * write its memory). */
  int r = sched_evict_now(q, timeout_ns);
  if (!r) forget(q);
  queues_unlock(dev);
  if (r) return r;
  free_queue(q);
  amdgpu_queues_schedule(dev); /* its slot may be what a waiting queue needs */
  return 0;
}

void amdgpu_queues_dequeue_all(struct amdgpu_device *dev) {
  queues_lock(dev);
  for (uint32_t id = 0; id < AMDGPU_QUEUES_MAX; id++) {
    struct amdgpu_queue *q = dev->queues.queue[id];
    if (!q) continue;
    if (q->state != QUEUE_LOST) log_warn("queue %u still exists at device removal: dequeued", id);
    sched_evict_now(q, ERROR_DEQUEUE_TIMEOUT_NS);
  }
  queues_unlock(dev);
}

void amdgpu_queues_free_all(struct amdgpu_device *dev) {
  queues_lock(dev);
  for (uint32_t id = 0; id < AMDGPU_QUEUES_MAX; id++) {
    struct amdgpu_queue *q = dev->queues.queue[id];
    if (!q) continue;
    forget(q);
    free_queue(q);
  }
  memset(dev->queues.slot, 0, sizeof dev->queues.slot);
  queues_unlock(dev);
}

/* ---- The MEC's self-test ----
 * One barrier packet through a queue of our own, as Linux tests each ring
 * it brings up (amdgpu_ring_test_helper): the PSP may have answered every
 * LOAD_IP_FW while the MEC has no firmware to run (some sOS versions write
 * non-zero statuses on success, so those are no verdict), and a queue that
 * never moves would otherwise show up as the first program's hang. */
#define SELF_TEST_PACKETS 4u
#define SELF_TEST_TIMEOUT_NS 1000000000ull

int amdgpu_queue_self_test(struct amdgpu_device *dev) {
  size_t ring_bytes = SELF_TEST_PACKETS * 64;
  amd_queue_t *a = plat_dma_alloc(sizeof *a, 4096);
  uint8_t *ring = plat_dma_alloc(4096, 4096);
  if (!a || !ring) {
    if (a) plat_dma_free(a, sizeof *a);
    if (ring) plat_dma_free(ring, 4096);
    return -ENOMEM;
  }
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)ring;
  for (uint32_t i = 0; i < SELF_TEST_PACKETS; i++)
    p[i].header = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
  a->hsa_queue.type = HSA_QUEUE_TYPE_SINGLE;
  a->hsa_queue.base_address = ring;
  a->hsa_queue.size = SELF_TEST_PACKETS;
  struct amdgpu_queue_desc desc = {.amd_queue = a, .ring_bytes = (uint32_t)ring_bytes,
                                   .priority = AMDGPU_QUEUE_PRIORITY_NORMAL};
  struct amdgpu_queue *q = NULL;
  int r = amdgpu_queue_create(dev, &desc, &q);
  if (!r) {
    /* No completion signal: the read index the CP reports is the answer. */
    __atomic_store_n(&a->write_dispatch_id, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&p[0].header,
                     (uint16_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
                                HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                                HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE),
                     __ATOMIC_RELEASE);
    amdgpu_queue_ring_doorbell(q, 0);
    uint64_t t0 = plat_now_ns();
    while (__atomic_load_n(&a->read_dispatch_id, __ATOMIC_ACQUIRE) < 1) {
      if (plat_now_ns() - t0 > SELF_TEST_TIMEOUT_NS) {
        log_error("MEC self-test: a barrier packet on ME%u pipe %u queue %u not run after %llu ms "
                  "(read index %llu): the MEC does not run its firmware",
                  AMDGPU_HQD_ME, slot_pipe(q->slot), slot_queue(q->slot),
                  (unsigned long long)(SELF_TEST_TIMEOUT_NS / 1000000),
                  (unsigned long long)a->read_dispatch_id);
        r = -ETIMEDOUT;
        break;
      }
      plat_sleep_ns(100000);
    }
    int d = amdgpu_queue_destroy(q, ERROR_DEQUEUE_TIMEOUT_NS);
    if (!r) r = d;
    if (d) {
      /* The MEC holds the queue: halted, it touches no memory any more
       * (the bring-up stops here; cp_fini_hw frees the lost queue). */
      log_error("MEC self-test: the test queue was not let go (%d)", d);
      WREG(dev, REG_GC_CP_MEC_CNTL, CP_MEC_CNTL__MEC_ME1_HALT | CP_MEC_CNTL__MEC_ME2_HALT);
      plat_sleep_ns(1000000);
    }
    if (!r) log_info("MEC ran a test packet in %llu us", (unsigned long long)((plat_now_ns() - t0) / 1000));
  }
  plat_dma_free(ring, 4096);
  plat_dma_free(a, sizeof *a);
  return r;
}
