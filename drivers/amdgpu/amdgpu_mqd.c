/* amdgpu_mqd.c - the v9 memory queue descriptor of an AQL compute queue:
 * the image of the HQD registers the driver loads (and the CP saves the
 * queue's state into on a dequeue). Field values: Linux
 * kfd_mqd_manager_v9.c init_mqd / update_mqd / set_priority for a
 * KFD_QUEUE_FORMAT_AQL queue without context save area; layout:
 * include/v9_structs.h (regs/gc_9_1_cp.h MQD_*). */
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"

/* log2 of a power of two. */
static uint32_t order(uint64_t x) { return (uint32_t)__builtin_ctzll(x); }

void mqd_set_cu_masks(uint32_t *m, const uint32_t se_mask[4]) {
  m[MQD_COMPUTE_STATIC_THREAD_MGMT_SE0] = se_mask[0];
  m[MQD_COMPUTE_STATIC_THREAD_MGMT_SE1] = se_mask[1];
  m[MQD_COMPUTE_STATIC_THREAD_MGMT_SE2] = se_mask[2];
  m[MQD_COMPUTE_STATIC_THREAD_MGMT_SE3] = se_mask[3];
}

/* KFD's maps (kfd_mqd_manager.c pipe_priority_map; set_priority puts the
 * queue priority on its 0-15 scale). */
void mqd_set_priority(uint32_t *m, enum amdgpu_queue_priority priority) {
  static const uint32_t pipe_priority[] = {CP_HQD_PIPE_PRIORITY_LOW, CP_HQD_PIPE_PRIORITY_MEDIUM,
                                           CP_HQD_PIPE_PRIORITY_HIGH};
  static const uint32_t queue_priority[] = {0, 7, 15};
  m[MQD_HQD(GC_CP_HQD_PIPE_PRIORITY)] = pipe_priority[priority];
  m[MQD_HQD(GC_CP_HQD_QUEUE_PRIORITY)] = queue_priority[priority];
}

void mqd_init_aql(uint32_t *m, const struct mqd_aql *q) {
  memset(m, 0, MQD_DWORDS * sizeof *m);
  m[MQD_HEADER] = MQD_HEADER_VALUE;
  m[MQD_COMPUTE_PIPELINESTAT_ENABLE] = 1;
  /* Every CU of every SE may run the queue's waves. */
  mqd_set_cu_masks(m, (const uint32_t[4]){UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX});
  m[MQD_COMPUTE_TMPRING_SIZE] = q->tmpring_size;

  m[MQD_HQD(GC_CP_MQD_BASE_ADDR)] = (uint32_t)q->mqd_address;
  m[MQD_HQD(GC_CP_MQD_BASE_ADDR_HI)] = (uint32_t)(q->mqd_address >> 32);
  m[MQD_HQD(GC_CP_MQD_CONTROL)] = CP_MQD_CONTROL__PRIV_STATE; /* MQD in VMID 0 */
  m[MQD_HQD(GC_CP_HQD_VMID)] = q->vmid;
  m[MQD_HQD(GC_CP_HQD_PERSISTENT_STATE)] =
      CP_HQD_PERSISTENT_STATE__PRELOAD_REQ | 0x53u << CP_HQD_PERSISTENT_STATE__PRELOAD_SIZE_SHIFT;
  mqd_set_priority(m, q->priority);
  m[MQD_HQD(GC_CP_HQD_QUANTUM)] = CP_HQD_QUANTUM__QUANTUM_EN | 1u << CP_HQD_QUANTUM__QUANTUM_SCALE_SHIFT |
                                  1u << CP_HQD_QUANTUM__QUANTUM_DURATION_SHIFT;

  /* The ring: 2 << QUEUE_SIZE dwords; AQL write pointers count 64-byte
   * slots, the read pointer is reported to memory, not updated by the
   * driver; a full queue stalls the producer. */
  m[MQD_HQD(GC_CP_HQD_PQ_BASE)] = (uint32_t)(q->ring_address >> 8);
  m[MQD_HQD(GC_CP_HQD_PQ_BASE_HI)] = (uint32_t)(q->ring_address >> 40);
  m[MQD_HQD(GC_CP_HQD_PQ_CONTROL)] =
      (order(q->ring_bytes / 4) - 1) | 5u << CP_HQD_PQ_CONTROL__RPTR_BLOCK_SIZE_SHIFT |
      CP_HQD_PQ_CONTROL__NO_UPDATE_RPTR | 2u << CP_HQD_PQ_CONTROL__SLOT_BASED_WPTR_SHIFT |
      CP_HQD_PQ_CONTROL__QUEUE_FULL_EN | CP_HQD_PQ_CONTROL__WPP_CLAMP_EN;
  m[MQD_HQD(GC_CP_HQD_PQ_RPTR_REPORT_ADDR)] = (uint32_t)q->rptr_address;
  m[MQD_HQD(GC_CP_HQD_PQ_RPTR_REPORT_ADDR_HI)] = (uint32_t)(q->rptr_address >> 32);
  m[MQD_HQD(GC_CP_HQD_PQ_WPTR_POLL_ADDR)] = (uint32_t)q->wptr_address;
  m[MQD_HQD(GC_CP_HQD_PQ_WPTR_POLL_ADDR_HI)] = (uint32_t)(q->wptr_address >> 32);
  /* A 64-bit doorbell is two dwords of the BAR; AQL doorbell writes from
   * the BIF are dropped while the queue is not mapped. */
  m[MQD_HQD(GC_CP_HQD_PQ_DOORBELL_CONTROL)] =
      (q->doorbell_index * 2) << CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_OFFSET_SHIFT |
      CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_BIF_DROP;
  m[MQD_HQD(GC_CP_HQD_IB_CONTROL)] =
      3u << CP_HQD_IB_CONTROL__MIN_IB_AVAIL_SIZE_SHIFT | CP_HQD_IB_CONTROL__IB_EXE_DISABLE;
  /* EOP buffer: 2 << EOP_SIZE dwords; the field is clamped at 0xA (per-SE
   * EOP done counters are 8 bits, update_mqd). */
  uint32_t eop_size = order(q->eop_bytes / 4) - 1;
  m[MQD_HQD(GC_CP_HQD_EOP_CONTROL)] = eop_size > 0xa ? 0xa : eop_size;
  m[MQD_HQD(GC_CP_HQD_EOP_BASE_ADDR)] = (uint32_t)(q->eop_address >> 8);
  m[MQD_HQD(GC_CP_HQD_EOP_BASE_ADDR_HI)] = (uint32_t)(q->eop_address >> 40);
  m[MQD_HQD(GC_CP_HQD_AQL_CONTROL)] = 1u << CP_HQD_AQL_CONTROL__CONTROL0_SHIFT;
}
