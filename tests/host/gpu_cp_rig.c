/* gpu_cp_rig.c - see gpu_cp_rig.h. */
#include "tests/host/gpu_cp_rig.h"

#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"

static void on_eop(void *ctx, uint32_t me, uint32_t pipe, uint32_t queue, uint32_t context_id) {
  struct rig *r = ctx;
  __atomic_store_n(&r->last_eop_context, context_id, __ATOMIC_RELAXED);
  __atomic_add_fetch(&r->eop_count, 1, __ATOMIC_RELEASE);
}

static void on_fault(void *ctx, const struct amdgpu_fault *f) {
  struct rig *r = ctx;
  r->last_fault = *f;
  if (f->kind == AMDGPU_FAULT_SQ_ERROR) __atomic_add_fetch(&r->sq_errors, 1, __ATOMIC_RELEASE);
  if (f->kind == AMDGPU_FAULT_VM) __atomic_add_fetch(&r->vm_faults, 1, __ATOMIC_RELEASE);
  __atomic_add_fetch(&r->fault_count, 1, __ATOMIC_RELEASE);
}

void *rig_alloc(struct rig *r, size_t size) {
  size = (size + 4095) & ~(size_t)4095;
  void *p = aligned_alloc(4096, size);
  if (!p) return NULL;
  memset(p, 0, size);
  if (amdgpu_map_system_range(r->dev, p, size)) {
    free(p);
    return NULL;
  }
  return p;
}

bool rig_up(struct rig *r, enum vapu_chip_id chip) {
  return rig_up_with(r, &(struct vapu_config){.chip = chip});
}

bool rig_up_with(struct rig *r, const struct vapu_config *model) {
  memset(r, 0, sizeof *r);
  struct vapu_config config = *model;
  config.carveout_bytes = 32ull << 20;
  if (amdgpu_vapu_probe(&config, NULL, &r->dev)) return false; /* firmware from /amdgpu */
  r->v = amdgpu_vapu_of(r->dev);
  amdgpu_set_eop_handler(r->dev, on_eop, r);
  amdgpu_set_fault_handler(r->dev, on_fault, r);
  r->mailbox = rig_alloc(r, 4096);
  r->signals = rig_alloc(r, RIG_SIGNALS * sizeof(amd_signal_t));
  if (!r->mailbox || !r->signals) return false;
  for (int i = 0; i < RIG_SIGNALS; i++) {
    r->signals[i].kind = AMD_SIGNAL_KIND_USER;
    r->signals[i].value = 1;
    r->signals[i].event_mailbox_ptr = (uint64_t)(uintptr_t)r->mailbox;
    r->signals[i].event_id = 100 + i;
  }
  return true;
}

void rig_down(struct rig *r) {
  for (unsigned i = 0; i < r->queue_count; i++) {
    struct rig_queue *q = &r->q[i];
    vapu_cp_queue_stop(r->v, 1, q->pipe, q->queue, VAPU_CP_RESET);
    uint64_t until = plat_now_ns() + 2000000000ull;
    while (vapu_cp_queue_active(r->v, 1, q->pipe, q->queue) && plat_now_ns() < until)
      plat_sleep_ns(100000);
  }
  amdgpu_device_remove(r->dev); /* the worker stops before memory goes */
  for (unsigned i = 0; i < r->queue_count; i++) {
    free(r->q[i].amd);
    free(r->q[i].ring);
    free(r->q[i].inactive);
  }
  free((void *)r->mailbox);
  free(r->signals);
}

int rig_add_queue(struct rig *r, unsigned pipe, unsigned queue) {
  if (r->queue_count == RIG_MAX_QUEUES) return -1;
  struct rig_queue *q = &r->q[r->queue_count];
  q->amd = rig_alloc(r, sizeof *q->amd);
  q->ring = rig_alloc(r, RIG_RING_PACKETS * 64);
  q->inactive = rig_alloc(r, sizeof *q->inactive);
  if (!q->amd || !q->ring || !q->inactive) return -1;
  for (int i = 0; i < RIG_RING_PACKETS; i++)
    ((uint16_t *)q->ring)[i * 32] = HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE;
  q->inactive->kind = AMD_SIGNAL_KIND_USER;
  q->inactive->event_mailbox_ptr = (uint64_t)(uintptr_t)r->mailbox;
  q->inactive->event_id = 7;
  q->amd->hsa_queue.base_address = q->ring;
  q->amd->hsa_queue.size = RIG_RING_PACKETS;
  q->amd->queue_inactive_signal.handle = (uint64_t)(uintptr_t)q->inactive;
  q->amd->read_dispatch_id_field_base_byte_offset = offsetof(amd_queue_t, read_dispatch_id);
  q->pipe = pipe;
  q->queue = queue;
  struct vapu_cp_queue_regs regs = {
      .ring_address = (uint64_t)(uintptr_t)q->ring,
      .ring_bytes = RIG_RING_PACKETS * 64,
      .rptr_report_address = (uint64_t)(uintptr_t)&q->amd->read_dispatch_id,
      .wptr_poll_address = (uint64_t)(uintptr_t)&q->amd->write_dispatch_id,
      .doorbell_offset = 2 * (pipe * 8 + queue),
      .vmid = RIG_VMID,
      .aql = true,
      .sh_mem_bases = RIG_SH_MEM_BASES,
      .cu_enable = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}, /* every CU */
  };
  if (vapu_cp_queue_start(r->v, 1, pipe, queue, &regs)) return -1;
  return (int)r->queue_count++;
}

uint16_t rig_header(hsa_packet_type_t type, bool barrier) {
  return (uint16_t)(type << HSA_PACKET_HEADER_TYPE | (barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

void rig_submit(struct rig *r, int qi, const void *packet) {
  struct rig_queue *q = &r->q[qi];
  uint64_t index = __atomic_fetch_add(&q->amd->write_dispatch_id, 1, __ATOMIC_ACQ_REL);
  uint8_t *slot = (uint8_t *)q->ring + (index % RIG_RING_PACKETS) * 64;
  memcpy(slot + 2, (const uint8_t *)packet + 2, 62);
  __atomic_store_n((uint16_t *)slot, *(const uint16_t *)packet, __ATOMIC_RELEASE);
  vapu_cp_queue_write_pointer(r->v, 1, q->pipe, q->queue, index + 1); /* the doorbell reached it */
}

bool rig_wait_value(volatile int64_t *value, int64_t want, uint64_t timeout_ns) {
  uint64_t until = plat_now_ns() + timeout_ns;
  while (__atomic_load_n(value, __ATOMIC_ACQUIRE) != want) {
    if (plat_now_ns() > until) return false;
    plat_sleep_ns(20000);
  }
  return true;
}

bool rig_wait_u64(volatile uint64_t *value, uint64_t want, uint64_t timeout_ns) {
  return rig_wait_value((volatile int64_t *)value, (int64_t)want, timeout_ns);
}
