/*
 * rocminfo_like.c - prints what ROCm's rocminfo prints, with the same
 * queries (hsa.h and hsa_ext_amd.h only): system attributes, then per agent
 * its HSA and AMD attributes, caches, ISAs and memory pools. Fails if a
 * query rocminfo makes is refused (rocminfo stops at the first one). As
 * rocminfo: the ISA of GPU agents, the dispatch attributes of agents with
 * the kernel dispatch feature, every ISA attribute.
 */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/program.h"

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
  size_t size = 0, granule = 0, rec_granule = 0, alignment = 0, max = 0;
  bool alloc = false, all = false;
  hsa_amd_memory_pool_access_t access;
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
  QUERY(
      hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE,
                                     &rec_granule));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT,
                                     &alignment));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all));
  QUERY(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max));
  QUERY(hsa_amd_agent_memory_pool_get_info(agent, pool, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS,
                                           &access));
  printf(
      "      Segment: %s  Flags:%s%s%s  Size: %zu KB  Alloc: %s  Granule: %zu (rec. %zu)  "
      "Alignment: %zu  Accessible by all: %s  Max: %zu KB  Access: %d\n",
      segment == HSA_AMD_SEGMENT_GLOBAL ? "GLOBAL" : segment == HSA_AMD_SEGMENT_GROUP ? "GROUP" : "other",
      flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT ? " KERNARG" : "",
      flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED ? " FINE GRAINED" : "",
      flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED ? " COARSE GRAINED" : "", size / 1024,
      alloc ? "TRUE" : "FALSE", granule, rec_granule, alignment, all ? "TRUE" : "FALSE", max / 1024,
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
  uint32_t len = 0, wg_max = 0, fbarrier = 0;
  uint64_t grid_max = 0; /* ROCr writes 64 bits here, and rocminfo reads them */
  bool models[2], profiles[2], rounding[3], base_rounding[3], fast_f16;
  uint16_t wg_dim[3];
  hsa_dim3_t grid_dim;
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
  char *name = calloc(1, len + 1);
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_MACHINE_MODELS, models));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_PROFILES, profiles));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, rounding));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES,
                             base_rounding));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_FAST_F16_OPERATION, &fast_f16));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_WORKGROUP_MAX_DIM, wg_dim));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_WORKGROUP_MAX_SIZE, &wg_max));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_DIM, &grid_dim));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_SIZE, &grid_max));
  QUERY(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_FBARRIER_MAX_SIZE, &fbarrier));
  printf("      ISA: %s  Machine Models:%s%s  Profiles:%s%s  Fast f16: %s\n", name,
         models[HSA_MACHINE_MODEL_SMALL] ? " SMALL" : "",
         models[HSA_MACHINE_MODEL_LARGE] ? " LARGE" : "", profiles[HSA_PROFILE_BASE] ? " BASE" : "",
         profiles[HSA_PROFILE_FULL] ? " FULL" : "", fast_f16 ? "TRUE" : "FALSE");
  printf("      Workgroup Max: %u (%u,%u,%u)  Grid Max: %llu (%u,%u,%u)  FBarrier Max: %u\n",
         wg_max, wg_dim[0], wg_dim[1], wg_dim[2], (unsigned long long)grid_max, grid_dim.x,
         grid_dim.y, grid_dim.z, fbarrier);
  free(name);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t print_agent(hsa_agent_t agent, void *data) {
  int *index = data;
  char name[64], vendor[64], product[64], uuid[24] = {0};
  uint32_t node, features, wave = 0, wg_max = 0, grid_max = 0, qmax, qmin, qmaxsize, cus, clock,
                           chip, line, bdf;
  uint32_t waves_per_cu = 0, simds, engines, arrays, caches[4], node_id, asic_rev, watch_points;
  uint32_t fbarrier = 0, ucode = 0, sdma_ucode = 0;
  uint8_t memory_properties[8];
  bool svm_direct, fast_f16 = false;
  hsa_amd_iommu_version_t iommu = HSA_IOMMU_SUPPORT_NONE;
  hsa_isa_t agent_isa = {0};
  uint16_t wg_dim[3] = {0};
  hsa_dim3_t grid_dim = {0};
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
  if (type == HSA_DEVICE_TYPE_GPU) QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_ISA, &agent_isa));
  QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_CACHE_SIZE, caches));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_ASIC_REVISION, &asic_rev));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS,
                           &watch_points));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS,
                           &svm_direct));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES,
                           memory_properties));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CACHELINE_SIZE, &line));
  QUERY(
      hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, &clock));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_BDFID, &bdf));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_DRIVER_NODE_ID, &node_id));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU, &simds));
  QUERY(
      hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, &engines));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE,
                           &arrays));
  QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, &coop));
  if (features & HSA_AGENT_FEATURE_KERNEL_DISPATCH) {
    QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_FAST_F16_OPERATION, &fast_f16));
    QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
    QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &wg_max));
    QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, wg_dim));
    QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_GRID_MAX_DIM, &grid_dim));
    QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_GRID_MAX_SIZE, &grid_max));
    QUERY(hsa_agent_get_info(agent, HSA_AGENT_INFO_FBARRIER_MAX_SIZE, &fbarrier));
    QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU,
                             &waves_per_cu));
    QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UCODE_VERSION, &ucode));
    QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION,
                             &sdma_ucode));
    QUERY(hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_IOMMU_SUPPORT, &iommu));
  }
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
  printf(
      "  Chip ID: %u  ASIC Revision: %u  Cacheline: %u  Max Clock: %u MHz  BDFID: %u  "
      "Compute Units: %u  SIMDs per CU: %u  Shader Engines: %u  Arrays per SE: %u\n",
      chip, asic_rev, line, clock, bdf, cus, simds, engines, arrays);
  printf(
      "  Watch Points: %u  SVM Direct Host Access: %s  APU: %s  Fast f16: %s  Waves per CU: %u"
      "  FBarrier Max: %u  Ucode: %u/%u  IOMMU: %d  Coop. queues: %s  Internal Node ID: %u\n",
      watch_points, svm_direct ? "TRUE" : "FALSE",
      memory_properties[0] & HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU ? "TRUE" : "FALSE",
      fast_f16 ? "TRUE" : "FALSE", waves_per_cu, fbarrier, ucode, sdma_ucode, (int)iommu,
      coop ? "TRUE" : "FALSE", node_id);
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

int main(int argc, char **argv) {
  (void)argc, (void)argv;
  if (hsa_init() != HSA_STATUS_SUCCESS) return fprintf(stderr, "hsa_init failed\n"), 1;
  uint16_t major, minor, ext_major, ext_minor;
  uint64_t ts, freq, max_wait;
  hsa_machine_model_t model;
  hsa_endianness_t endianness;
  bool mwaitx, dmabuf, vmem, xnack;
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &max_wait));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &model));
  QUERY(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED, &mwaitx));
  QUERY(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED, &dmabuf));
  QUERY(hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &endianness));
  QUERY(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR, &ext_major));
  QUERY(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR, &ext_minor));
  QUERY(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED, &vmem));
  QUERY(hsa_system_get_info(HSA_AMD_SYSTEM_INFO_XNACK_ENABLED, &xnack));
  printf(
      "Runtime Version: %u.%u\nSystem Timestamp Freq.: %.3f MHz\nSig. Max Wait Duration: %llu\n"
      "Machine Model: %s\nSystem Endianness: %s\nMwaitx: %s\nXNACK enabled: %s\n"
      "DMAbuf Support: %s\nVMM Support: %s\nAMD Extension Version: %u.%u\n\n",
      major, minor, (double)freq / 1e6, (unsigned long long)max_wait,
      model == HSA_MACHINE_MODEL_LARGE ? "LARGE" : "SMALL",
      endianness == HSA_ENDIANNESS_LITTLE ? "LITTLE" : "BIG", mwaitx ? "ENABLED" : "DISABLED",
      xnack ? "YES" : "NO", dmabuf ? "YES" : "NO", vmem ? "YES" : "NO", ext_major, ext_minor);
  int index = 0;
  QUERY(hsa_iterate_agents(print_agent, &index));
  QUERY(hsa_shut_down());
  if (index == 0) failures++;
  printf("rocminfo_like: %d agents, %d failed queries\n", index, failures);
  return failures ? 1 : 0;
}
