/*
 * gpu_agent.h - the GPU agent's state, shared by gpu_agent.c (creation,
 * attributes, shut-down) and gpu_agent_queue.c (AQL queues in hardware
 * queue slots, doorbells, queue errors). Everything it does to the GPU goes
 * through drivers/amdgpu/amdgpu.h.
 */
#ifndef HSA_GPU_AGENT_H
#define HSA_GPU_AGENT_H

#include "drivers/amdgpu/amdgpu.h"
#include "hsa/agent.h"
#include "lib/lock.h"

struct gpu_queue;

struct gpu_agent {
  struct agent agent;
  struct amdgpu_device *dev;
  struct amdgpu_device_info info;
  hsa_amd_hdp_flush_t hdp_flush; /* the driver's flush registers (HSA_AMD_AGENT_INFO_HDP_FLUSH) */
  uint32_t scratch_lane_bytes; /* scratch of each queue, bytes per work-item */
  uint64_t time_limit_ns;      /* of each new queue (gpu_dispatch_timeout_ms), 0: none */
  struct lock queues_lock;
  struct gpu_queue *queues[AMDGPU_QUEUES_MAX]; /* attached queues, unordered */
  uint32_t queue_count;
};

static inline struct gpu_agent *gpu_agent_of(struct agent *a) { return a->impl; }

/* The driver's fault handler (interrupt context: gpu_agent_fault.c): a
 * memory fault becomes HSA_AMD_GPU_MEMORY_FAULT_EVENT for the system event
 * handlers. gpu_fault_memory_event is the translation: false for a fault
 * that is no program's memory fault. */
void gpu_agent_on_fault(void *ctx, const struct amdgpu_fault *fault);
bool gpu_fault_memory_event(hsa_agent_t agent, const struct amdgpu_fault *fault, hsa_amd_event_t *event);

/* Queue hooks (gpu_agent_queue.c). */
hsa_status_t gpu_queue_attach(struct agent *agent, struct queue *q);
void gpu_queue_detach(struct agent *agent, struct queue *q);
hsa_status_t gpu_queue_update(struct agent *agent, struct queue *q);
/* The HSA status a program gets for a queue the driver stopped. */
hsa_status_t gpu_queue_error_status(const struct amdgpu_queue_error *error);

#endif
