/* amdgpu_probe_host.c - the host library's GPU: always the virtual APU,
 * chip from HSAR_OPTIONS="vapu=<chip>" (default raven). */
#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"

int amdgpu_platform_probe(void) {
  const char *name = plat_option("vapu");
  return amdgpu_vapu_add(name && *name ? name : "raven");
}
