/* gpu_test_util.c - see gpu_test_util.h. */
#include "tests/common/gpu_test_util.h"

#include <string.h>

#include "lib/plat.h"
#include "lib/test.h"

static hsa_status_t find_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (type != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;
  *(hsa_agent_t *)data = agent;
  return HSA_STATUS_INFO_BREAK;
}

hsa_agent_t gpu_test_agent(void) {
  hsa_agent_t gpu = {0};
  hsa_status_t st = hsa_iterate_agents(find_gpu, &gpu);
  if (st != HSA_STATUS_SUCCESS && st != HSA_STATUS_INFO_BREAK)
    test_fail(__FILE__, __LINE__, "hsa_iterate_agents: %d", st);
  if (!gpu.handle) {
    if (strcmp(plat_name(), "host") != 0) test_skip("no GPU agent (boot option vapu=<chip> adds one)");
    test_fail(__FILE__, __LINE__, "no GPU agent on the host: the driver did not bring up the virtual APU");
  }
  return gpu;
}
