/* amdgpu_vapu_efi.c - the boot option vapu=<chip> in an image with the
 * virtual APU: the model of that chip, added as a GPU (QEMU has no model
 * of these GPUs). */
#include <stdbool.h>

#include "drivers/amdgpu/amdgpu_efi.h"
#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"

PLAT_OPTION(vapu, "vapu", "raven|picasso|raven2|renoir: add the virtual APU of that chip as a GPU");
PLAT_OPTION(vapu_inactive_cus, "vapu_inactive_cus",
            "mask: the virtual APU's fused-off CUs (bit n = CU n of each shader array; default none)");

int amdgpu_vapu_option_probe(bool *asked) {
  const char *chip = plat_option("vapu");
  *asked = chip != NULL;
  return chip ? amdgpu_vapu_add(chip) : 0;
}
