/* amdgpu_psp.c - the platform security processor (MP0). Its secure OS was
 * loaded by the BIOS on these APUs; the driver never loads SOS. It checks
 * the sign of life and that the mailbox is ready for ring commands.
 * Linux psp_v12_0.c / psp_v11_0.c: sOS alive when C2PMSG_81 != 0
 * (psp_v12_0_bootloader_load_sos); psp_v10_0.c / psp_v12_0.c ring_create:
 * bit 31 of C2PMSG_64 = mailbox ready. */
#define LOG_TAG "psp"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/mp_10_0.h"
#include "lib/plat.h"

#define PSP_SIGN_OF_LIFE_TIMEOUT_US 500000
#define PSP_MAILBOX_READY 0x80000000u

int psp_init_hw(struct amdgpu_device *dev) {
  uint32_t sol = soc15_reg(dev, IP_MP0, 0, MP0_SMN_C2PMSG_81);
  uint64_t deadline = plat_now_ns() + PSP_SIGN_OF_LIFE_TIMEOUT_US * 1000ull;
  while ((dev->sos_version = amdgpu_rreg(dev, sol)) == 0 || dev->sos_version == 0xffffffffu) {
    if (plat_now_ns() > deadline) {
      log_error("PSP (MP0 %u.%u) shows no sign of life: C2PMSG_81 = 0x%08x after %u ms; "
                "the secure OS must be running (loaded by the BIOS)",
                dev->ip[IP_MP0].major, dev->ip[IP_MP0].minor, dev->sos_version,
                PSP_SIGN_OF_LIFE_TIMEOUT_US / 1000);
      return -ETIMEDOUT;
    }
    plat_sleep_ns(100000);
  }
  int r = amdgpu_wait_reg(dev, soc15_reg(dev, IP_MP0, 0, MP0_SMN_C2PMSG_64), PSP_MAILBOX_READY,
                          PSP_MAILBOX_READY, PSP_SIGN_OF_LIFE_TIMEOUT_US);
  if (r) {
    log_error("PSP mailbox not ready: C2PMSG_64 bit 31 still clear after %u ms",
              PSP_SIGN_OF_LIFE_TIMEOUT_US / 1000);
    return r;
  }
  log_info("sOS running, version 0x%08x", dev->sos_version);
  return 0;
}
