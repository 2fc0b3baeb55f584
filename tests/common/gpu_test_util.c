/* gpu_test_util.c - see gpu_test_util.h. */
#include "tests/common/gpu_test_util.h"

#include <string.h>

#include "lib/plat.h"
#include "lib/test.h"
#include "support/gpu_kernel.h"

hsa_agent_t gpu_test_agent(void) {
  hsa_agent_t gpu;
  if (!gpu_find_agent(&gpu)) {
    if (strcmp(plat_name(), "host") != 0) test_skip("no GPU agent (boot option vapu=<chip> adds one)");
    FAIL("no GPU agent on the host: the driver did not bring up the virtual APU");
  }
  return gpu;
}

static hsa_status_t first_pool(hsa_amd_memory_pool_t pool, void *data) {
  *(hsa_amd_memory_pool_t *)data = pool;
  return HSA_STATUS_INFO_BREAK;
}

hsa_amd_memory_pool_t gpu_test_local_pool(hsa_agent_t gpu) {
  hsa_amd_memory_pool_t pool = {0};
  if (hsa_amd_agent_iterate_memory_pools(gpu, first_pool, &pool) != HSA_STATUS_INFO_BREAK)
    FAIL("the GPU agent lists no memory pool");
  return pool;
}

uint64_t gpu_test_memory_avail(hsa_agent_t gpu) {
  uint64_t avail = 0;
  if (hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MEMORY_AVAIL, &avail) != HSA_STATUS_SUCCESS)
    FAIL("HSA_AMD_AGENT_INFO_MEMORY_AVAIL refused");
  return avail;
}
