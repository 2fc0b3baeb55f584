/*
 * cpu_agent.h - the CPU agent's state, shared by cpu_agent.c (creation,
 * attributes, shut-down) and cpu_agent_queue.c (the packet processor and
 * its helper cores: kernel dispatch, barrier and agent-dispatch packets,
 * queue attach and detach).
 */
#ifndef HSA_CPU_AGENT_H
#define HSA_CPU_AGENT_H

#include <hsa/hsa_cpu_kernel.h>

#include "hsa/agent.h"
#include "hsa/event.h"
#include "hsa/queue.h"
#include "lib/lock.h"

#define CPU_AGENT_MAX_CORES     32
#define CPU_AGENT_MAX_QUEUES    128
#define CPU_GROUP_SEGMENT_BYTES (64 * 1024)


struct cpu_agent;

struct cpu_core {
  struct cpu_agent *agent;
  uint32_t index;
  int worker_id;
  void *group_segment;
};

/* The kernel dispatch being shared between the agent's cores. `claim`
 * packs (generation << 32 | next work-group): a core that looked at an
 * older dispatch fails its compare-exchange instead of running a group of
 * the new one. Once a dispatch is done its claim is parked at index
 * CLAIM_EXHAUSTED (no dispatch has that many groups) before the fields are
 * rewritten, so a late core never mistakes a new `total` for its own. The
 * other fields are read only after a successful claim. */
struct dispatch_job {
  _Atomic uint64_t claim;
  _Atomic uint64_t done;
  const hsa_kernel_dispatch_packet_t *packet;
  const hsa_cpu_kernel_descriptor_t *kernel;
  _Atomic uint32_t cu_mask[QUEUE_MAX_CU_MASK_WORDS]; /* copied: the queue may go first */
  uint32_t groups[3];
  uint64_t first;         /* the linear index of the job's first work-group */
  _Atomic uint64_t total; /* < 2^32: grids hold at most UINT32_MAX items */
  uint32_t group_segment_size;
};

#define CLAIM_EXHAUSTED 0xffffffffu

struct cpu_agent {
  struct agent agent;
  uint32_t cores;
  struct cpu_core core[CPU_AGENT_MAX_CORES];
  struct lock queues_lock;
  struct queue *queues[CPU_AGENT_MAX_QUEUES];
  uint32_t queue_count;
  _Atomic uint32_t queues_version;    /* bumped on attach/detach */
  _Atomic uint32_t processor_version; /* the version the processor works from */
  struct event doorbell;              /* the processor sleeps here */
  struct event job_event;             /* helpers sleep here */
  _Atomic uint32_t job_generation;
  _Atomic bool stopping;
  _Atomic bool serves_async; /* runs async handlers between packets */
  struct dispatch_job job;
};

static inline struct cpu_agent *cpu_agent_of(struct agent *a) { return a->impl; }

/* Worker entry points (cpu_agent_queue.c), `arg` the worker's cpu_core:
 * core 0 runs the processor, the others help with its dispatches; both
 * return once the agent's `stopping` is set and its events are bumped. */
void cpu_processor_main(void *arg);
void cpu_helper_main(void *arg);

/* Queue hooks (cpu_agent_queue.c). */
hsa_status_t cpu_queue_attach(struct agent *agent, struct queue *q);
void cpu_queue_detach(struct agent *agent, struct queue *q);

/* Name, caches, clock of the agent's cores (cpu_info.c). */
void cpu_describe(struct agent *a);

#endif
