/* Firmware through the PSP: the files' headers checked field by field,
 * the kernel-mode ring, the TMR, LOAD_IP_FW of every image, the engines
 * that then run; and each way it can go wrong (missing file, bad header,
 * PSP error status, PSP that never completes) as a clear error. The files
 * are synthetic, made by tools/make-firmware.py. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_ucode.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "drivers/amdgpu/regs/psp_gfx_if.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/amdgpu_test_util.h"

#define FW_TYPE_BIT(t) (1u << (t))
static const uint32_t expected_types =
    FW_TYPE_BIT(PSP_FW_SDMA0) | FW_TYPE_BIT(PSP_FW_CP_MEC) | FW_TYPE_BIT(PSP_FW_CP_MEC_ME1) |
    FW_TYPE_BIT(PSP_FW_RLC_RESTORE_LIST_SRM_CNTL) | FW_TYPE_BIT(PSP_FW_RLC_RESTORE_LIST_GPM_MEM) |
    FW_TYPE_BIT(PSP_FW_RLC_RESTORE_LIST_SRM_MEM) | FW_TYPE_BIT(PSP_FW_RLC_G);

static int probe(enum vapu_chip_id chip, const char *dir, const struct vapu_faults *faults,
                 struct amdgpu_device **dev) {
  amdgpu_test_need_model();
  struct vapu_config config = {.chip = chip, .carveout_bytes = AMDGPU_TEST_CARVEOUT};
  if (faults) config.faults = *faults;
  return amdgpu_vapu_probe(&config, dir, dev);
}

TEST(amdgpu_firmware_reaches_the_psp_on_each_chip) {
  static const struct { enum vapu_chip_id chip; uint32_t gb_addr_config; } chips[] = {
      {VAPU_RAVEN, 0x24000042}, {VAPU_PICASSO, 0x24000042}, {VAPU_RAVEN2, 0x26013041},
      {VAPU_RENOIR, 0x24000042}};
  for (int c = 0; c < 4; c++) {
    struct amdgpu_device *dev;
    ASSERT_EQ(probe(chips[c].chip, NULL, NULL, &dev), 0);
    struct vapu_firmware_state fw;
    vapu_get_firmware_state(amdgpu_vapu_of(dev), &fw);
    ASSERT_TRUE(fw.psp_ring_up);
    ASSERT_TRUE(fw.tmr_set);
    ASSERT_EQ_U(fw.loaded_types, expected_types);
    ASSERT_EQ(fw.psp_commands, 8); /* SETUP_TMR + 7 images */
    ASSERT_EQ(fw.psp_failed_commands, 0);
    ASSERT_TRUE(fw.mec1_running);
    ASSERT_TRUE(fw.rlc_running);
    ASSERT_TRUE(fw.sdma_powered);
    ASSERT_FALSE(fw.gfxoff_allowed);
    /* The MEC image (the file's ucode without its jump table) is in the
     * TMR, where the PSP put it after SDMA0's 16 KiB. */
    const struct ucode_file *mec = &dev->firmware[UCODE_MEC];
    ASSERT_EQ(mec->piece_count, 2);
    ASSERT_MEM_EQ((uint8_t *)dev->psp.tmr + 16384, mec->pieces[0].data, mec->pieces[0].size);
    /* Golden settings: GB_ADDR_CONFIG per chip (gfx_v9_0.c). */
    ASSERT_EQ_U(RREG(dev, REG_GC_GB_ADDR_CONFIG), chips[c].gb_addr_config);
    amdgpu_device_remove(dev);
  }
}

TEST(amdgpu_missing_firmware_file_is_a_clear_error) {
  struct amdgpu_device *dev = (void *)1;
  ASSERT_EQ(probe(VAPU_RAVEN, "/amdgpu/missing", NULL, &dev), -ENOENT);
  ASSERT_NULL(dev);
  ASSERT_EQ(probe(VAPU_RENOIR, "/no-such-directory", NULL, &dev), -ENOENT);
  ASSERT_NULL(dev);
}

TEST(amdgpu_bad_firmware_header_is_a_clear_error) {
  struct amdgpu_device *dev = (void *)1;
  ASSERT_EQ(probe(VAPU_RAVEN, "/amdgpu/bad", NULL, &dev), -EINVAL);
  ASSERT_NULL(dev);
}

/* A PSP that refuses every image: its statuses are warnings (as in Linux:
 * some sOS versions write non-zero on success), and the MEC's self-test
 * finds that nothing runs. */
TEST(amdgpu_psp_error_status_is_a_clear_error) {
  struct vapu_faults f = {.psp_firmware_status = TEE_ERROR_BAD_FORMAT};
  struct amdgpu_device *dev = (void *)1;
  uint64_t t0 = plat_now_ns();
  ASSERT_EQ(probe(VAPU_PICASSO, NULL, &f, &dev), -ETIMEDOUT);
  ASSERT_NULL(dev);
  ASSERT_LT(plat_now_ns() - t0, 5ull * 1000000000);
}

TEST(amdgpu_psp_that_never_completes_times_out) {
  struct vapu_faults f = {.psp_ring_silent = true};
  struct amdgpu_device *dev = (void *)1;
  uint64_t t0 = plat_now_ns();
  ASSERT_EQ(probe(VAPU_RAVEN2, NULL, &f, &dev), -ETIMEDOUT);
  ASSERT_NULL(dev);
  ASSERT_LT(plat_now_ns() - t0, 10ull * 1000000000);
}

/* ---- The header checks, on copies of the good files with one field wrong ---- */

struct fw_copy {
  uint8_t *data;
  size_t size;
};

static struct fw_copy load(const char *name) {
  char path[96];
  snprintf(path, sizeof path, "/amdgpu/%s", name);
  struct fw_copy f = {0};
  f.data = plat_file_load(path, &f.size);
  return f;
}

static void put32(uint8_t *p, size_t offset, uint32_t v) { memcpy(p + offset, &v, 4); }
static void put16(uint8_t *p, size_t offset, uint16_t v) { memcpy(p + offset, &v, 2); }

/* Parses `good` with the 32-bit field at `offset` set to `value`: must fail. */
static int parse_with(const struct fw_copy *good, enum ucode_kind kind, size_t offset, uint32_t value) {
  uint8_t *copy = malloc(good->size);
  memcpy(copy, good->data, good->size);
  put32(copy, offset, value);
  struct ucode_file out;
  int r = ucode_parse("test", copy, good->size, kind, &out);
  free(copy);
  return r;
}

TEST(amdgpu_firmware_headers_are_checked_field_by_field) {
  struct fw_copy mec = load("raven_mec.bin"), rlc = load("raven_kicker_rlc.bin"), sdma = load("raven_sdma.bin");
  ASSERT_NOT_NULL(mec.data);
  ASSERT_NOT_NULL(rlc.data);
  ASSERT_NOT_NULL(sdma.data);
  struct ucode_file out;
  /* The good files and what the PSP gets from them. */
  ASSERT_EQ(ucode_parse("mec", mec.data, mec.size, UCODE_MEC, &out), 0);
  ASSERT_EQ(out.piece_count, 2);
  ASSERT_EQ(out.pieces[0].psp_type, PSP_FW_CP_MEC);
  ASSERT_EQ(out.pieces[0].size, 32768 - 2048);
  ASSERT_PTR_EQ(out.pieces[0].data, mec.data + 0x100);
  ASSERT_EQ(out.pieces[1].psp_type, PSP_FW_CP_MEC_ME1);
  ASSERT_EQ(out.pieces[1].size, 2048);
  ASSERT_PTR_EQ(out.pieces[1].data, mec.data + 0x100 + 30720);
  ASSERT_EQ(ucode_parse("rlc", rlc.data, rlc.size, UCODE_RLC, &out), 0);
  ASSERT_EQ(out.piece_count, 4);
  ASSERT_EQ(out.pieces[0].psp_type, PSP_FW_RLC_RESTORE_LIST_SRM_CNTL);
  ASSERT_EQ(out.pieces[3].psp_type, PSP_FW_RLC_G);
  ASSERT_EQ(out.pieces[3].size, 16384);
  ASSERT_EQ(ucode_parse("sdma", sdma.data, sdma.size, UCODE_SDMA, &out), 0);
  ASSERT_EQ(out.piece_count, 1);
  ASSERT_EQ(out.pieces[0].psp_type, PSP_FW_SDMA0);
  /* A file of the wrong kind: the header version says so. */
  ASSERT_EQ(ucode_parse("rlc as mec", rlc.data, rlc.size, UCODE_MEC, &out), -EINVAL);
  /* Common header fields (amdgpu_ucode.h offsets). */
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 0, (uint32_t)mec.size + 4), -EINVAL);   /* size_bytes */
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 4, 20), -EINVAL);                        /* header_size_bytes */
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 4, (uint32_t)mec.size + 1), -EINVAL);
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 20, 0), -EINVAL);                        /* ucode_size_bytes */
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 20, 32766), -EINVAL);
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 20, 32768 + 4), -EINVAL);
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 24, 8), -EINVAL);                        /* offset in the header */
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 24, 0x104), -EINVAL);                    /* ucode past the end */
  /* MEC jump table. */
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 40, 0), -EINVAL);                        /* jt_size */
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 36, 8192 - 511), -EINVAL);               /* jt_offset */
  ASSERT_EQ(parse_with(&mec, UCODE_MEC, 40, 8192), -EINVAL);
  /* RLC register and save/restore lists (offsets from the start of the file). */
  ASSERT_EQ(parse_with(&rlc, UCODE_RLC, 32 + 11 * 4, (uint32_t)rlc.size), -EINVAL);       /* reg_list_format_array_offset */
  ASSERT_EQ(parse_with(&rlc, UCODE_RLC, 32 + 12 * 4, (uint32_t)rlc.size), -EINVAL);       /* reg_list_size_bytes */
  ASSERT_EQ(parse_with(&rlc, UCODE_RLC, 104 + 4 * 4, (uint32_t)rlc.size - 16), -EINVAL);  /* cntl offset */
  ASSERT_EQ(parse_with(&rlc, UCODE_RLC, 104 + 11 * 4, 0x7fffffff), -EINVAL);             /* srm size */
  ASSERT_EQ(parse_with(&rlc, UCODE_RLC, 4, 104), -EINVAL); /* says v2.1, header of v2.0 */
  /* v2.0 (minor 0): the lists of v2.1 are not looked at. */
  uint8_t *v20 = malloc(rlc.size);
  memcpy(v20, rlc.data, rlc.size);
  put16(v20, 10, 0);
  put32(v20, 104 + 4 * 4, 0xffffffff);
  ASSERT_EQ(ucode_parse("rlc v2.0", v20, rlc.size, UCODE_RLC, &out), 0);
  ASSERT_EQ(out.piece_count, 1);
  free(v20);
  /* SDMA jump table. */
  ASSERT_EQ(parse_with(&sdma, UCODE_SDMA, 40, 4096), -EINVAL);
  /* Every truncation of every file is refused. */
  for (size_t n = 0; n < mec.size; n += 97)
    ASSERT_EQ(ucode_parse("cut", mec.data, n, UCODE_MEC, &out), -EINVAL);
  for (size_t n = 0; n < rlc.size; n += 89)
    ASSERT_EQ(ucode_parse("cut", rlc.data, n, UCODE_RLC, &out), -EINVAL);
  free(mec.data);
  free(rlc.data);
  free(sdma.data);
}

TEST(amdgpu_queues_run_only_with_mec_firmware) {
  /* The PSP says it loaded the MEC jump table but did not: the MEC has no
   * complete firmware. Its HQDs load (CP_HQD_ACTIVE is a register) but
   * nothing runs them, which the bring-up's self-test finds. */
  struct vapu_faults f = {.psp_drops_fw_type = PSP_FW_CP_MEC_ME1};
  struct amdgpu_device *dev = (void *)1;
  ASSERT_EQ(probe(VAPU_RAVEN, NULL, &f, &dev), -ETIMEDOUT);
  ASSERT_NULL(dev);
}
