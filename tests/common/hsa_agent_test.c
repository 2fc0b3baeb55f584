/*
 * hsa_agent_test.c - agents, caches and ISAs: every attribute a CPU agent
 * reports, the AMD attributes rocminfo reads, and the error paths.
 */
#include <hsa/amd_hsa_signal.h>
#include <string.h>

#include "tests/common/hsa_test_util.h"
#include "lib/util.h"

static hsa_status_t count_agents(hsa_agent_t agent, void *data) {
  (void)agent;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t stop_at_first(hsa_agent_t agent, void *data) {
  (void)agent;
  ++*(int *)data;
  return HSA_STATUS_INFO_BREAK;
}

TEST(hsa_agent_iterate_visits_every_agent_and_stops_on_request) {
  HSA_ASSERT_OK(hsa_init());
  int n = 0;
  HSA_ASSERT_OK(hsa_iterate_agents(count_agents, &n));
  hsa_agent_t cpus[8];
  ASSERT_LE(hsa_test_cpu_agents(cpus, 8), (uint32_t)n); /* skips without agents */
  int visits = 0;
  ASSERT_EQ(hsa_iterate_agents(stop_at_first, &visits), HSA_STATUS_INFO_BREAK);
  ASSERT_EQ(visits, 1);
  ASSERT_EQ(hsa_iterate_agents(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_agent_cpu_attributes) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpus[8];
  uint32_t n = hsa_test_cpu_agents(cpus, 8);
  ASSERT_GE(n, 1);
  for (uint32_t i = 0; i < n; i++) {
    hsa_agent_t a = cpus[i];
    char name[64], vendor[64], product[64];
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_NAME, name));
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_VENDOR_NAME, vendor));
    HSA_ASSERT_OK(
        hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PRODUCT_NAME, product));
    ASSERT_GT(strlen(name), 0);
    ASSERT_LT(strlen(name), 64);
    ASSERT_STR_EQ(vendor, "CPU");
    uint32_t features, cus, wave, wg_max, qmax, qmin, qmaxsize, node, grid_max;
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_FEATURE, &features));
    ASSERT_EQ(features, HSA_AGENT_FEATURE_KERNEL_DISPATCH | HSA_AGENT_FEATURE_AGENT_DISPATCH);
    HSA_ASSERT_OK(
        hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
    ASSERT_GE(cus, 1);
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
    ASSERT_EQ(wave, 1);
    uint16_t dims[3];
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, dims));
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &wg_max));
    ASSERT_GE(wg_max, dims[0]);
    hsa_dim3_t grid;
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_GRID_MAX_DIM, &grid));
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_GRID_MAX_SIZE, &grid_max));
    ASSERT_GE(grid.x, wg_max);
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_QUEUES_MAX, &qmax));
    ASSERT_GE(qmax, 64);
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &qmin));
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmaxsize));
    ASSERT_EQ(qmin & (qmin - 1), 0);
    ASSERT_EQ(qmaxsize & (qmaxsize - 1), 0);
    ASSERT_LE(qmin, qmaxsize);
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_NODE, &node));
    ASSERT_EQ(node, i);
    hsa_device_type_t type;
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type));
    ASSERT_EQ(type, HSA_DEVICE_TYPE_CPU);
    hsa_profile_t profile;
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_PROFILE, &profile));
    ASSERT_EQ(profile, HSA_PROFILE_FULL);
    hsa_isa_t isa = {1};
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_ISA, &isa));
    ASSERT_EQ(isa.handle, 0); /* CPU agents have no ISA (as in ROCr) */
    uint16_t vmaj;
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_VERSION_MAJOR, &vmaj));
    ASSERT_EQ(vmaj, 1);
    uint32_t cache_sizes[4];
    HSA_ASSERT_OK(hsa_agent_get_info(a, HSA_AGENT_INFO_CACHE_SIZE, cache_sizes));
    uint32_t line;
    HSA_ASSERT_OK(
        hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CACHELINE_SIZE, &line));
    ASSERT_EQ(line & (line - 1), 0);
    /* The rest of what rocminfo reads answers too. */
    static const int amd_u32[] = {HSA_AMD_AGENT_INFO_CHIP_ID,
                                  HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY,
                                  HSA_AMD_AGENT_INFO_DRIVER_NODE_ID,
                                  HSA_AMD_AGENT_INFO_BDFID,
                                  HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU,
                                  HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU,
                                  HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES,
                                  HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE,
                                  HSA_AMD_AGENT_INFO_MEMORY_WIDTH,
                                  HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY,
                                  HSA_AMD_AGENT_INFO_ASIC_REVISION,
                                  HSA_AMD_AGENT_INFO_DOMAIN,
                                  HSA_AMD_AGENT_INFO_NUM_XCC,
                                  HSA_AMD_AGENT_INFO_DRIVER_UID};
    for (size_t k = 0; k < countof(amd_u32); k++) {
      uint32_t v;
      HSA_ASSERT_OK(hsa_agent_get_info(a, (hsa_agent_info_t)amd_u32[k], &v));
    }
    char uuid[21];
    HSA_ASSERT_OK(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_UUID, uuid));
    ASSERT_STR_EQ(uuid, "CPU-XX");
    hsa_agent_t nearest;
    HSA_ASSERT_OK(
        hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NEAREST_CPU, &nearest));
    ASSERT_EQ(nearest.handle, cpus[0].handle);
    uint64_t ts_freq;
    HSA_ASSERT_OK(
        hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY, &ts_freq));
    ASSERT_EQ(ts_freq, 1000000000ull);
    ASSERT_EQ(hsa_agent_get_info(a, (hsa_agent_info_t)0x7fff0000, &node),
              HSA_STATUS_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(hsa_agent_get_info(a, HSA_AGENT_INFO_NAME, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  }
  HSA_ASSERT_OK(hsa_shut_down());
}

static hsa_status_t count_any_isa(hsa_isa_t isa, void *data) {
  (void)isa, (void)data;
  return HSA_STATUS_SUCCESS;
}
static hsa_status_t count_any_region(hsa_region_t region, void *data) {
  (void)region, (void)data;
  return HSA_STATUS_SUCCESS;
}
static hsa_status_t count_any_pool(hsa_amd_memory_pool_t pool, void *data) {
  (void)pool, (void)data;
  return HSA_STATUS_SUCCESS;
}

TEST(hsa_agent_bad_handles_are_refused) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t bad = {0x12345678};
  char name[64];
  ASSERT_EQ(hsa_agent_get_info(bad, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_queue_t *q;
  ASSERT_EQ(hsa_queue_create(bad, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_agent_iterate_caches(bad, NULL, NULL), HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_agent_iterate_isas(bad, count_any_isa, NULL), HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_agent_iterate_regions(bad, count_any_region, NULL), HSA_STATUS_ERROR_INVALID_AGENT);
  ASSERT_EQ(hsa_amd_agent_iterate_memory_pools(bad, count_any_pool, NULL),
            HSA_STATUS_ERROR_INVALID_AGENT);
  /* ROCr checks the callback before the agent in these three. */
  ASSERT_EQ(hsa_agent_iterate_isas(bad, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_agent_iterate_regions(bad, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_agent_iterate_memory_pools(bad, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* ROCr does not check consumer handles (only that they differ); a
   * signal whose consumers include no CPU agent waits without an event. */
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(1, 1, &bad, &s));
  ASSERT_EQ(((const amd_signal_t *)(uintptr_t)s.handle)->event_mailbox_ptr, 0);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  hsa_agent_t twice[2] = {bad, bad};
  ASSERT_EQ(hsa_signal_create(1, 2, twice, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  bool result;
  uint16_t minor;
  ASSERT_EQ(hsa_agent_major_extension_supported(HSA_EXTENSION_IMAGES, bad, 1, &minor, &result),
            HSA_STATUS_ERROR_INVALID_AGENT);
  hsa_agent_t cpu;
  ASSERT_EQ(hsa_test_cpu_agents(&cpu, 1), 1);
  HSA_ASSERT_OK(hsa_shut_down());
  /* A handle from before shut down names nothing afterwards. */
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t again;
  ASSERT_EQ(hsa_test_cpu_agents(&again, 1), 1);
  if (again.handle != cpu.handle)
    ASSERT_EQ(hsa_agent_get_info(cpu, HSA_AGENT_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_AGENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

struct cache_walk {
  int count;
  hsa_cache_t first;
};

static hsa_status_t visit_cache(hsa_cache_t cache, void *data) {
  struct cache_walk *w = data;
  if (w->count++ == 0) w->first = cache;
  return HSA_STATUS_SUCCESS;
}

TEST(hsa_agent_caches_match_cache_size_attribute) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  ASSERT_EQ(hsa_test_cpu_agents(&cpu, 1), 1);
  struct cache_walk w = {0, {0}};
  HSA_ASSERT_OK(hsa_agent_iterate_caches(cpu, visit_cache, &w));
  uint32_t sizes[4];
  HSA_ASSERT_OK(hsa_agent_get_info(cpu, HSA_AGENT_INFO_CACHE_SIZE, sizes));
  if (w.count == 0) {
    ASSERT_EQ(sizes[0], 0);
  } else {
    uint32_t len, size;
    uint8_t level;
    char name[64] = {0};
    HSA_ASSERT_OK(hsa_cache_get_info(w.first, HSA_CACHE_INFO_NAME_LENGTH, &len));
    ASSERT_LT(len, sizeof name);
    HSA_ASSERT_OK(hsa_cache_get_info(w.first, HSA_CACHE_INFO_NAME, name));
    ASSERT_EQ(strlen(name), len);
    HSA_ASSERT_OK(hsa_cache_get_info(w.first, HSA_CACHE_INFO_LEVEL, &level));
    HSA_ASSERT_OK(hsa_cache_get_info(w.first, HSA_CACHE_INFO_SIZE, &size));
    ASSERT_GE(level, 1);
    ASSERT_LE(level, 4);
    ASSERT_GE(sizes[level - 1], size);
  }
  hsa_cache_t bad = {0x40};
  uint32_t v;
  ASSERT_EQ(hsa_cache_get_info(bad, HSA_CACHE_INFO_SIZE, &v), HSA_STATUS_ERROR_INVALID_CACHE);
  ASSERT_EQ(hsa_agent_iterate_caches(cpu, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

static hsa_status_t count_isa(hsa_isa_t isa, void *data) {
  (void)isa;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_wavefront(hsa_wavefront_t w, void *data) {
  *(hsa_wavefront_t *)data = w;
  return HSA_STATUS_SUCCESS;
}

TEST(hsa_isa_table_answers_from_name_and_info) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  ASSERT_EQ(hsa_test_cpu_agents(&cpu, 1), 1);
  int n = 0;
  HSA_ASSERT_OK(hsa_agent_iterate_isas(cpu, count_isa, &n));
  ASSERT_EQ(n, 0);
  /* ROCr's registry: the features are part of the name (isa.cpp). */
  hsa_isa_t isa, off, on, renoir;
  HSA_ASSERT_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx902:xnack-", &off));
  HSA_ASSERT_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx902:xnack+", &on));
  HSA_ASSERT_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx90c", &renoir));
  ASSERT_EQ(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx999", &isa),
            HSA_STATUS_ERROR_INVALID_ISA_NAME);
  ASSERT_EQ(hsa_isa_from_name("gfx902", &isa), HSA_STATUS_ERROR_INVALID_ISA_NAME);
  ASSERT_EQ(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx1036:xnack-", &isa),
            HSA_STATUS_ERROR_INVALID_ISA_NAME); /* gfx10.3 has no XNACK */
  ASSERT_EQ(hsa_isa_from_name(NULL, &isa), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx902", &isa));
  ASSERT_NE(isa.handle, off.handle);
  ASSERT_NE(off.handle, on.handle);
  /* Isa::IsCompatible: "any" runs on either state, a pinned state only on itself. */
  bool compatible = false;
  HSA_ASSERT_OK(hsa_isa_compatible(isa, on, &compatible));
  ASSERT_TRUE(compatible);
  HSA_ASSERT_OK(hsa_isa_compatible(isa, off, &compatible));
  ASSERT_TRUE(compatible);
  HSA_ASSERT_OK(hsa_isa_compatible(off, on, &compatible));
  ASSERT_FALSE(compatible);
  HSA_ASSERT_OK(hsa_isa_compatible(on, on, &compatible));
  ASSERT_TRUE(compatible);
  HSA_ASSERT_OK(hsa_isa_compatible(renoir, on, &compatible));
  ASSERT_FALSE(compatible);
  ASSERT_EQ(hsa_isa_compatible(isa, on, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  char full[64];
  HSA_ASSERT_OK(hsa_isa_get_info_alt(on, HSA_ISA_INFO_NAME, full));
  ASSERT_STR_EQ(full, "amdgcn-amd-amdhsa--gfx902:xnack+");
  uint32_t len, wave, waves_per_cu;
  char name[64];
  HSA_ASSERT_OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len));
  HSA_ASSERT_OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name));
  ASSERT_EQ(strlen(name) + 1, len);
  ASSERT_STR_EQ(name, "amdgcn-amd-amdhsa--gfx902");
  HSA_ASSERT_OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, &wave));
  ASSERT_EQ(wave, 64); /* gfx9 is wave64 (AMDGPUUsage) */
  HSA_ASSERT_OK(hsa_isa_get_info_alt(
      isa, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT, &waves_per_cu));
  ASSERT_EQ(waves_per_cu, 40);
  ASSERT_EQ(hsa_isa_get_info(isa, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 1, &wave),
            HSA_STATUS_ERROR_INVALID_INDEX);
  bool models[2];
  HSA_ASSERT_OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_MACHINE_MODELS, models));
  ASSERT_TRUE(models[HSA_MACHINE_MODEL_LARGE]);
  hsa_wavefront_t w = {0};
  HSA_ASSERT_OK(hsa_isa_iterate_wavefronts(isa, first_wavefront, &w));
  uint32_t wsize;
  HSA_ASSERT_OK(hsa_wavefront_get_info(w, HSA_WAVEFRONT_INFO_SIZE, &wsize));
  ASSERT_EQ(wsize, 64);
  hsa_wavefront_t badw = {isa.handle};
  ASSERT_EQ(hsa_wavefront_get_info(badw, HSA_WAVEFRONT_INFO_SIZE, &wsize),
            HSA_STATUS_ERROR_INVALID_WAVEFRONT);
  hsa_isa_t bad = {0x1000};
  ASSERT_EQ(hsa_isa_get_info_alt(bad, HSA_ISA_INFO_NAME_LENGTH, &len),
            HSA_STATUS_ERROR_INVALID_ISA);
  ASSERT_EQ(hsa_isa_get_info_alt(bad, HSA_ISA_INFO_NAME_LENGTH, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* ROCr: the pointer first */
  ASSERT_EQ(hsa_isa_get_info(isa, HSA_ISA_INFO_NAME_LENGTH, 1, &len),
            HSA_STATUS_ERROR_INVALID_INDEX);
  uint64_t grid_max = 0;
  HSA_ASSERT_OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_SIZE, &grid_max));
  ASSERT_EQ(grid_max, UINT64_MAX); /* ROCr writes 64 bits */
  uint16_t policies = 1;
  HSA_ASSERT_OK(hsa_isa_get_exception_policies(isa, HSA_PROFILE_FULL, &policies));
  ASSERT_EQ(policies, 0);
  hsa_round_method_t method;
  HSA_ASSERT_OK(hsa_isa_get_round_method(isa, HSA_FP_TYPE_32, HSA_FLUSH_MODE_FTZ, &method));
  ASSERT_EQ(hsa_isa_get_round_method(isa, (hsa_fp_type_t)3, HSA_FLUSH_MODE_FTZ, &method),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}
