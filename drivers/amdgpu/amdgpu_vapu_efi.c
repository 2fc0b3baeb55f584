/* amdgpu_vapu_efi.c - the boot option vapu=<chip> in an image with the
 * virtual APU: the model of that chip, added as a GPU (QEMU has no model
 * of these GPUs). */
#include <stdbool.h>

#include "drivers/amdgpu/amdgpu_efi.h"
#include "drivers/amdgpu/amdgpu_vapu.h"
#include "lib/plat.h"

PLAT_OPTION(vapu, "vapu", "raven|picasso|raven2|renoir: add the virtual APU of that chip as a GPU");

int amdgpu_vapu_option_probe(bool *asked) {
  const char *chip = plat_option("vapu");
  *asked = chip != NULL;
  return chip ? amdgpu_vapu_add(chip) : 0;
}
