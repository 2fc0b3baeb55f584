/*
 * agent.c - the agent list and the agent, cache and ISA queries every kind
 * of agent shares (HSA Runtime PRM 1.2, 2.2; AMD attributes from ROCr's
 * hsa_ext_amd.h). Attributes that differ by kind go to agent->ops->get_info.
 */
#define LOG_TAG "agent"
#include "hsa/agent.h"

#include <string.h>

#include "hsa/isa.h"
#include "hsa/memory.h"
#include "hsa/placement.h"
#include "hsa/runtime.h"
#include "lib/plat.h"

hsa_status_t agent_register(struct agent *agent) {
  lock_acquire(&rt.lock);
  hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (rt.agent_count < RUNTIME_MAX_AGENTS) {
    agent->node = rt.agent_count;
    rt.agents[rt.agent_count++] = agent;
    st = HSA_STATUS_SUCCESS;
  }
  lock_release(&rt.lock);
  if (st != HSA_STATUS_SUCCESS) log_error("too many agents (max %d)", RUNTIME_MAX_AGENTS);
  return st;
}

uint32_t agent_count(void) { return rt.agent_count; }
struct agent *agent_at(uint32_t index) {
  return index < rt.agent_count ? rt.agents[index] : NULL;
}

struct agent *agent_from_handle(hsa_agent_t handle) {
  if (!runtime_initialized()) return NULL;
  for (uint32_t i = 0; i < rt.agent_count; i++)
    if (handle.handle == (uint64_t)(uintptr_t)rt.agents[i]) return rt.agents[i];
  return placement_agent_from_handle(handle.handle); /* not listed, but an agent */
}

const char *agent_isa_name(const struct agent *agent) {
  return agent->isa ? agent->isa->name : NULL;
}

hsa_status_t hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void *data),
                                void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < rt.agent_count; i++) {
    hsa_status_t st = callback(agent_handle(rt.agents[i]), data);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}

static void copy_name(void *value, const char *name) {
  /* Name attributes are char[64], NUL-padded. */
  size_t len = strnlen(name, 63);
  memset(value, 0, 64);
  memcpy(value, name, len);
}

hsa_status_t hsa_agent_get_info(hsa_agent_t handle, hsa_agent_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: the pointer first */
  struct agent *a = agent_from_handle(handle);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  switch ((int)attribute) {
    case HSA_AGENT_INFO_NAME:
      copy_name(value, a->name);
      break;
    case HSA_AGENT_INFO_VENDOR_NAME:
      copy_name(value, a->vendor_name);
      break;
    case HSA_AGENT_INFO_FEATURE:
      *(hsa_agent_feature_t *)value = (hsa_agent_feature_t)a->features;
      break;
    case HSA_AGENT_INFO_MACHINE_MODEL:
      *(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
      break;
    case HSA_AGENT_INFO_PROFILE:
      *(hsa_profile_t *)value = a->profile;
      break;
    case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      *(hsa_default_float_rounding_mode_t *)value = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
      break;
    case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      *(hsa_default_float_rounding_mode_t *)value = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
      break;
    case HSA_AGENT_INFO_FAST_F16_OPERATION:
      *(bool *)value = a->isa && a->isa->fast_f16;
      break;
    case HSA_AGENT_INFO_WAVEFRONT_SIZE:
      *(uint32_t *)value = a->wavefront_size;
      break;
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM:
      memcpy(value, a->workgroup_max_dim, sizeof a->workgroup_max_dim);
      break;
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
      *(uint32_t *)value = a->workgroup_max_size;
      break;
    case HSA_AGENT_INFO_GRID_MAX_DIM:
      *(hsa_dim3_t *)value = a->grid_max_dim;
      break;
    case HSA_AGENT_INFO_GRID_MAX_SIZE:
      *(uint32_t *)value = a->grid_max_size;
      break;
    case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
      *(uint32_t *)value = a->isa ? 32 : 0;
      break;
    case HSA_AGENT_INFO_QUEUES_MAX:
      *(uint32_t *)value = a->queues_max;
      break;
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
      *(uint32_t *)value = a->queue_min_size;
      break;
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
      *(uint32_t *)value = a->queue_max_size;
      break;
    case HSA_AGENT_INFO_QUEUE_TYPE:
      *(hsa_queue_type32_t *)value = HSA_QUEUE_TYPE_MULTI;
      break;
    case HSA_AGENT_INFO_NODE:
      *(uint32_t *)value = a->node;
      break;
    case HSA_AGENT_INFO_DEVICE:
      *(hsa_device_type_t *)value = a->device_type;
      break;
    case HSA_AGENT_INFO_CACHE_SIZE: { /* uint32_t[4]: L1..L4 in bytes (0: none) */
      uint32_t *sizes = value;
      memset(sizes, 0, 4 * sizeof *sizes);
      for (uint32_t i = 0; i < a->cache_count; i++)
        if (a->caches[i].level >= 1 && a->caches[i].level <= 4)
          sizes[a->caches[i].level - 1] += a->caches[i].size;
      break;
    }
    case HSA_AGENT_INFO_ISA:
      *(hsa_isa_t *)value = isa_handle(a->isa);
      break;
    case HSA_AGENT_INFO_EXTENSIONS:
      memset(value, 0, 128);
      break;
    case HSA_AGENT_INFO_VERSION_MAJOR:
      *(uint16_t *)value = 1;
      break;
    case HSA_AGENT_INFO_VERSION_MINOR:
      *(uint16_t *)value = 2;
      break;
    case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
      *(uint32_t *)value = a->cacheline_size;
      break;
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
      *(uint32_t *)value = a->compute_units;
      break;
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
      *(uint32_t *)value = a->max_clock_mhz;
      break;
    case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
      *(uint32_t *)value = a->node;
      break;
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
      copy_name(value, a->product_name);
      break;
    case HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY:
      *(uint64_t *)value = RUNTIME_TIMESTAMP_FREQUENCY_HZ;
      break;
    case HSA_AMD_AGENT_INFO_MEMORY_AVAIL:
      /* What the agent's first pool (its local memory) can still give. */
      *(uint64_t *)value = a->pool_count ? memory_pool_available(a->pools[0]) : 0;
      break;
    case HSA_AMD_AGENT_INFO_NEAREST_CPU: {
      /* The first CPU agent: every agent shares the one memory. */
      hsa_agent_t cpu = {0};
      for (uint32_t i = 0; i < rt.agent_count; i++)
        if (rt.agents[i]->device_type == HSA_DEVICE_TYPE_CPU) {
          cpu = agent_handle(rt.agents[i]);
          break;
        }
      *(hsa_agent_t *)value = cpu;
      break;
    }
    case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
      memset(value, 0, 3 * sizeof(size_t)); /* no image support (hsa_ext_image.h) */
      break;
    case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
    case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
    case HSA_EXT_AGENT_INFO_IMAGE_LINEAR_ROW_PITCH_ALIGNMENT:
      *(uint32_t *)value = 0;
      break;
    default:
      return a->ops->get_info(a, attribute, value);
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_get_exception_policies(hsa_agent_t agent, hsa_profile_t profile,
                                              uint16_t *mask) {
  RETURN_IF_NOT_INITIALIZED();
  if (!mask || (unsigned)profile > HSA_PROFILE_FULL) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  *mask = 0; /* no exception policy is supported (ROCr answers the same) */
  return HSA_STATUS_SUCCESS;
}

/* ROCr checks the extension number's range and the result pointer before
 * the agent (hsa.cpp). No extension is offered per agent: the AMD loader
 * extension is the system's (hsa_system_major_extension_supported). */
hsa_status_t hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent,
                                           uint16_t version_major, uint16_t version_minor,
                                           bool *result) {
  RETURN_IF_NOT_INITIALIZED();
  if (!extension_in_range(extension) || !result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;
  if (!agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  (void)version_major;
  (void)version_minor;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_major_extension_supported(uint16_t extension, hsa_agent_t agent,
                                                 uint16_t version_major, uint16_t *version_minor,
                                                 bool *result) {
  RETURN_IF_NOT_INITIALIZED();
  if (!extension_in_range(extension) || !result || !version_minor)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;
  if (!agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  (void)version_major;
  *version_minor = 0;
  return HSA_STATUS_SUCCESS;
}

/* ---- Caches: a handle is the address of a struct cache_info of an agent --- */

static const struct cache_info *cache_from_handle(hsa_cache_t handle) {
  for (uint32_t i = 0; i < rt.agent_count; i++)
    for (uint32_t c = 0; c < rt.agents[i]->cache_count; c++)
      if (handle.handle == (uint64_t)(uintptr_t)&rt.agents[i]->caches[c])
        return &rt.agents[i]->caches[c];
  return NULL;
}

hsa_status_t hsa_agent_iterate_caches(hsa_agent_t agent,
                                      hsa_status_t (*callback)(hsa_cache_t cache, void *data),
                                      void *data) {
  RETURN_IF_NOT_INITIALIZED();
  struct agent *a = agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t c = 0; c < a->cache_count; c++) {
    hsa_cache_t h = {(uint64_t)(uintptr_t)&a->caches[c]};
    hsa_status_t st = callback(h, data);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_cache_get_info(hsa_cache_t cache, hsa_cache_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  const struct cache_info *c = cache_from_handle(cache);
  if (!c) return HSA_STATUS_ERROR_INVALID_CACHE;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_CACHE_INFO_NAME_LENGTH:
      *(uint32_t *)value = (uint32_t)strlen(c->name);
      break;
    case HSA_CACHE_INFO_NAME:
      memcpy(value, c->name, strlen(c->name));
      break;
    case HSA_CACHE_INFO_LEVEL:
      *(uint8_t *)value = c->level;
      break;
    case HSA_CACHE_INFO_SIZE:
      *(uint32_t *)value = c->size;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent,
                                    hsa_status_t (*callback)(hsa_isa_t isa, void *data),
                                    void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: the callback first */
  struct agent *a = agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  return a->isa ? callback(isa_handle(a->isa), data) : HSA_STATUS_SUCCESS;
}
