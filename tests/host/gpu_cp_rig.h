/*
 * gpu_cp_rig.h - a virtual APU brought up by the driver, with AQL queues
 * handed straight to its command processor (vapu_cp_queue_start), for the
 * tests of the CP engine that run below the runtime: the ring, amd_queue_t,
 * signals and the event mailbox are ordinary memory the driver maps for the
 * compute VMIDs, as the runtime's would be.
 */
#ifndef TESTS_HOST_GPU_CP_RIG_H
#define TESTS_HOST_GPU_CP_RIG_H

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>

#include "drivers/amdgpu/amdgpu.h"
#include "vapu/cp.h"
#include "vapu/vapu.h"

#define RIG_MAX_QUEUES 4
#define RIG_RING_PACKETS 64
#define RIG_SIGNALS 16
#define RIG_VMID 8
#define RIG_SH_MEM_BASES 0x00010002u /* shared aperture 1 << 48, private 2 << 48 (KFD's gfx9 choice) */

struct rig_queue {
  amd_queue_t *amd;
  void *ring;
  amd_signal_t *inactive; /* queue_inactive_signal */
  unsigned pipe, queue;   /* ME is 1 */
};

struct rig {
  struct amdgpu_device *dev;
  struct vapu *v;
  struct rig_queue q[RIG_MAX_QUEUES];
  unsigned queue_count;
  amd_signal_t *signals;      /* RIG_SIGNALS user signals, value 1, with the mailbox */
  volatile uint32_t *mailbox; /* event mailbox of every signal */
  _Atomic int eop_count, fault_count, sq_errors, vm_faults;
  uint32_t last_eop_context; /* the context id of the last end-of-pipe interrupt */
  struct amdgpu_fault last_fault;
};

/* Brings up `chip` and hooks the driver's EOP and fault reports. */
bool rig_up(struct rig *r, enum vapu_chip_id chip);
bool rig_up_with(struct rig *r, const struct vapu_config *model); /* e.g. with fault hooks */
void rig_down(struct rig *r);

/* A queue in HQD (1, pipe, queue) with a fresh ring; returns its index or -1. */
int rig_add_queue(struct rig *r, unsigned pipe, unsigned queue);

/* Writes `packet` (64 bytes, header in its first 16 bits) at the next slot,
 * header last, bumps write_dispatch_id and rings: the queue's write
 * pointer moves as a doorbell that reached it would move it. */
void rig_submit(struct rig *r, int qi, const void *packet);

/* Memory the GPU may use (mapped for the compute VMIDs), zeroed. */
void *rig_alloc(struct rig *r, size_t size);

/* Polls until *value == want or timeout; true if reached. */
bool rig_wait_value(volatile int64_t *value, int64_t want, uint64_t timeout_ns);
bool rig_wait_u64(volatile uint64_t *value, uint64_t want, uint64_t timeout_ns);

uint16_t rig_header(hsa_packet_type_t type, bool barrier);

#endif
