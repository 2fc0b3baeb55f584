/*
 * rocminfo_like.c - prints what ROCm's rocminfo prints, with the same
 * queries (hsa.h and hsa_ext_amd.h only): system attributes, then per agent
 * its HSA and AMD attributes, caches, ISAs and memory pools. Fails if a
 * query rocminfo makes is refused.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

#define QUERY(call)                                                     \
  do {                                                                  \
    hsa_status_t st_ = (call);                                          \
    if (st_ != HSA_STATUS_SUCCESS) {                                    \
      fprintf(stderr, "rocminfo_like: %s failed (0x%x)\n", #call, st_); \
      failures++;                                                       \
    }                                                                   \
  } while (0)

static hsa_status_t print_pool(hsa_amd_memory_pool_t pool, void *data) {
  hsa_agent_t agent = *(hsa_agent_t *)data;
  hsa_amd_segment_t segment;
  uint32_t flags = 0;
  size_t size = 0, granule = 0, alignment = 0, max = 0;
  bool alloc = false, all = false;
  hsa_amd_memory_pool_access_t access;
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
  QUERY(
      hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT,
                                     &alignment));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max));
  QUERY(hsa_amd_agent_memory_pool_get_info(agent, pool, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS,
                                           &access));
  printf(
      "      Segment: %s  Flags:%s%s%s  Size: %zu KB  Alloc: %s  Granule: %zu  Alignment: %zu  "
      "Accessible by all: %s  Max: %zu KB  Access: %d\n",
      segment == HSA_AMD_SEGMENT_GLOBAL ? "GLOBAL" : "other",
      flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT ? " KERNARG" : "",
      flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED ? " FINE GRAINED" : "",
      flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED ? " COARSE GRAINED" : "", size / 1024,
      alloc ? "TRUE" : "FALSE", granule, alignment, all ? "TRUE" : "FALSE", max / 1024,
      (int)access);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t print_cache(hsa_cache_t cache, void *data) {
  (void)data;
  uint32_t len = 0, size = 0;
  uint8_t level = 0;
  char name[64] = {0};
  QUERY(hsa_cache_get_info(cache, HSA_CACHE_INFO_NAME_LENGTH, &len));
  if (len < sizeof name) QUERY(hsa_cache_get_info(cache, HSA_CACHE_INFO_NAME, name));
  QUERY(hsa_cache_get_info(cache, HSA_CACHE_INFO_LEVEL, &level));
  QUERY(hsa_cache_get_info(cache, HSA_CACHE_INFO_SIZE, &size));
  printf("      %s (L%u): %u KB\n", name, level, size / 1024);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t print_isa(hsa_isa_t isa, void *data) {
  (void)data;
  uint32_t len = 0;
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
  char *name = calloc(1, len + 1);
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name));
  printf("      ISA: %s\n", name);
  free(name);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t print_agent(hsa_agent_t agent, void *data) {
  int *index = data;
  char name[64], vendor[64], product[64], uuid[24] = {0};
  uint32_t node, features, wave, wg_max, grid_max, qmax, qmin, qmaxsize, cus, clock, chip, line,
      bdf;
  uint32_t waves_per_cu, simds, engines, arrays, caches[4], node_id;
  uint16_t wg_dim[3];
  hsa_dim3_t grid_dim;
  hsa_device_type_t type;
  hsa_profile_t profile;
  hsa_default_float_rounding_mode_t rounding;
  hsa_queue_type32_t qtype;
  bool coop;
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, name));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID, uuid));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_VENDOR_NAME, vendor));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_FEATURE, &features));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_PROFILE, &profile));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE, &rounding));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUES_MAX, &qmax));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &qmin));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmaxsize));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUE_TYPE, &qtype));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_NODE, &node));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_CACHE_SIZE, caches));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CACHELINE_SIZE, &line));
  QUERY(
      hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, &clock));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &bdf));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_DRIVER_NODE_ID, &node_id));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU,
                           &waves_per_cu));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU, &simds));
  QUERY(
      hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, &engines));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE,
                           &arrays));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, &coop));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, wg_dim));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &wg_max));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_GRID_MAX_DIM, &grid_dim));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_GRID_MAX_SIZE, &grid_max));
  printf("Agent %d\n  Name: %s\n  Uuid: %s\n  Marketing Name: %s\n  Vendor Name: %s\n", ++*index,
         name, uuid, product, vendor);
  printf("  Feature: %s%s\n  Profile: %s\n  Queue Min/Max Size: %u/%u  Queues Max: %u\n",
         features & HSA_AGENT_FEATURE_KERNEL_DISPATCH ? "KERNEL_DISPATCH " : "",
         features & HSA_AGENT_FEATURE_AGENT_DISPATCH ? "AGENT_DISPATCH" : "",
         profile == HSA_PROFILE_FULL ? "FULL_PROFILE" : "BASE_PROFILE", qmin, qmaxsize, qmax);
  printf("  Node: %u  Device Type: %s  Cache: L1 %u KB L2 %u KB L3 %u KB\n", node,
         type == HSA_DEVICE_TYPE_CPU   ? "CPU"
         : type == HSA_DEVICE_TYPE_GPU ? "GPU"
                                       : "other",
         caches[0] / 1024, caches[1] / 1024, caches[2] / 1024);
  printf("  Chip ID: %u  Cacheline: %u  Max Clock: %u MHz  BDFID: %u  Compute Units: %u\n", chip,
         line, clock, bdf, cus);
  printf("  Wavefront: %u  Workgroup Max: %u (%u,%u,%u)  Grid Max: %u (%u,%u,%u)\n", wave, wg_max,
         wg_dim[0], wg_dim[1], wg_dim[2], grid_max, grid_dim.x, grid_dim.y, grid_dim.z);
  printf("    Caches:\n");
  QUERY(hsa_agent_iterate_caches(agent, print_cache, NULL));
  printf("    ISAs:\n");
  QUERY(hsa_agent_iterate_isas(agent, print_isa, NULL));
  printf("    Pools:\n");
  QUERY(hsa_amd_agent_iterate_memory_pools(agent, print_pool, &agent));
  return HSA_STATUS_SUCCESS;
}

int main(void) {
  if (hsa_init() != HSA_STATUS_SUCCESS) return fprintf(stderr, "hsa_init failed\n"), 1;
  uint16_t major, minor;
  uint64_t ts, freq, max_wait;
  hsa_machine_model_t model;
  bool mwaitx, dmabuf;
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &max_wait));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &model));
  QUERY(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED, &mwaitx));
  QUERY(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED, &dmabuf));
  printf(
      "Runtime Version: %u.%u\nSystem Timestamp Freq.: %.3f MHz\nSig. Max Wait Duration: %llu\n"
      "Machine Model: %s\nMwaitx: %s\nDMAbuf Support: %s\n\n",
      major, minor, (double)freq / 1e6, (unsigned long long)max_wait,
      model == HSA_MACHINE_MODEL_LARGE ? "LARGE" : "SMALL", mwaitx ? "ENABLED" : "DISABLED",
      dmabuf ? "YES" : "NO");
  int index = 0;
  QUERY(hsa_iterate_agents(print_agent, &index));
  QUERY(hsa_shut_down());
  if (index == 0) failures++;
  printf("rocminfo_like: %d agents, %d failed queries\n", index, failures);
  return failures ? 1 : 0;
}
