/* amdgpu_smu.c - the system management unit (MP1) mailbox. Its firmware
 * was loaded by the BIOS; the driver never loads SMC firmware.
 * Protocol: Linux pm/powerplay/smumgr/smu10_smumgr.c (Raven) and
 * pm/swsmu/smu12/smu_v12_0.c (Renoir): wait for a non-zero response in
 * C2PMSG_90, clear it, argument to C2PMSG_82, message to C2PMSG_66, wait
 * for the response, read the returned value from C2PMSG_82. */
#define LOG_TAG "smu"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/mp_10_0.h"
#include "drivers/amdgpu/regs/smu_msg.h"
#include "lib/plat.h"

#define SMU_TIMEOUT_US 1000000

static int wait_response(struct amdgpu_device *dev, uint32_t *response) {
  uint32_t reg = soc15_reg(dev, IP_MP1, 0, MP1_SMN_C2PMSG_90);
  uint64_t deadline = plat_now_ns() + SMU_TIMEOUT_US * 1000ull;
  while ((*response = amdgpu_rreg(dev, reg)) == 0) {
    if (plat_now_ns() > deadline) return -ETIMEDOUT;
    plat_sleep_ns(1000);
  }
  return 0;
}

int smu_send_message(struct amdgpu_device *dev, uint32_t message, uint32_t argument,
                     uint32_t *returned) {
  uint32_t response;
  if (wait_response(dev, &response)) {
    log_error("SMU busy: no response to the previous message in C2PMSG_90 after %u ms",
              SMU_TIMEOUT_US / 1000);
    return -ETIMEDOUT;
  }
  WREG(dev, IP_MP1, 0, MP1_SMN_C2PMSG_90, 0);
  WREG(dev, IP_MP1, 0, MP1_SMN_C2PMSG_82, argument);
  WREG(dev, IP_MP1, 0, MP1_SMN_C2PMSG_66, message);
  if (wait_response(dev, &response)) {
    log_error("SMU did not answer message 0x%x within %u ms", message, SMU_TIMEOUT_US / 1000);
    return -ETIMEDOUT;
  }
  if (response != PPSMC_Result_OK) {
    log_error("SMU refused message 0x%x: response 0x%x", message, response);
    return -EIO;
  }
  if (returned) *returned = RREG(dev, IP_MP1, 0, MP1_SMN_C2PMSG_82);
  return 0;
}

int smu_init_hw(struct amdgpu_device *dev) {
  int r = smu_send_message(dev, PPSMC_MSG_GetSmuVersion, 0, &dev->smu_version);
  if (r) return r;
  r = smu_send_message(dev, PPSMC_MSG_GetMaxGfxclkFrequency, 0, &dev->max_gfxclk_mhz);
  if (r) return r;
  /* GFXOFF powers the graphics core down when it looks idle; a compute
   * queue the driver programs through registers must not find it off, so
   * it stays disabled (Linux smu10_disable_gfx_off, amdgpu_gfx_off_ctrl). */
  r = smu_send_message(dev, PPSMC_MSG_DisableGfxOff, 0, NULL);
  if (r) return r;
  log_info("SMU %u.%u firmware %u.%u.%u, max GFX clock %u MHz, GFXOFF disabled", dev->ip[IP_MP1].major,
           dev->ip[IP_MP1].minor, dev->smu_version >> 16, (dev->smu_version >> 8) & 0xff,
           dev->smu_version & 0xff, dev->max_gfxclk_mhz);
  return 0;
}

/* SDMA is power gated by default on these APUs (smu_v12_0_ppsmc.h); the
 * SMU powers it up once its firmware is loaded (Linux sdma_v4_0_hw_init on
 * an APU: amdgpu_dpm_set_powergating_by_smu -> PowerUpSdma). */
int sdma_init_hw(struct amdgpu_device *dev) {
  int r = smu_send_message(dev, PPSMC_MSG_PowerUpSdma, 0, NULL);
  if (!r) log_info("SDMA0 powered up");
  return r;
}

void sdma_fini_hw(struct amdgpu_device *dev) { smu_send_message(dev, PPSMC_MSG_PowerDownSdma, 0, NULL); }
