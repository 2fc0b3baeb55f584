/* Bring-up of each chip variant on the virtual APU, and every way the
 * hardware or firmware can refuse: each must end in a clear error, a
 * released device and no hang. */
#include <errno.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_vapu.h"
#include "drivers/amdgpu/regs/psp_gfx_if.h"
#include "drivers/amdgpu/regs/smu_msg.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"
#include "lib/util.h"

#define TEST_CARVEOUT (32ull << 20)

static int probe(enum vapu_chip_id chip, const struct vapu_faults *faults, struct amdgpu_device **dev) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = chip, .carveout_bytes = TEST_CARVEOUT};
  if (faults) config.faults = *faults;
  return amdgpu_vapu_probe(&config, NULL, dev);
}

/* Expected facts per chip: Linux amdgpu_drv.c IDs, LLVM AMDGPUUsage
 * targets, the model's CU counts and clocks (vapu_chip.c). */
static const struct {
  enum vapu_chip_id chip;
  const char *name, *target;
  uint16_t device_id;
  uint32_t cus, mhz;
} expected[] = {
    {VAPU_RAVEN, "raven", "gfx902", 0x15dd, 11, 1300},
    {VAPU_PICASSO, "picasso", "gfx902", 0x15d8, 11, 1400},
    {VAPU_RAVEN2, "raven2", "gfx902", 0x15dd, 3, 1200},
    {VAPU_RENOIR, "renoir", "gfx90c", 0x1636, 8, 1600},
};

TEST(amdgpu_bringup_each_chip_variant) {
  for (size_t i = 0; i < countof(expected); i++) {
    struct amdgpu_device *dev;
    ASSERT_EQ(probe(expected[i].chip, NULL, &dev), 0);
    struct amdgpu_device_info info;
    ASSERT_EQ(amdgpu_device_query(dev, &info), 0);
    ASSERT_STR_EQ(info.chip_name, expected[i].name);
    ASSERT_STR_EQ(info.gfx_target, expected[i].target);
    ASSERT_EQ(info.pci_vendor_id, 0x1002);
    ASSERT_EQ(info.pci_device_id, expected[i].device_id);
    ASSERT_EQ(info.compute_units, expected[i].cus);
    ASSERT_EQ(info.max_engine_clock_mhz, expected[i].mhz);
    ASSERT_EQ(info.shader_engines, 1);
    ASSERT_EQ(info.waves_per_simd, 10);
    ASSERT_EQ(info.wave_size, 64);
    ASSERT_EQ_U(info.local_memory_size, TEST_CARVEOUT);
    ASSERT_TRUE(info.virtual_apu);
    ASSERT_NE(info.smu_firmware_version, 0);
    amdgpu_device_remove(dev);
  }
}

TEST(amdgpu_renoir_ip_bases_come_from_discovery) {
  struct amdgpu_device *dev;
  ASSERT_EQ(probe(VAPU_RENOIR, NULL, &dev), 0);
  /* renoir_ip_offset.h IP_BASE structs: MP1 segment 0 at 0x16000 as on
   * Raven; GC 9.3.0; MP0 11.0.3, the PSP version Linux calls "renoir"
   * (amdgpu_ucode.c), served by psp_v12_0. */
  ASSERT_EQ(dev->ip[IP_MP1].segment[0], 0x16000);
  ASSERT_EQ(dev->ip[IP_GC].major, 9);
  ASSERT_EQ(dev->ip[IP_GC].minor, 3);
  ASSERT_EQ(dev->ip[IP_GC].segment[2], 0x02402C00);
  ASSERT_EQ(dev->ip[IP_MP0].major, 11);
  ASSERT_EQ(dev->ip[IP_MP0].minor, 0);
  ASSERT_EQ(dev->ip[IP_MP0].revision, 3);
  amdgpu_device_remove(dev);
}

/* Most boards' BAR0 covers only the start of the UMA carve-out: the CPU
 * reaches all of it at its physical address (MC_VM_FB_OFFSET, Linux
 * gmc_v9_0_mc_init on APUs), the discovery table near its top through
 * MM_INDEX/MM_DATA (amdgpu_discovery.c), and local memory works there for
 * the CPU and the GPU alike. */
TEST(amdgpu_carveout_larger_than_bar0_comes_up) {
  static const enum vapu_chip_id chips[] = {VAPU_RAVEN, VAPU_RENOIR};
  for (int c = 0; c < 2; c++) {
    amdgpu_test_need_model();
    struct vapu_config config = {.chip = chips[c], .carveout_bytes = 64ull << 20, .bar0_bytes = 4ull << 20};
    struct amdgpu_device *dev;
    ASSERT_EQ(amdgpu_vapu_probe(&config, NULL, &dev), 0);
    uint64_t fb_bytes, bar0_bytes;
    uint8_t *fb = vapu_carveout(amdgpu_vapu_of(dev), &fb_bytes);
    vapu_bar0(amdgpu_vapu_of(dev), &bar0_bytes);
    ASSERT_EQ_U(dev->bar_size[0], bar0_bytes);
    struct amdgpu_device_info info;
    ASSERT_EQ(amdgpu_device_query(dev, &info), 0);
    ASSERT_EQ_U(info.local_memory_base, (uint64_t)(uintptr_t)fb);
    ASSERT_EQ_U(info.local_memory_size, fb_bytes);
    ASSERT_EQ(plat_cpu_cache_mode(info.local_memory_base), PLAT_CACHE_WRITE_COMBINING);
    /* Local memory beyond BAR0's reach, written by the CPU, read by the
     * GPU through the compute VMIDs at the same address. */
    uint64_t *far = amdgpu_local_alloc(dev, 4096, 16ull << 20); /* at 16 MiB or beyond */
    ASSERT_NOT_NULL(far);
    ASSERT_TRUE((uint64_t)(uintptr_t)far - info.local_memory_base >= bar0_bytes);
    *far = 0x1122334455667788ull;
    struct vapu_requester rq = {VAPU_GFXHUB, AMDGPU_COMPUTE_VMID_FIRST, VAPU_CLIENT_TCP, false};
    uint64_t got = 0;
    ASSERT_EQ(vapu_gpu_read(amdgpu_vapu_of(dev), &rq, NULL, (uint64_t)(uintptr_t)far, &got, 8), 0);
    ASSERT_EQ_U(got, 0x1122334455667788ull);
    amdgpu_local_free(dev, far);
    amdgpu_device_remove(dev);
    ASSERT_EQ(plat_cpu_cache_mode((uint64_t)(uintptr_t)fb), PLAT_CACHE_WRITE_BACK);
  }
}

TEST(amdgpu_raven2_is_told_apart_by_revision_strap) {
  struct amdgpu_device *dev;
  ASSERT_EQ(probe(VAPU_RAVEN2, NULL, &dev), 0);
  ASSERT_GE(dev->ati_rev_id, 8);
  ASSERT_STR_EQ(dev->chip->name, "raven2");
  ASSERT_EQ(dev->ip[IP_GC].minor, 2); /* GC 9.2.2 */
  amdgpu_device_remove(dev);
  ASSERT_EQ(probe(VAPU_RAVEN, NULL, &dev), 0);
  ASSERT_LT(dev->ati_rev_id, 8);
  ASSERT_STR_EQ(dev->chip->name, "raven");
  amdgpu_device_remove(dev);
}

TEST(amdgpu_harvested_cus_are_not_counted) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = VAPU_RAVEN, .carveout_bytes = TEST_CARVEOUT, .inactive_cus = 0x0c0};
  struct amdgpu_device *dev;
  ASSERT_EQ(amdgpu_vapu_probe(&config, NULL, &dev), 0);
  struct amdgpu_device_info info;
  ASSERT_EQ(amdgpu_device_query(dev, &info), 0);
  ASSERT_EQ(info.compute_units, 9);
  amdgpu_device_remove(dev);
}

static uint64_t elapsed_ms(uint64_t t0) { return (plat_now_ns() - t0) / 1000000; }

/* psp_v10_0 (Raven) has no sign-of-life register and writes its ring
 * commands at once: a dead PSP shows as a ring command nobody answers.
 * psp_v12_0 (Renoir) shows a running sOS in C2PMSG_81, which is 0 here. */
TEST(amdgpu_dead_psp_is_a_clear_error) {
  struct vapu_faults f = {.psp_dead = true};
  struct amdgpu_device *dev = (void *)1;
  uint64_t t0 = plat_now_ns();
  ASSERT_EQ(probe(VAPU_RAVEN, &f, &dev), -ETIMEDOUT);
  ASSERT_NULL(dev);
  ASSERT_LT(elapsed_ms(t0), 5000);
  ASSERT_EQ(probe(VAPU_RENOIR, &f, &dev), -ENODEV);
  ASSERT_NULL(dev);
}

/* The mailbox as the BIOS leaves it on a psp_v10_0 part (mp_10_0_default.h:
 * C2PMSG_64 and C2PMSG_81 at 0): nothing to wait for before the ring. And
 * an sOS that writes a non-zero status for commands that worked (Linux
 * amdgpu_psp.c warns only) still gets every image loaded. */
TEST(amdgpu_psp_v10_mailbox_at_reset_and_nonzero_success_statuses) {
  struct amdgpu_device *dev;
  ASSERT_EQ(probe(VAPU_RAVEN, NULL, &dev), 0);
  ASSERT_EQ(dev->sos_version, 0);
  ASSERT_NE(dev->psp.cmd->resp.status, 0);
  struct vapu_firmware_state fw;
  vapu_get_firmware_state(amdgpu_vapu_of(dev), &fw);
  ASSERT_EQ(fw.psp_failed_commands, 0);
  ASSERT_TRUE(fw.mec1_running);
  amdgpu_device_remove(dev);
}

TEST(amdgpu_silent_smu_is_a_clear_error) {
  for (int chip = VAPU_RAVEN; chip <= VAPU_RENOIR; chip += VAPU_RENOIR - VAPU_RAVEN) {
    struct vapu_faults f = {.smu_silent = true};
    struct amdgpu_device *dev = (void *)1;
    uint64_t t0 = plat_now_ns();
    ASSERT_EQ(probe(chip, &f, &dev), -ETIMEDOUT);
    ASSERT_NULL(dev);
    ASSERT_LT(elapsed_ms(t0), 5000);
  }
}

TEST(amdgpu_bad_discovery_table_is_an_error) {
  struct vapu_faults checksum = {.bad_discovery_checksum = true};
  struct vapu_faults signature = {.bad_discovery_signature = true};
  struct amdgpu_device *dev = (void *)1;
  ASSERT_EQ(probe(VAPU_RENOIR, &checksum, &dev), -EINVAL);
  ASSERT_NULL(dev);
  ASSERT_EQ(probe(VAPU_RENOIR, &signature, &dev), -EINVAL);
  ASSERT_NULL(dev);
}

TEST(amdgpu_discovery_parser_rejects_damaged_tables) {
  /* A good table from the model, then one byte wrong at a time in each part. */
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = VAPU_RENOIR, .carveout_bytes = TEST_CARVEOUT};
  struct vapu *v = vapu_create(&config);
  ASSERT_NOT_NULL(v);
  uint64_t size;
  uint8_t *fb = vapu_carveout(v, &size);
  uint8_t good[4096], bin[4096];
  memcpy(good, fb + size - (64u << 10), sizeof good);
  vapu_destroy(v);
  struct amdgpu_device dev;
  memset(&dev, 0, sizeof dev);
  ASSERT_EQ(amdgpu_discovery_parse(&dev, good, sizeof good), 0);
  ASSERT_TRUE(dev.ip[IP_OSSSYS].present);
  ASSERT_EQ(dev.cu_per_sh, 8);
  uint16_t total = (uint16_t)(good[10] | good[11] << 8);
  for (uint16_t at = 10; at < total; at += 7) {
    memcpy(bin, good, sizeof bin);
    bin[at] ^= 0x40;
    memset(&dev, 0, sizeof dev);
    ASSERT_EQ(amdgpu_discovery_parse(&dev, bin, sizeof bin), -EINVAL);
  }
  /* A size field that points past the binary. */
  memcpy(bin, good, sizeof bin);
  bin[10] = 0xff;
  bin[11] = 0xff;
  ASSERT_EQ(amdgpu_discovery_parse(&dev, bin, sizeof bin), -EINVAL);
}

TEST(amdgpu_missing_bar_is_a_clear_error) {
  static const int bars[] = {0, 2, 5};
  for (int i = 0; i < 3; i++) {
    struct vapu_faults f = {.missing_bars = (uint8_t)(1u << bars[i])};
    struct amdgpu_device *dev = (void *)1;
    ASSERT_EQ(probe(VAPU_RAVEN, &f, &dev), -ENODEV);
    ASSERT_NULL(dev);
  }
}

TEST(amdgpu_init_finds_the_virtual_apu_asked_for) {
  /* The host always has the model (default raven); the image has it when
   * booted with vapu=<chip>, and QEMU has no GPU of its own. */
  const char *opt = plat_option("vapu");
  bool host = strcmp(plat_name(), "host") == 0;
  int want = host || opt ? 1 : 0;
  if (want) amdgpu_test_need_model();
  ASSERT_EQ(amdgpu_init(), want);
  ASSERT_EQ(amdgpu_init(), want); /* idempotent */
  ASSERT_EQ(amdgpu_device_count(), want);
  if (want) {
    struct amdgpu_device_info info;
    ASSERT_EQ(amdgpu_device_query(amdgpu_device_get(0), &info), 0);
    ASSERT_TRUE(info.virtual_apu);
    ASSERT_STR_EQ(info.chip_name, opt && *opt ? opt : "raven");
  }
  ASSERT_NULL(amdgpu_device_get(want));
  amdgpu_fini();
  ASSERT_EQ(amdgpu_device_count(), 0);
}

/* An OS that allowed GFXOFF leaves the graphics core powered down across a
 * warm reboot, and its registers do not answer until the SMU powers it up
 * again: the bring-up turns GFXOFF off and waits for the core before it
 * touches a GC register (Linux smu10_disable_gfx_off). Normally GFXOFF was
 * never allowed and nothing is sent. */
TEST(amdgpu_gfxoff_left_by_a_warm_reboot_is_turned_off_first) {
  for (int chip = VAPU_RAVEN; chip <= VAPU_RENOIR; chip += VAPU_RENOIR - VAPU_RAVEN) {
    struct vapu_faults f = {.gfxoff_at_start = true};
    struct amdgpu_device *dev;
    ASSERT_EQ(probe(chip, &f, &dev), 0);
    struct vapu_stats st;
    vapu_get_stats(amdgpu_vapu_of(dev), &st);
    ASSERT_EQ(st.gc_accesses_while_off, 0);
    struct vapu_firmware_state fw;
    vapu_get_firmware_state(amdgpu_vapu_of(dev), &fw);
    ASSERT_TRUE(fw.gfx_powered);
    ASSERT_FALSE(fw.gfxoff_allowed);
    amdgpu_device_remove(dev);
  }
}

/* SMU answers other than OK are errors the driver weighs: a refused
 * optional message (the clock query, SDMA power: compute copies are the
 * CPU's) is a warning and the bring-up goes on; a refused GetSmuVersion
 * (it picks the firmware files) stops it with a clear error. */
TEST(amdgpu_smu_refusals_are_weighed_per_message) {
  struct amdgpu_device *dev;
  struct vapu_faults f = {.smu_rejects_message = PPSMC_MSG_GetMaxGfxclkFrequency};
  ASSERT_EQ(probe(VAPU_RENOIR, &f, &dev), 0);
  ASSERT_EQ(dev->max_gfxclk_mhz, 0);
  amdgpu_device_remove(dev);
  f = (struct vapu_faults){.smu_rejects_message = PPSMC_MSG_PowerUpSdma};
  ASSERT_EQ(probe(VAPU_RAVEN, &f, &dev), 0);
  struct vapu_firmware_state fw;
  vapu_get_firmware_state(amdgpu_vapu_of(dev), &fw);
  ASSERT_FALSE(fw.sdma_powered);
  amdgpu_device_remove(dev);
  f = (struct vapu_faults){.smu_rejects_message = PPSMC_MSG_GetSmuVersion};
  dev = (void *)1;
  ASSERT_EQ(probe(VAPU_RAVEN, &f, &dev), -EINVAL);
  ASSERT_NULL(dev);
}
