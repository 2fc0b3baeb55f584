/* amdgpu_probe_host.c - the host library's GPU: always the virtual APU,
 * chip from HSAR_OPTIONS="vapu=<chip>" (default raven). */
#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"

PLAT_OPTION(vapu, "vapu", "raven|picasso|raven2|renoir: the virtual APU's chip (default raven)");

int amdgpu_platform_probe(void) {
  const char *name = plat_option("vapu");
  return amdgpu_vapu_add(name && *name ? name : "raven");
}
