/* amdgpu_firmware.c - the firmware files a chip needs, by linux-firmware's
 * names, read from the boot file system (default directory /amdgpu, boot
 * option amdgpu_fw=<dir>) and checked (amdgpu_ucode.c) before the PSP gets
 * any of it.
 *
 * Which files (compute needs the MEC and the RLC; SDMA is loaded and
 * powered because the issue asks for it and copies may use it):
 *   <chip>_mec.bin   MEC1 with its jump table     (Linux gfx_v9_0_init_cp_compute_microcode)
 *   <chip>_rlc.bin   RLC, save/restore lists      (gfx_v9_0_init_rlc_microcode: picasso_rlc_am4.bin
 *                    on AM4 Picasso = PCI revision 0xC8-0xCF or 0xD8-0xDF; raven_kicker_rlc.bin
 *                    when the SMU firmware is 0x41e2b or later)
 *   <chip>_sdma.bin  SDMA0                        (sdma_v4_0_init_microcode)
 * Not loaded: <chip>_mec2.bin (ME2 stays halted: queues use MEC1, as KFD),
 * <chip>_pfp/me/ce.bin (graphics rings only), <chip>_asd.bin (the PSP's
 * security driver for protected content TAs), <chip>_gpu_info.bin (the
 * shader array sizes come from the chip table and the fuses). */
#define LOG_TAG "firmware"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"

PLAT_OPTION(amdgpu_fw, "amdgpu_fw", "directory of the GPU firmware files on the ESP (default /amdgpu)");

#define DEFAULT_FIRMWARE_DIR "/amdgpu"
#define RAVEN_KICKER_SMU_VERSION 0x41e2bu

static const char *const kind_suffix[] = {[UCODE_MEC] = "mec", [UCODE_RLC] = "rlc", [UCODE_SDMA] = "sdma"};

/* The file name of `kind` for this chip, after linux-firmware. */
static void file_name(const struct amdgpu_device *dev, enum ucode_kind kind, char *out, size_t n) {
  const char *chip = dev->chip->name;
  if (kind == UCODE_RLC && dev->chip->rlc_am4_firmware &&
      ((dev->revision >= 0xc8 && dev->revision <= 0xcf) || (dev->revision >= 0xd8 && dev->revision <= 0xdf)))
    snprintf(out, n, "%s_rlc_am4.bin", chip);
  else if (kind == UCODE_RLC && dev->chip->rlc_kicker_firmware && dev->smu_version >= RAVEN_KICKER_SMU_VERSION)
    snprintf(out, n, "%s_kicker_rlc.bin", chip);
  else
    snprintf(out, n, "%s_%s.bin", chip, kind_suffix[kind]);
}

static int load_one(struct amdgpu_device *dev, const char *dir, enum ucode_kind kind) {
  struct ucode_file *f = &dev->firmware[kind];
  char name[40], path[sizeof f->path];
  file_name(dev, kind, name, sizeof name);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  size_t size = 0;
  uint8_t *data = plat_file_load(path, &size);
  if (!data) {
    log_error("%s: cannot read (%s). Copy linux-firmware's amdgpu/%s to \\amdgpu\\ on the ESP "
              "(or name the directory with amdgpu_fw=)", path, strerror(errno), name);
    return -ENOENT;
  }
  int r = ucode_parse(path, data, size, kind, f);
  if (r) {
    free(data);
    return r;
  }
  f->data = data;
  log_info("%s: %zu bytes, ucode version 0x%x, feature %u, header v%u.%u, %d image(s) for the PSP",
           path, size, f->ucode_version, f->feature_version, f->header_major, f->header_minor,
           f->piece_count);
  return 0;
}

static int ucode_init_hw(struct amdgpu_device *dev) {
  const char *dir = dev->firmware_dir[0] ? dev->firmware_dir : plat_option("amdgpu_fw");
  if (!dir || !*dir) dir = DEFAULT_FIRMWARE_DIR;
  for (int kind = 0; kind < 3; kind++) {
    int r = load_one(dev, dir, (enum ucode_kind)kind);
    if (r) return r;
  }
  return 0;
}

static void ucode_fini_hw(struct amdgpu_device *dev) {
  for (int kind = 0; kind < 3; kind++) {
    free(dev->firmware[kind].data);
    memset(&dev->firmware[kind], 0, sizeof dev->firmware[kind]);
  }
}

/* firmware files read and checked */
const struct amdgpu_ip_funcs ucode_block = {
    .name = "ucode",
    .init_hw = ucode_init_hw,
    .fini_hw = ucode_fini_hw,
};
