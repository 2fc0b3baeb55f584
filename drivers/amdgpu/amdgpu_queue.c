/* amdgpu_queue.c - AQL compute queues in the MEC's hardware queue slots:
 * resources (MQD in the GART, EOP buffer, scratch), the HQD load and
 * dequeue sequences, VMIDs and doorbells, and the routing of GPU errors to
 * the queue they belong to.
 *
 * Sequences: Linux amdgpu_amdkfd_gfx_v9.c kgd_gfx_v9_hqd_load (registers
 * CP_MQD_BASE_ADDR..CP_HQD_PQ_WPTR_HI from the MQD, doorbell enable, one
 * write-pointer poll, EOP fetcher start, ACTIVE; no read-back: the
 * register says only what was written) and kgd_gfx_v9_hqd_destroy
 * (CP_HQD_DEQUEUE_REQUEST, poll ACTIVE with a timeout), both under the GRBM
 * queue select (soc15_grbm_select). Scratch and amd_queue_t fields: ROCR
 * amd_aql_queue.cpp (AqlQueue constructor, InitScratchSRD for gfx9,
 * FillComputeTmpRingSize); gfx9 buffer descriptor fields from
 * gc_9_1_sh_mask.h SQ_BUF_RSRC_WORD*, values from vega10_enum.h. */
#define LOG_TAG "queue"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
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

enum queue_state { QUEUE_RUNNING, QUEUE_STOPPED, QUEUE_LOST };

struct amdgpu_queue {
  struct amdgpu_device *dev;
  amd_queue_t *amd;
  uint32_t ring_bytes;
  uint32_t slot, vmid, doorbell_index;
  volatile uint64_t *doorbell;
  uint32_t *mqd;                /* one page, GART-mapped at mqd_address */
  uint64_t mqd_address;
  bool mqd_mapped;
  void *eop;
  void *scratch;
  size_t scratch_bytes;
  enum amdgpu_queue_priority priority;
  amdgpu_queue_error_fn error_fn;
  void *error_ctx;
  enum queue_state state;       /* under queues.lock */
  /* Progress watch (amdgpu_queues_check_progress), under queues.lock. */
  uint64_t time_limit_ns;
  uint64_t last_read_index, last_progress_ns;
};

static uint32_t slot_pipe(uint32_t slot) { return slot / AMDGPU_HQD_QUEUES; }
static uint32_t slot_queue(uint32_t slot) { return slot % AMDGPU_HQD_QUEUES; }

/* ---- The lock and the errors left by the interrupt handler ----
 * The interrupt handler may run on the core that holds the lock (image), so
 * it never waits for it: it leaves the error in by_vmid/by_slot and
 * whoever holds the lock handles it on release. */

static bool try_lock(struct amdgpu_device *dev) {
  return !__atomic_exchange_n(&dev->queues.lock, 1, __ATOMIC_ACQUIRE);
}

static void lock(struct amdgpu_device *dev) {
  while (!try_lock(dev)) plat_cpu_relax();
}

static void handle_errors_locked(struct amdgpu_device *dev);

static void unlock(struct amdgpu_device *dev) {
  for (;;) {
    __atomic_store_n(&dev->queues.lock, 0, __ATOMIC_RELEASE);
    if (!__atomic_load_n(&dev->queues.by_vmid.pending, __ATOMIC_ACQUIRE) &&
        !__atomic_load_n(&dev->queues.by_slot.pending, __ATOMIC_ACQUIRE))
      return;
    if (!try_lock(dev)) return; /* the holder handles them when it unlocks */
    handle_errors_locked(dev);
  }
}

/* ---- HQD sequences (caller holds the lock) ---- */

static void hqd_load(struct amdgpu_queue *q) {
  struct amdgpu_device *dev = q->dev;
  uint32_t pipe = slot_pipe(q->slot), queue = slot_queue(q->slot);
  grbm_select(dev, AMDGPU_HQD_ME, pipe, queue, 0);
  for (uint32_t reg = GC_CP_MQD_BASE_ADDR; reg <= GC_CP_HQD_PQ_WPTR_HI; reg++)
    WREG(dev, IP_GC, 0, reg, q->mqd[MQD_HQD(reg)]);
  /* Doorbell logic first, then one poll of the write pointer (the MQD's
   * read and write pointers are both 0, so the CP starts fetching at the
   * runtime's write index): CP_PQ_WPTR_POLL_CNTL1's bit pipe * 8 + queue. */
  WREG(dev, IP_GC, 0, GC_CP_HQD_PQ_DOORBELL_CONTROL,
       q->mqd[MQD_HQD(GC_CP_HQD_PQ_DOORBELL_CONTROL)] | CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_EN);
  WREG(dev, IP_GC, 0, GC_CP_PQ_WPTR_POLL_CNTL1, 1u << q->slot);
  WREG(dev, IP_GC, 0, GC_CP_HQD_EOP_RPTR, CP_HQD_EOP_RPTR__INIT_FETCHER);
  WREG(dev, IP_GC, 0, GC_CP_HQD_ACTIVE, CP_HQD_ACTIVE__ACTIVE);
  grbm_select(dev, 0, 0, 0, 0);
}

/* Dequeue request of `type`, then ACTIVE polled until clear. Busy-waits:
 * this also runs in interrupt context. */
static int hqd_dequeue(struct amdgpu_queue *q, uint32_t type, uint64_t timeout_ns) {
  struct amdgpu_device *dev = q->dev;
  uint32_t pipe = slot_pipe(q->slot), queue = slot_queue(q->slot);
  grbm_select(dev, AMDGPU_HQD_ME, pipe, queue, 0);
  int r = 0;
  if (RREG(dev, IP_GC, 0, GC_CP_HQD_ACTIVE) & CP_HQD_ACTIVE__ACTIVE) {
    WREG(dev, IP_GC, 0, GC_CP_HQD_DEQUEUE_REQUEST, type);
    uint64_t deadline = plat_now_ns() + timeout_ns;
    while (RREG(dev, IP_GC, 0, GC_CP_HQD_ACTIVE) & CP_HQD_ACTIVE__ACTIVE) {
      if (plat_now_ns() > deadline) {
        log_error("HQD ME%u pipe %u queue %u still active %llu ms after a dequeue request (type %u)",
                  AMDGPU_HQD_ME, pipe, queue, (unsigned long long)(timeout_ns / 1000000), type);
        r = -ETIMEDOUT;
        break;
      }
      plat_cpu_relax();
    }
  }
  grbm_select(dev, 0, 0, 0, 0);
  return r;
}

/* ---- Errors ---- */

static enum amdgpu_queue_error_kind error_kind(const struct amdgpu_fault *f, hsa_status_t *status) {
  switch (f->kind) {
    case AMDGPU_FAULT_VM:
    case AMDGPU_FAULT_DMA: *status = (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT; return AMDGPU_QUEUE_ERROR_VM_FAULT;
    case AMDGPU_FAULT_CP_BAD_OPCODE:
      *status = (hsa_status_t)HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
      return AMDGPU_QUEUE_ERROR_BAD_PACKET;
    case AMDGPU_FAULT_SQ_ERROR:
      if (f->sq_error_type == SQ_INTERRUPT_ERROR_TYPE_ILLEGAL_INST) {
        *status = (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION;
        return AMDGPU_QUEUE_ERROR_ILLEGAL_INSTRUCTION;
      }
      if (f->sq_error_type == SQ_INTERRUPT_ERROR_TYPE_MEMVIOL) {
        *status = (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
        return AMDGPU_QUEUE_ERROR_MEMORY_VIOLATION;
      }
      break;
    default: break;
  }
  *status = HSA_STATUS_ERROR_EXCEPTION;
  return AMDGPU_QUEUE_ERROR_HARDWARE;
}

/* Stops a running queue with wave reset and reports `error`. */
static void stop_and_report(struct amdgpu_queue *q, const struct amdgpu_queue_error *error) {
  if (q->state != QUEUE_RUNNING) return;
  int r = hqd_dequeue(q, CP_HQD_DEQUEUE_RESET_WAVES, ERROR_DEQUEUE_TIMEOUT_NS);
  q->state = r ? QUEUE_LOST : QUEUE_STOPPED;
  log_error("queue ME%u pipe %u queue %u (VMID %u) stopped: HSA status 0x%x", AMDGPU_HQD_ME,
            slot_pipe(q->slot), slot_queue(q->slot), q->vmid, (unsigned)error->status);
  if (q->error_fn) q->error_fn(q->error_ctx, q, error);
}

/* Takes the errors left by the interrupt handler; for each its queues. */
static void handle_errors_locked(struct amdgpu_device *dev) {
  struct amdgpu_queues *qs = &dev->queues;
  struct amdgpu_queue_errors *sets[2] = {&qs->by_vmid, &qs->by_slot};
  for (int s = 0; s < 2; s++) {
    uint32_t bits = __atomic_exchange_n(&sets[s]->pending, 0, __ATOMIC_ACQUIRE);
    while (bits) {
      uint32_t i = (uint32_t)__builtin_ctz(bits);
      bits &= bits - 1;
      struct amdgpu_fault fault = sets[s]->fault[i];
      __atomic_and_fetch(&sets[s]->latched, ~(1u << i), __ATOMIC_RELEASE);
      struct amdgpu_queue_error error = {.fault = &fault};
      error.kind = error_kind(&fault, &error.status);
      for (uint32_t slot = 0; slot < AMDGPU_HQD_SLOTS; slot++) {
        struct amdgpu_queue *q = qs->slot[slot];
        if (q && (s == 0 ? q->vmid == AMDGPU_COMPUTE_VMID_FIRST + i : slot == i))
          stop_and_report(q, &error);
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
  if (try_lock(dev)) {
    handle_errors_locked(dev);
    unlock(dev);
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

/* A free slot, pipes taken round robin so queues spread over the pipes. */
static int pick_slot(struct amdgpu_queues *qs) {
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

static const uint32_t pipe_priority[] = {CP_HQD_PIPE_PRIORITY_LOW, CP_HQD_PIPE_PRIORITY_MEDIUM,
                                         CP_HQD_PIPE_PRIORITY_HIGH};
static const uint32_t queue_priority[] = {0, 7, 15}; /* KFD's 0-15 scale */

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

  lock(dev);
  struct amdgpu_queues *qs = &dev->queues;
  int slot = pick_slot(qs);
  if (slot < 0) {
    unlock(dev);
    log_error("queue create: all %d hardware queue slots are in use", AMDGPU_HQD_SLOTS);
    free_queue(q);
    return -EBUSY;
  }
  uint32_t vmid_index = pick_vmid(qs);
  q->slot = (uint32_t)slot;
  q->vmid = AMDGPU_COMPUTE_VMID_FIRST + vmid_index;
  q->doorbell_index = DOORBELL64_USERQUEUE_START + q->slot;
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
      .pipe_priority = pipe_priority[q->priority],
      .queue_priority = queue_priority[q->priority],
      .tmpring_size = tmpring,
  };
  mqd_init_aql(q->mqd, &params);
  hqd_load(q);
  qs->slot[slot] = q;
  qs->vmid_users[vmid_index]++;
  q->state = QUEUE_RUNNING;
  unlock(dev);
  log_debug("queue on ME%u pipe %u queue %u: VMID %u, doorbell %u, ring %u packets, scratch %zu KiB",
            AMDGPU_HQD_ME, slot_pipe(q->slot), slot_queue(q->slot), q->vmid, q->doorbell_index,
            q->ring_bytes / 64, q->scratch_bytes >> 10);
  *out = q;
  return 0;
}

int amdgpu_queue_get_info(const struct amdgpu_queue *q, struct amdgpu_queue_info *info) {
  if (!q || !info) return -EINVAL;
  *info = (struct amdgpu_queue_info){.doorbell = q->doorbell,
                                     .doorbell_index = q->doorbell_index,
                                     .me = AMDGPU_HQD_ME,
                                     .pipe = slot_pipe(q->slot),
                                     .queue = slot_queue(q->slot),
                                     .vmid = q->vmid};
  return 0;
}

void amdgpu_queue_ring_doorbell(struct amdgpu_queue *q, uint64_t value) {
  __atomic_store_n(q->doorbell, value, __ATOMIC_RELEASE);
  if (q->dev->bus->doorbell_written) q->dev->bus->doorbell_written(q->dev, q->doorbell_index * 8u, value);
}

int amdgpu_queue_set_scratch(struct amdgpu_queue *q, uint32_t bytes_per_lane, uint32_t max_waves) {
  if (!q) return -EINVAL;
  uint32_t tmpring;
  int r = setup_scratch(q, bytes_per_lane, max_waves, &tmpring);
  /* The MQD's copy too, for the next load of the HQD. */
  if (!r) q->mqd[MQD_COMPUTE_TMPRING_SIZE] = tmpring;
  return r;
}

/* Stops a running queue's waves and reports ABORTED; caller holds the lock. */
static int abort_locked(struct amdgpu_queue *q, hsa_status_t status, uint64_t timeout_ns) {
  int r = hqd_dequeue(q, CP_HQD_DEQUEUE_RESET_WAVES, timeout_ns);
  q->state = r ? QUEUE_LOST : QUEUE_STOPPED;
  log_error("queue ME%u pipe %u queue %u aborted (HSA status 0x%x)%s", AMDGPU_HQD_ME,
            slot_pipe(q->slot), slot_queue(q->slot), (unsigned)status,
            r ? ": the hardware did not let it go" : "");
  struct amdgpu_queue_error error = {.kind = AMDGPU_QUEUE_ERROR_ABORTED, .status = status};
  if (q->error_fn) q->error_fn(q->error_ctx, q, &error);
  return r;
}

int amdgpu_queue_abort(struct amdgpu_queue *q, hsa_status_t status, uint64_t timeout_ns) {
  if (!q) return -EINVAL;
  struct amdgpu_device *dev = q->dev;
  lock(dev);
  int r = q->state == QUEUE_RUNNING ? abort_locked(q, status, timeout_ns) : -EALREADY;
  unlock(dev);
  return r;
}

void amdgpu_queue_set_time_limit(struct amdgpu_queue *q, uint64_t limit_ns) {
  if (!q) return;
  lock(q->dev);
  q->time_limit_ns = limit_ns;
  q->last_read_index = __atomic_load_n(&q->amd->read_dispatch_id, __ATOMIC_ACQUIRE);
  q->last_progress_ns = plat_now_ns();
  unlock(q->dev);
}

int amdgpu_queues_check_progress(struct amdgpu_device *dev, uint64_t now_ns, hsa_status_t status) {
  if (!dev) return -EINVAL;
  int aborted = 0;
  lock(dev);
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
    log_error("queue ME%u pipe %u queue %u: packet %llu unfinished after %llu ms (limit %llu ms)",
              AMDGPU_HQD_ME, slot_pipe(slot), slot_queue(slot), (unsigned long long)read,
              (unsigned long long)((now_ns - q->last_progress_ns) / 1000000),
              (unsigned long long)(q->time_limit_ns / 1000000));
    abort_locked(q, status, ERROR_DEQUEUE_TIMEOUT_NS);
    aborted++;
  }
  unlock(dev);
  return aborted;
}

/* Takes q out of its slot; caller holds the lock. */
static void release_slot(struct amdgpu_queue *q) {
  struct amdgpu_queues *qs = &q->dev->queues;
  qs->slot[q->slot] = NULL;
  qs->vmid_users[q->vmid - AMDGPU_COMPUTE_VMID_FIRST]--;
}

int amdgpu_queue_destroy(struct amdgpu_queue *q, uint64_t timeout_ns) {
  if (!q) return -EINVAL;
  struct amdgpu_device *dev = q->dev;
  lock(dev);
  if (q->state == QUEUE_LOST) {
    unlock(dev);
    return -ETIMEDOUT;
  }
  int r = hqd_dequeue(q, CP_HQD_DEQUEUE_DRAIN_PIPE, timeout_ns);
  if (r) {
    q->state = QUEUE_LOST; /* the CP may still write its memory: keep everything */
    unlock(dev);
    return r;
  }
  release_slot(q);
  unlock(dev);
  free_queue(q);
  return 0;
}

void amdgpu_queues_dequeue_all(struct amdgpu_device *dev) {
  lock(dev);
  for (uint32_t slot = 0; slot < AMDGPU_HQD_SLOTS; slot++) {
    struct amdgpu_queue *q = dev->queues.slot[slot];
    if (!q) continue;
    if (q->state != QUEUE_LOST)
      log_warn("queue ME%u pipe %u queue %u still exists at device removal: dequeued", AMDGPU_HQD_ME,
               slot_pipe(slot), slot_queue(slot));
    hqd_dequeue(q, CP_HQD_DEQUEUE_RESET_WAVES, ERROR_DEQUEUE_TIMEOUT_NS);
  }
  unlock(dev);
}

void amdgpu_queues_free_all(struct amdgpu_device *dev) {
  lock(dev);
  for (uint32_t slot = 0; slot < AMDGPU_HQD_SLOTS; slot++) {
    struct amdgpu_queue *q = dev->queues.slot[slot];
    if (!q) continue;
    release_slot(q);
    free_queue(q);
  }
  unlock(dev);
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
      WREG(dev, IP_GC, 0, GC_CP_MEC_CNTL, CP_MEC_CNTL__MEC_ME1_HALT | CP_MEC_CNTL__MEC_ME2_HALT);
      plat_sleep_ns(1000000);
    }
    if (!r) log_info("MEC ran a test packet in %llu us", (unsigned long long)((plat_now_ns() - t0) / 1000));
  }
  plat_dma_free(ring, 4096);
  plat_dma_free(a, sizeof *a);
  return r;
}
