/* gpu_test_util.c - see gpu_test_util.h. */
#include "tests/common/gpu_test_util.h"

#include <string.h>

#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/gpu_kernel.h"

hsa_agent_t gpu_test_agent(void) {
  hsa_agent_t gpu;
  if (!gpu_find_agent(&gpu)) {
    if (strcmp(plat_name(), "host") != 0) test_skip("no GPU agent (boot option vapu=<chip> adds one)");
    test_fail(__FILE__, __LINE__, "no GPU agent on the host: the driver did not bring up the virtual APU");
  }
  return gpu;
}
