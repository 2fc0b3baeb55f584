/* amdgpu_vapu_none_efi.c - the boot option vapu= in an image built without
 * the virtual APU (make VAPU=no, for boards): known, so that the error
 * says why, and refused. */
#define LOG_TAG "amdgpu"
#include <errno.h>
#include <stdbool.h>

#include "drivers/amdgpu/amdgpu_efi.h"
#include "lib/plat.h"

PLAT_OPTION(vapu, "vapu", "not in this image (built with VAPU=no): the virtual APU is for QEMU");

int amdgpu_vapu_option_probe(bool *asked) {
  const char *chip = plat_option("vapu");
  *asked = chip != NULL;
  if (!chip) return 0;
  log_error("vapu=%s: this image is built without the virtual APU (make VAPU=no): no model GPU",
            chip);
  return -ENODEV;
}
