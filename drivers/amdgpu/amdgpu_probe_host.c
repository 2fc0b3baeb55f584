/* amdgpu_probe_host.c - the host library's GPU: always the virtual APU,
 * chip from HSAR_OPTIONS="vapu=<chip>" (default raven). */
#define LOG_TAG "amdgpu"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"

int amdgpu_platform_probe(void) {
  const char *name = plat_option("vapu");
  if (!name || !*name) name = "raven";
  int chip = vapu_chip_by_name(name);
  if (chip < 0) {
    log_error("vapu=%s: unknown chip (raven, picasso, raven2, renoir)", name);
    return -EINVAL;
  }
  struct vapu_config config = {.chip = (enum vapu_chip_id)chip};
  struct amdgpu_device *dev;
  int r = amdgpu_vapu_probe(&config, NULL, &dev);
  if (r) return r;
  r = amdgpu_device_register(dev);
  if (r) amdgpu_device_remove(dev);
  return r;
}
