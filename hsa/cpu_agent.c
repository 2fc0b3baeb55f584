/*
 * cpu_agent.c - CPU agents: cores that run AQL packets. Creation,
 * attributes and shut-down; the packet processor is cpu_agent_queue.c.
 *
 * Each CPU agent owns `cores` platform workers (image: cores other than
 * the one running main(); host: threads): core 0 is the packet processor,
 * the others help with its kernel dispatches.
 *
 * Configuration (boot options / HSAR_OPTIONS): cpu_agents=N agents,
 * cpu_agent_cores=M cores each. Defaults: host 2 agents x 2 cores; image
 * the worker slots the platform offers (every core but main()'s), split
 * into up to 2 agents; none when there is no spare core.
 */
#define LOG_TAG "cpu-agent"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/cpu_agent.h"
#include "hsa/memory.h"
#include "lib/plat.h"

PLAT_OPTION(cpu_agents, "cpu_agents",
            "N: number of CPU agents (default: up to 2, on the free cores other than main()'s)");
PLAT_OPTION(cpu_agent_cores, "cpu_agent_cores",
            "M: cores per CPU agent (default: the free cores split between the agents)");

static hsa_status_t cpu_get_info(const struct agent *agent, int attribute, void *value) {
  (void)agent;
  switch (attribute) {
    case HSA_AMD_AGENT_INFO_CHIP_ID:
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
    case HSA_AMD_AGENT_INFO_BDFID:
    case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
    case HSA_AMD_AGENT_INFO_DOMAIN:
    case HSA_AMD_AGENT_INFO_ASIC_REVISION:
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
    case HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID:
    case HSA_AMD_AGENT_INFO_UCODE_VERSION:
    case HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION:
    case HSA_AMD_AGENT_INFO_NUM_SDMA_ENG:
    case HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG:
    case HSA_AMD_AGENT_INFO_NUM_XCC:
    case HSA_AMD_AGENT_INFO_DRIVER_UID:
      *(uint32_t *)value = 0;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
      *(bool *)value = attribute != HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_UUID:
      memcpy(value, "CPU-XX", 7);
      return HSA_STATUS_SUCCESS; /* ROCr's CPU UUID */
    case HSA_AMD_AGENT_INFO_IOMMU_SUPPORT:
      *(hsa_amd_iommu_version_t *)value = HSA_IOMMU_SUPPORT_NONE;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_HDP_FLUSH:
      memset(value, 0, sizeof(hsa_amd_hdp_flush_t));
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES:
    case HSA_AMD_AGENT_INFO_AQL_EXTENSIONS:
      memset(value, 0, 8);
      return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

static void cpu_shut_down(struct agent *agent) {
  struct cpu_agent *ca = cpu_agent_of(agent);
  atomic_store(&ca->stopping, true);
  /* Bump the events' sequence so sleepers and those about to sleep return. */
  atomic_fetch_add(&ca->doorbell.seq, 1);
  atomic_fetch_add(&ca->job_event.seq, 1);
  plat_wake((const volatile uint32_t *)&ca->doorbell.seq);
  plat_wake((const volatile uint32_t *)&ca->job_event.seq);
  for (uint32_t i = 0; i < ca->cores; i++) {
    if (ca->core[i].worker_id >= 0) plat_worker_join(ca->core[i].worker_id);
    free(ca->core[i].group_segment);
  }
  free(ca);
}

static const struct agent_ops cpu_agent_ops = {
    .queue_attach = cpu_queue_attach,
    .queue_detach = cpu_queue_detach,
    .get_info = cpu_get_info,
    .shut_down = cpu_shut_down,
};

/* ---- Creation ------------------------------------------------------------------- */

/* Starts up to `cores` workers for a new CPU agent and registers it.
 * With `exact`, fewer is an error; otherwise the agent keeps the cores it
 * got (another worker, such as the virtual APU's, may hold some) and
 * *started == 0 means no core was free. */
static hsa_status_t cpu_agent_create(uint32_t cores, bool exact, uint32_t *started) {
  *started = 0;
  struct cpu_agent *ca = calloc(1, sizeof *ca);
  if (!ca) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  struct agent *a = &ca->agent;
  a->ops = &cpu_agent_ops;
  a->impl = ca;
  a->device_type = HSA_DEVICE_TYPE_CPU;
  a->features = HSA_AGENT_FEATURE_KERNEL_DISPATCH | HSA_AGENT_FEATURE_AGENT_DISPATCH;
  a->profile = HSA_PROFILE_FULL;
  a->wavefront_size = 1;
  a->workgroup_max_dim[0] = a->workgroup_max_dim[1] = a->workgroup_max_dim[2] = 1024;
  a->workgroup_max_size = 1024;
  a->grid_max_dim = (hsa_dim3_t){UINT32_MAX, UINT32_MAX, UINT32_MAX};
  a->grid_max_size = UINT32_MAX;
  a->queues_max = CPU_AGENT_MAX_QUEUES;
  a->queue_min_size = 64;
  a->queue_max_size = 1u << 17;
  a->pools[a->pool_count++] = memory_pool(MEMORY_POOL_SYSTEM);
  a->pools[a->pool_count++] = memory_pool(MEMORY_POOL_SYSTEM_COARSE);
  cpu_describe(a);
  ca->cores = cores; /* no packet can arrive before registration */
  for (uint32_t i = 0; i < CPU_AGENT_MAX_CORES; i++) ca->core[i].worker_id = -1;
  uint32_t n = 0;
  for (; n < cores; n++) {
    struct cpu_core *c = &ca->core[n];
    c->agent = ca;
    c->index = n;
    c->group_segment = runtime_alloc_aligned(CPU_GROUP_SEGMENT_BYTES, 64);
    char name[16];
    snprintf(name, sizeof name, "cpu%u.%u", agent_count(), n);
    c->worker_id =
        c->group_segment ? plat_worker_start(name, n == 0 ? cpu_processor_main : cpu_helper_main, c) : -1;
    if (c->worker_id < 0) break;
  }
  ca->cores = n;
  a->compute_units = n;
  if (n < cores && (exact || n == 0)) {
    if (exact) log_error("CPU agent %u: started %u of %u workers", agent_count(), n, cores);
    cpu_shut_down(a);
    return exact ? HSA_STATUS_ERROR_OUT_OF_RESOURCES : HSA_STATUS_SUCCESS;
  }
  hsa_status_t st = agent_register(a);
  if (st != HSA_STATUS_SUCCESS) {
    cpu_shut_down(a);
    return st;
  }
  if (!memory_pool(MEMORY_POOL_SYSTEM)->owner) {
    memory_pool(MEMORY_POOL_SYSTEM)->owner = a;
    memory_pool(MEMORY_POOL_SYSTEM_COARSE)->owner = a;
  }
  if (n < cores)
    log_info("CPU agent %u: %u of %u cores (the others run other workers)", a->node, n, cores);
  *started = n;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t cpu_agents_create(void) {
  int slots = plat_worker_slots();
  bool host = strcmp(plat_name(), "host") == 0;
  if (!host && slots <= 0) {
    /* One core, running main(): nothing left to run AQL on. */
    log_info("no spare core: no CPU agent");
    return HSA_STATUS_SUCCESS;
  }
  /* The host runs threads, so tests get two agents of two cores even on a
   * small machine; the image splits its spare cores over up to two agents,
   * the first ones getting the remainder. */
  unsigned agents = (unsigned)plat_option_uint("cpu_agents", 1, CPU_AGENT_MAX_CORES, host ? 2 : (slots >= 2 ? 2 : 1));
  unsigned cores_option = (unsigned)plat_option_uint("cpu_agent_cores", 1, CPU_AGENT_MAX_CORES, host ? 2 : 0);
  if (!host && agents > (unsigned)slots) agents = (unsigned)slots;
  unsigned used = 0;
  for (unsigned i = 0; i < agents; i++) {
    unsigned cores =
        cores_option ? cores_option : (unsigned)slots / agents + (i < (unsigned)slots % agents);
    if (!host && used + cores > (unsigned)slots) {
      log_error("CPU agents need more than the %d spare cores (cpu_agents=%u cpu_agent_cores=%u)",
                slots, agents, cores);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
    /* Options make the numbers exact; the image's default takes what is free. */
    bool exact = host || plat_option("cpu_agents") || plat_option("cpu_agent_cores");
    uint32_t started;
    hsa_status_t st = cpu_agent_create(cores, exact, &started);
    if (st != HSA_STATUS_SUCCESS) return st;
    if (started == 0) break; /* every spare core is busy (e.g. the virtual APU) */
    used += started;
  }
  if (used == 0) log_info("no free core: no CPU agent");
  return HSA_STATUS_SUCCESS;
}
