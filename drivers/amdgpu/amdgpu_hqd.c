/* amdgpu_hqd.c - the sequences that load a queue's MQD into a hardware queue
 * descriptor of the first MEC and take it out again, under the GRBM queue
 * select (soc15_grbm_select); the caller holds the queue lock, which also
 * guards the select.
 *
 * Sequences: Linux amdgpu_amdkfd_gfx_v9.c kgd_gfx_v9_hqd_load (registers
 * CP_MQD_BASE_ADDR..CP_HQD_PQ_WPTR_HI from the MQD, doorbell enable, one
 * write-pointer poll, EOP fetcher start, ACTIVE; no read-back: the
 * register says only what was written) and kgd_gfx_v9_hqd_destroy
 * (CP_HQD_DEQUEUE_REQUEST, poll ACTIVE with a timeout). A dequeued queue
 * is loaded again from the MQD as the CP left it: the CP saves the HQD
 * registers there when it lets the queue go (KFD's restore after an
 * eviction without the HWS reloads that MQD, kfd_device_queue_manager.c
 * restore_process_queues_nocpsch). */
#define LOG_TAG "queue"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_queue_internal.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "lib/plat.h"

static void select_slot(struct amdgpu_queue *q) {
  grbm_select(q->dev, AMDGPU_HQD_ME, slot_pipe(q->slot), slot_queue(q->slot), 0);
}

void hqd_load(struct amdgpu_queue *q) {
  struct amdgpu_device *dev = q->dev;
  select_slot(q);
  for (uint32_t reg = GC_CP_MQD_BASE_ADDR; reg <= GC_CP_HQD_PQ_WPTR_HI; reg++)
    WREG(dev, REG_GC_HQD(reg), q->mqd[MQD_HQD(reg)]);
  /* Doorbell logic first, then one poll of the write pointer: the CP
   * starts from the MQD's read and write pointers (0 and 0 for a new
   * queue, where the CP left them for a reloaded one) and takes the
   * runtime's write index from memory: CP_PQ_WPTR_POLL_CNTL1's bit
   * pipe * 8 + queue. */
  WREG(dev, REG_GC_CP_HQD_PQ_DOORBELL_CONTROL,
       q->mqd[MQD_HQD(GC_CP_HQD_PQ_DOORBELL_CONTROL)] | CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_EN);
  WREG(dev, REG_GC_CP_PQ_WPTR_POLL_CNTL1, 1u << q->slot);
  WREG(dev, REG_GC_CP_HQD_EOP_RPTR, CP_HQD_EOP_RPTR__INIT_FETCHER);
  WREG(dev, REG_GC_CP_HQD_ACTIVE, CP_HQD_ACTIVE__ACTIVE);
  grbm_select(dev, 0, 0, 0, 0);
}

void hqd_request_dequeue(struct amdgpu_queue *q, uint32_t type) {
  struct amdgpu_device *dev = q->dev;
  select_slot(q);
  WREG(dev, REG_GC_CP_HQD_DEQUEUE_REQUEST, type);
  grbm_select(dev, 0, 0, 0, 0);
}

bool hqd_released(struct amdgpu_queue *q) {
  struct amdgpu_device *dev = q->dev;
  select_slot(q);
  bool active = RREG(dev, REG_GC_CP_HQD_ACTIVE) & CP_HQD_ACTIVE__ACTIVE;
  grbm_select(dev, 0, 0, 0, 0);
  return !active;
}

int hqd_dequeue(struct amdgpu_queue *q, uint32_t type, uint64_t timeout_ns) {
  if (hqd_released(q)) return 0;
  hqd_request_dequeue(q, type);
  uint64_t deadline = plat_now_ns() + timeout_ns;
  while (!hqd_released(q)) {
    if (plat_now_ns() > deadline) {
      log_error("HQD ME%u pipe %u queue %u still active %llu ms after a dequeue request (type %u)",
                AMDGPU_HQD_ME, slot_pipe(q->slot), slot_queue(q->slot),
                (unsigned long long)(timeout_ns / 1000000), type);
      return -ETIMEDOUT;
    }
    plat_cpu_relax();
  }
  return 0;
}
