/* vapu_chip.c - the chip variants the model can be: PCI identity, IP
 * versions and register bases, shader array size, firmware versions. */
#include <string.h>

#include "vapu/vapu_internal.h"

/* Register segment bases: Raven family from Linux include/vega10_ip_offset.h
 * (vega10_reg_base_init serves CHIP_RAVEN), Renoir from the IP_BASE structs
 * of include/renoir_ip_offset.h (MP1 segment 0 is 0x16000 there, as on
 * Raven: the file's stray MP1_BASE__INST0_SEG0 define says 0x16200, which
 * would put C2PMSG_66 of mp_12_0_0_offset.h at the wrong place).
 * IP versions: Raven and Raven2 are what Linux hard-codes for CHIP_RAVEN in
 * amdgpu_discovery.c amdgpu_discovery_set_ip_blocks (Raven2 THM 10.1.0).
 * Renoir's are what Linux names for it where it converted CHIP_RENOIR tests
 * into IP versions: GC 9.3.0 and NBIO 2.5.0 (soc15.c), MP0 11.0.3
 * (amdgpu_ucode.c amdgpu_ucode_ip_version_decode: 11.0.3 = "renoir",
 * 12.0.1 = "green_sardine"; psp_v12_0 serves both), MP1 12.0.0 (renoir_ppt.c
 * pairs 12.0.0 with SMU firmware 0x37xxxx, 12.0.1 with Cezanne's 0x40xxxx),
 * MMHUB and ATHUB 1.5.0 (gmc_v9_0.c mmhub_client_ids_renoir,
 * athub_v1_0.c), HDP and SDMA0 4.1.2 (amdgpu_ucode.c "renoir_sdma");
 * OSSSYS 4.3.0 is the one vega10_ih version no other chip has. SMUIO and
 * THM are not singled out by Linux for Renoir (not read by the driver).
 * Shader arrays: one SE with one SH on all four; CUs per SH are the full
 * dies' (Raven/Picasso 11, Raven2 3, Renoir 8) from AMD's product data.
 * GB_ADDR_CONFIG after the VBIOS: the golden values of Linux gfx_v9_0.c
 * (RAVEN_GB_ADDR_CONFIG_GOLDEN, RAVEN2_GB_ADDR_CONFIG_GOLDEN, and
 * golden_settings_gc_9_1_rn for Renoir, whose driver reads it back).
 * GFXOFF status: Raven's PWR_MISC_CNTL_STATUS (pwr_10_0_offset.h 0x0183 in
 * PWR segment 0 at 0x16A00; smu10_hwmgr.c smu10_is_gfx_on), Renoir's
 * SMUIO_GFX_MISC_CNTL (smuio_12_0_0_offset.h 0x00c8 in SMUIO segment 0 at
 * 0x16800; smu_v12_0_get_gfxoff_status).
 * Errata: the system aperture's high bound on Raven2 and Renoir (Linux
 * gfxhub_v1_0.c / mmhub_v1_0.c work around it), Renoir's IH_CHICKEN gate
 * for bus addresses (Linux vega10_ih.c vega10_ih_irq_init). */
#define RAVEN_FAMILY_IPS(gc_minor, gc_rev, mmhub_minor, oss_rev, nbio_rev, mp_rev, thm_minor)  \
  {HWID_GC, 0, 9, gc_minor, gc_rev, 2, {0x00002000, 0x0000A000}},                            \
  {HWID_MMHUB, 0, 9, mmhub_minor, 0, 1, {0x0001A000}},                                         \
  {HWID_ATHUB, 0, 9, mmhub_minor, 0, 1, {0x00000C20}},                                         \
  {HWID_OSSSYS, 0, 4, 1, oss_rev, 1, {0x000010A0}},                                            \
  {HWID_HDP, 0, 4, 1, oss_rev, 1, {0x00000F20}},                                               \
  {HWID_SDMA0, 0, 4, 1, oss_rev, 1, {0x00001260}},                                             \
  {HWID_NBIF, 0, 7, 0, nbio_rev, 4, {0x00000000, 0x00000014, 0x00000D20, 0x00010400}},        \
  {HWID_MP0, 0, 10, 0, mp_rev, 1, {0x00016000}},                                               \
  {HWID_MP1, 0, 10, 0, mp_rev, 1, {0x00016000}},                                               \
  {HWID_SMUIO, 0, 10, 0, mp_rev, 1, {0x00016800}},                                             \
  {HWID_THM, 0, 10, thm_minor, 0, 1, {0x00016600}},                                            \
  {HWID_DF, 0, 2, 1, mp_rev, 1, {0x00007000}}

const struct vapu_chip_desc vapu_chips[VAPU_CHIP_COUNT] = {
    [VAPU_RAVEN] = {
        .name = "raven", .pci_device_id = 0x15dd, .pci_revision = 0xc4, .ati_rev_id = 0x1,
        .shader_engines = 1, .sh_per_se = 1, .cu_per_sh = 11,
        .max_waves_per_simd = 10, .lds_bytes = 65536, .max_scratch_slots_per_cu = 32,
        .gfxoff_status_reg = 0x16B83,
        .gb_addr_config = 0x24000042, .max_gfxclk_mhz = 1300, .smu_version = 0x001e4100, .sos_version = 0x000a0012,
        .psp_success_status = 0x00000001u, /* the model's stand-in for an sOS that does not write 0 */
        .ip_count = 12, .ips = {RAVEN_FAMILY_IPS(1, 0, 1, 0, 0, 0, 0)},
    },
    [VAPU_PICASSO] = {
        .name = "picasso", .pci_device_id = 0x15d8, .pci_revision = 0xc1, .ati_rev_id = 0x1,
        .shader_engines = 1, .sh_per_se = 1, .cu_per_sh = 11,
        .max_waves_per_simd = 10, .lds_bytes = 65536, .max_scratch_slots_per_cu = 32,
        .gfxoff_status_reg = 0x16B83,
        .gb_addr_config = 0x24000042, .max_gfxclk_mhz = 1400, .smu_version = 0x00225000, .sos_version = 0x000a0017,
        .ip_count = 12, .ips = {RAVEN_FAMILY_IPS(1, 0, 1, 0, 0, 0, 0)},
    },
    [VAPU_RAVEN2] = {
        .name = "raven2", .pci_device_id = 0x15dd, .pci_revision = 0xc5, .ati_rev_id = 0x8,
        .aperture_high_exclusive = true,
        .shader_engines = 1, .sh_per_se = 1, .cu_per_sh = 3,
        .max_waves_per_simd = 10, .lds_bytes = 65536, .max_scratch_slots_per_cu = 32,
        .gfxoff_status_reg = 0x16B83,
        .gb_addr_config = 0x26013041, .max_gfxclk_mhz = 1200, .smu_version = 0x00053a00, .sos_version = 0x000a0017,
        .ip_count = 12, .ips = {RAVEN_FAMILY_IPS(2, 2, 2, 1, 1, 1, 1)},
    },
    [VAPU_RENOIR] = {
        .name = "renoir", .pci_device_id = 0x1636, .pci_revision = 0xc1, .ati_rev_id = 0x1,
        .discovery_table = true, .aperture_high_exclusive = true, .ih_needs_gpa_enable = true,
        .shader_engines = 1, .sh_per_se = 1, .cu_per_sh = 8,
        .max_waves_per_simd = 10, .lds_bytes = 65536, .max_scratch_slots_per_cu = 32,
        .gfxoff_status_reg = 0x168C8,
        .gb_addr_config = 0x24000042, .max_gfxclk_mhz = 1600, .smu_version = 0x00373400, .sos_version = 0x000c0021,
        .sos_sign_of_life = true,
        .ip_count = 11,
        .ips = {
            {HWID_GC, 0, 9, 3, 0, 3, {0x00002000, 0x0000A000, 0x02402C00}},
            {HWID_MMHUB, 0, 1, 5, 0, 2, {0x0001A000, 0x02408800}},
            {HWID_ATHUB, 0, 1, 5, 0, 2, {0x00000C20, 0x02408C00}},
            {HWID_OSSSYS, 0, 4, 3, 0, 2, {0x000010A0, 0x0240A000}},
            {HWID_HDP, 0, 4, 1, 2, 2, {0x00000F20, 0x0240A400}},
            {HWID_SDMA0, 0, 4, 1, 2, 2, {0x00001260, 0x0240A800}},
            {HWID_NBIF, 0, 2, 5, 0, 5, {0x00000000, 0x00000014, 0x00000D20, 0x00010400, 0x0241B000}},
            {HWID_MP0, 0, 11, 0, 3, 5, {0x00016000, 0x0243FC00, 0x00DC0000, 0x00E00000, 0x00E40000}},
            {HWID_MP1, 0, 12, 0, 0, 5, {0x00016000, 0x02400400, 0x00E80000, 0x00EC0000, 0x00F00000}},
            {HWID_SMUIO, 0, 12, 0, 0, 4, {0x00016800, 0x00016A00, 0x02401000, 0x00440000}},
            {HWID_THM, 0, 12, 0, 0, 2, {0x00016600, 0x02400C00}},
        },
    },
};

int vapu_chip_by_name(const char *name) {
  for (int i = 0; i < VAPU_CHIP_COUNT; i++)
    if (name && strcmp(name, vapu_chips[i].name) == 0) return i;
  return -1;
}

const char *vapu_chip_name(enum vapu_chip_id chip) {
  return (unsigned)chip < VAPU_CHIP_COUNT ? vapu_chips[chip].name : "unknown";
}

const struct vapu_ip *vapu_chip_ip(const struct vapu_chip_desc *chip, uint16_t hw_id) {
  for (int i = 0; i < chip->ip_count; i++)
    if (chip->ips[i].hw_id == hw_id && chip->ips[i].instance == 0) return &chip->ips[i];
  return NULL;
}
