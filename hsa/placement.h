/*
 * placement.h - the placement agent inside the runtime (hsa_ext_placement.h):
 * what agent.c, executable.c and runtime.c ask of hsa/placement.c.
 */
#ifndef HSA_PLACEMENT_H
#define HSA_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include <hsa/hsa.h>

#include "hsa/agent.h"
#include "hsa/placement_model.h"
#include "lib/lock.h"

struct pl_kernel;
struct pl_record;
struct pl_queue;
struct split_record;

/* placement.c's state (rt.placement): the agent, the real agents behind it,
 * the placement kernels, the measurement records and the live placement
 * queues. All zero before hsa_init; placement_fini brings it back there. */
struct placement_state {
  bool ready;
  bool log;
  struct agent agent;
  struct agent *real[PL_MAX_AGENTS];
  uint32_t count;
  struct lock lock; /* kernels, models, records, pending */
  struct pl_kernel *kernels;
  struct pl_record *inflight, *free_records; /* in flight: oldest first */
  struct pl_record **inflight_tail;
  uint32_t record_count;
  struct split_record *splits;
  struct pl_queue *queues; /* live placement queues */
  uint64_t pending_ns[PL_MAX_AGENTS];
  /* How much slower each agent runs while others have work (all kernels):
   * on the host the virtual APU's interpreter and the CPU agents share the
   * cores; on a board the agents share memory bandwidth and power. */
  double slowdown[PL_MAX_AGENTS];
};

/* hsa_init, after every real agent registered: the placement agent stands
 * for them. hsa_shut_down, after the queues and executables went. */
void placement_init(void);
void placement_fini(void);
/* hsa_shut_down, before queues_fini: the placement queues go first, so that
 * none outlives the forward queues it owns. */
void placement_queues_fini(void);

/* The placement agent if `handle` names it (agent_from_handle), else NULL. */
struct agent *placement_agent_from_handle(uint64_t handle);
bool placement_is_agent(const struct agent *agent);
/* The real agents behind it, in registration order. */
uint32_t placement_agent_count(void);
struct agent *placement_agent_at(uint32_t index);

/* A placement kernel named `name` with each real agent's kernel object
 * (0: that agent has none); its handle (the symbol's KERNEL_OBJECT), or 0
 * when memory runs out. Freed by placement_kernel_free (its executable's
 * destruction). */
uint64_t placement_kernel_create(const char *name, const uint64_t objects[PL_MAX_AGENTS]);
void placement_kernel_free(uint64_t kernel_object);

/* hsa_kernarg_fill_hidden for a placement kernel: the part whose hidden
 * arguments to fill (the GPU's if it has one) and the queue to fill them
 * for (a placement queue's forward queue on that agent). False when
 * kernel_object is no placement kernel. */
bool placement_hidden_target(uint64_t kernel_object, const hsa_queue_t *queue, uint64_t *part,
                             const hsa_queue_t **part_queue);

#endif
