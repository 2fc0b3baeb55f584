/*
 * agent.h - agents inside the runtime, and the seam a new kind of agent
 * plugs into.
 *
 * An agent is a struct agent (its address is the hsa_agent_t handle) with
 * a small ops table. Three kinds exist:
 *   - CPU agents (hsa/cpu_agent.c): cores that run AQL packets.
 *   - GPU agents (hsa/gpu_agent*.c): drivers/amdgpu's narrow interface
 *     gives them hardware queues, doorbells and ISA facts.
 *   - the placement agent (hsa/placement.c, hsa_ext_placement.h): stands
 *     for the CPU and GPU agents and forwards each packet of its queues to
 *     one of them. It is not in the agent list (hsa_iterate_agents), but
 *     agent_from_handle finds it.
 *
 * What an implementation provides (struct agent_ops):
 *   queue_attach  - called by hsa_queue_create once the runtime has built the
 *                   queue (amd_queue_t, ring of INVALID packets, doorbell
 *                   signal of kind AMD_SIGNAL_KIND_DOORBELL). The agent makes
 *                   the doorbell reach its packet processor: it sets
 *                   q->doorbell->amd.hardware_doorbell_ptr (GPU: the doorbell
 *                   slot in BAR2 or the model's page; CPU: a word of its own)
 *                   and optionally q->doorbell->ring, called after each store.
 *                   From then on its packet processor reads packets from
 *                   read_dispatch_id up to write_dispatch_id, advances
 *                   read_dispatch_id, and on a malformed packet calls
 *                   queue_report_error(q, status) and stops that queue.
 *   queue_detach  - hsa_queue_destroy/inactivate: when it returns, the
 *                   processor no longer reads the queue or its packets. It
 *                   may come twice, and for a queue in QUEUE_ERROR (maybe
 *                   from its error callback, on the processor's own core):
 *                   then the processor has dropped it; do not wait.
 *   queue_update  - (optional) hsa_amd_queue_cu_set_mask/_set_priority
 *                   changed q->cu_mask or q->priority: packets the
 *                   processor has not started yet run with them. NULL: the
 *                   processor reads the fields itself.
 *   get_info      - the attributes that differ between kinds (see
 *                   agent_get_info in agent.c for what the common code
 *                   answers from struct agent's fields); returns
 *                   HSA_STATUS_ERROR_INVALID_ARGUMENT for an unknown one.
 *   shut_down     - hsa_shut_down: stop workers and free what it owns.
 *
 * The common code (agent.c) fills the HSA attributes from the fields below,
 * so an implementation mostly sets fields and provides the queue hooks.
 * An agent registers with agent_register() during hsa_init.
 */
#ifndef HSA_AGENT_H
#define HSA_AGENT_H

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

struct agent;
struct queue;
struct memory_pool;
struct isa;

#define AGENT_MAX_CACHES 4
#define AGENT_MAX_POOLS 4

struct cache_info {
  char name[32];
  uint8_t level;
  uint32_t size; /* bytes */
};

struct agent_ops {
  hsa_status_t (*queue_attach)(struct agent *agent, struct queue *q);
  void (*queue_detach)(struct agent *agent, struct queue *q);
  hsa_status_t (*queue_update)(struct agent *agent, struct queue *q);
  hsa_status_t (*get_info)(const struct agent *agent, int attribute, void *value);
  void (*shut_down)(struct agent *agent);
};

struct agent {
  const struct agent_ops *ops;
  hsa_device_type_t device_type;
  uint32_t node;          /* HSA_AGENT_INFO_NODE, also the driver node id */
  char name[64];          /* HSA_AGENT_INFO_NAME */
  char vendor_name[64];
  char product_name[64];
  uint32_t features;      /* hsa_agent_feature_t bits */
  hsa_profile_t profile;
  uint32_t compute_units; /* CPU: cores serving it */
  uint32_t max_clock_mhz;
  uint32_t cacheline_size;
  uint32_t wavefront_size;
  uint16_t workgroup_max_dim[3];
  uint32_t workgroup_max_size;
  hsa_dim3_t grid_max_dim;
  uint32_t grid_max_size;
  uint32_t queues_max;
  uint32_t queue_min_size; /* packets, power of two */
  uint32_t queue_max_size;
  const struct isa *isa;   /* NULL: no ISA (CPU agents, as in ROCr) */
  struct cache_info caches[AGENT_MAX_CACHES];
  uint32_t cache_count;
  struct memory_pool *pools[AGENT_MAX_POOLS]; /* the pools it owns, in report order */
  uint32_t pool_count;
  uint32_t queue_count;    /* queues attached now (under rt.lock) */
  void *impl;              /* the implementation's own state */
};

/* The agent behind a handle, or NULL if the handle names no agent. */
struct agent *agent_from_handle(hsa_agent_t handle);
static inline hsa_agent_t agent_handle(const struct agent *a) {
  hsa_agent_t h = {(uint64_t)(uintptr_t)a};
  return h;
}

/* hsa_init registers agents in order; agent_register fails when full. */
hsa_status_t agent_register(struct agent *agent);
uint32_t agent_count(void);
struct agent *agent_at(uint32_t index);

/* The ISA name a code object must match for this agent, e.g.
 * "amdgcn-amd-amdhsa--gfx902:xnack-", or NULL for an agent without one. */
const char *agent_isa_name(const struct agent *agent);

/* CPU agents: creates them on the cores the platform offers (hsa_init). */
hsa_status_t cpu_agents_create(void);
/* Makes the first CPU agent's processor run async handlers between
 * packets (no core free for their worker); false without a CPU agent. */
bool cpu_agent_serve_async_work(void);
/* Wakes that processor: async work was queued. */
void cpu_agent_kick_async_server(void);
/* GPU agents (hsa/gpu_agent.c): gpu_driver_start brings up the devices
 * drivers/amdgpu finds (before the CPU agents: the virtual APU needs a core
 * of its own), gpu_agents_create registers one agent per device,
 * gpu_driver_stop stops them after every agent shut down. */
hsa_status_t gpu_driver_start(void);
hsa_status_t gpu_agents_create(void);
void gpu_driver_stop(void);
/* Called by signal waiters as they wake: stops GPU queues whose dispatch
 * overran its time limit (hsa_queue_time_limit.h). */
void gpu_agents_watchdog(uint64_t now_ns);
/* Called by the async worker when a GPU driver asked for a scheduling pass
 * (async_tick_at): runs it for every GPU agent. */
void gpu_agents_tick(uint64_t now_ns);

#endif
