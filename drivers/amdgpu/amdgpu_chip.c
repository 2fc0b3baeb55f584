/* amdgpu_chip.c - which PCI functions are ours and what each chip is.
 * Device IDs: Linux drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c pciidlist
 * (Raven 0x15dd and 0x15d8; Renoir 0x15e7, 0x1636, 0x1638, 0x164c).
 * Raven2 (Ryzen Embedded R1000) shares 0x15dd and is told apart by the ATI
 * revision strap >= 0x8 (Linux soc15.c soc15_common_early_init, rev_id from
 * nbio_v7_0_get_rev_id). V1000 parts are 0x15dd, V2000 0x1636.
 * Picasso sets its own name (Linux AMD_APU_IS_PICASSO). 0x1638/0x15e7 are
 * Green Sardine/Barcelo: the Renoir blocks with green_sardine_* firmware
 * (Linux amdgpu_device.c apu_flags, amdgpu_gfx firmware names).
 * GFX targets: LLVM AMDGPUUsage processor table (gfx902 = Raven family,
 * gfx90c = Renoir family). Shader array sizes of the Raven family are the
 * full dies' (1 SE x 1 SH; 11, 11 and 3 CUs) since their gpu_info firmware
 * is optional here; Renoir reads its own from the discovery GC table.
 * GFXOFF status: Raven's PWR_MISC_CNTL_STATUS (pwr_10_0_offset.h 0x0183 in
 * PWR segment 0, 0x16A00 in vega10_ip_offset.h; smu10_is_gfx_on), Renoir's
 * SMUIO_GFX_MISC_CNTL (smuio_12_0_0_offset.h 0x00c8 in SMUIO segment 0,
 * 0x16800 in renoir_ip_offset.h; smu_v12_0_get_gfxoff_status). */
#include <stddef.h>

#include "drivers/amdgpu/amdgpu_dev.h"

#define PCI_VENDOR_ATI 0x1002
#define RAVEN2_MIN_ATI_REV 0x8

static const struct amdgpu_chip_info chips[] = {
    {"raven", AMDGPU_RAVEN, "gfx902", 0x090002, false, 1, 1, 11, 0x16B83},
    {"picasso", AMDGPU_PICASSO, "gfx902", 0x090002, false, 1, 1, 11, 0x16B83},
    {"raven2", AMDGPU_RAVEN2, "gfx902", 0x090002, false, 1, 1, 3, 0x16B83},
    {"renoir", AMDGPU_RENOIR, "gfx90c", 0x09000c, true, 0, 0, 0, 0x168C8},
    {"green_sardine", AMDGPU_RENOIR, "gfx90c", 0x09000c, true, 0, 0, 0, 0x168C8},
};

static const struct { uint16_t device_id; int chip; } pci_ids[] = {
    {0x15dd, 0}, /* Raven, V1000; Raven2 (R1000) by revision */
    {0x15d8, 1}, /* Picasso */
    {0x1636, 3}, /* Renoir, V2000 */
    {0x164c, 3}, /* Lucienne (Renoir) */
    {0x1638, 4}, /* Cezanne (Green Sardine) */
    {0x15e7, 4}, /* Barcelo (Green Sardine) */
};

bool amdgpu_pci_id_supported(uint16_t vendor_id, uint16_t device_id) {
  if (vendor_id != PCI_VENDOR_ATI) return false;
  for (size_t i = 0; i < sizeof pci_ids / sizeof pci_ids[0]; i++)
    if (pci_ids[i].device_id == device_id) return true;
  return false;
}

const struct amdgpu_chip_info *amdgpu_chip_lookup(uint16_t device_id, uint8_t ati_rev_id) {
  for (size_t i = 0; i < sizeof pci_ids / sizeof pci_ids[0]; i++) {
    if (pci_ids[i].device_id != device_id) continue;
    const struct amdgpu_chip_info *chip = &chips[pci_ids[i].chip];
    if (chip->family != AMDGPU_RENOIR && ati_rev_id >= RAVEN2_MIN_ATI_REV) return &chips[2];
    return chip;
  }
  return NULL;
}

const char *amdgpu_ip_name(enum amdgpu_ip ip) {
  static const char *const names[IP_COUNT] = {"GC", "MMHUB", "NBIO", "HDP", "OSSSYS", "MP0", "MP1", "SDMA0"};
  return (unsigned)ip < IP_COUNT ? names[ip] : "?";
}
