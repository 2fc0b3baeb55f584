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
 * GFXOFF status: Raven's PWR_MISC_CNTL_STATUS (smu10_is_gfx_on), Renoir's
 * SMUIO_GFX_MISC_CNTL (smu_v12_0_get_gfxoff_status); regs/pwr_10_0.h and
 * regs/smuio_12_0.h give their sources.
 * Golden settings: Linux gfx_v9_0.c gfx_v9_0_init_golden_registers (Raven2
 * by rev_id >= 8, Renoir without the common tables). RLC firmware:
 * Linux gfx_v9_0.c gfx_v9_0_init_rlc_microcode (Picasso's _rlc_am4 for
 * PCI revisions 0xc8-0xcf and 0xd8-0xdf, Raven's _kicker_rlc from SMU
 * 0x41e2b on). The system aperture erratum: Linux gfxhub_v1_0.c /
 * mmhub_v1_0.c init_system_aperture_regs (Raven2, later Renoir too). The
 * invalidation semaphore: gmc_v9_0_use_invalidate_semaphore (the MM hub,
 * not on Picasso). MC_SPACE_GPA_ENABLE: vega10_ih.c vega10_ih_irq_init
 * (CHIP_RENOIR). */
#include <stddef.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/pwr_10_0.h"
#include "drivers/amdgpu/regs/smuio_12_0.h"
#include "lib/util.h"

#define PCI_VENDOR_ATI 0x1002
#define RAVEN2_MIN_ATI_REV 0x8

enum { CHIP_RAVEN, CHIP_PICASSO, CHIP_RAVEN2, CHIP_RENOIR, CHIP_GREEN_SARDINE };

#define RAVEN_FAMILY                                                              \
  .gfx_target = "gfx902", .gfx_version = 0x090002, .ati_rev_may_be_raven2 = true, \
  .shader_engines = 1, .sh_per_se = 1, .gfxoff_status = REG_PWR_MISC_CNTL_STATUS_FIXED
#define RENOIR_FAMILY                                                         \
  .gfx_target = "gfx90c", .gfx_version = 0x09000c, .uses_discovery = true,    \
  .gfxoff_status = REG_SMUIO_GFX_MISC_CNTL_FIXED, .golden = AMDGPU_GOLDEN_RN, \
  .aperture_high_erratum = true, .mmhub_invalidate_semaphore = true, .ih_mc_space_gpa = true

static const struct amdgpu_chip_info chips[] = {
    [CHIP_RAVEN] = {.name = "raven", RAVEN_FAMILY, .cu_per_sh = 11, .golden = AMDGPU_GOLDEN_RV1,
                    .rlc_kicker_firmware = true, .mmhub_invalidate_semaphore = true},
    [CHIP_PICASSO] = {.name = "picasso", RAVEN_FAMILY, .cu_per_sh = 11, .golden = AMDGPU_GOLDEN_RV1,
                      .rlc_am4_firmware = true},
    [CHIP_RAVEN2] = {.name = "raven2", RAVEN_FAMILY, .raven2_ip_versions = true, .cu_per_sh = 3,
                     .golden = AMDGPU_GOLDEN_RV2, .aperture_high_erratum = true,
                     .mmhub_invalidate_semaphore = true},
    [CHIP_RENOIR] = {.name = "renoir", RENOIR_FAMILY},
    [CHIP_GREEN_SARDINE] = {.name = "green_sardine", RENOIR_FAMILY},
};

static const struct { uint16_t device_id; int chip; } pci_ids[] = {
    {0x15dd, CHIP_RAVEN},         /* Raven, V1000; Raven2 (R1000) by revision */
    {0x15d8, CHIP_PICASSO},       /* Picasso */
    {0x1636, CHIP_RENOIR},        /* Renoir, V2000 */
    {0x164c, CHIP_RENOIR},        /* Lucienne (Renoir) */
    {0x1638, CHIP_GREEN_SARDINE}, /* Cezanne (Green Sardine) */
    {0x15e7, CHIP_GREEN_SARDINE}, /* Barcelo (Green Sardine) */
};

bool amdgpu_pci_id_supported(uint16_t vendor_id, uint16_t device_id) {
  if (vendor_id != PCI_VENDOR_ATI) return false;
  for (size_t i = 0; i < countof(pci_ids); i++)
    if (pci_ids[i].device_id == device_id) return true;
  return false;
}

const struct amdgpu_chip_info *amdgpu_chip_lookup(uint16_t device_id, uint8_t ati_rev_id) {
  for (size_t i = 0; i < countof(pci_ids); i++) {
    if (pci_ids[i].device_id != device_id) continue;
    const struct amdgpu_chip_info *chip = &chips[pci_ids[i].chip];
    if (chip->ati_rev_may_be_raven2 && ati_rev_id >= RAVEN2_MIN_ATI_REV) return &chips[CHIP_RAVEN2];
    return chip;
  }
  return NULL;
}

const char *amdgpu_ip_name(enum amdgpu_ip ip) {
  static const char *const names[IP_NAMED_COUNT] = {"GC",  "MMHUB", "NBIO",  "HDP", "OSSSYS",
                                                    "MP0", "MP1",   "SDMA0", "PWR", "SMUIO"};
  return (unsigned)ip < IP_NAMED_COUNT ? names[ip] : "?";
}
