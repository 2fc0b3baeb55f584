/* amdgpu_smu.c - the system management unit (MP1) mailbox. Its firmware
 * was loaded by the BIOS; the driver never loads SMC firmware.
 * Protocol: Linux pm/powerplay/smumgr/smu10_smumgr.c (Raven) and
 * pm/swsmu/smu12/smu_v12_0.c (Renoir): wait for a non-zero response in
 * C2PMSG_90, clear it, argument to C2PMSG_82, message to C2PMSG_66, wait
 * for the response, read the returned value from C2PMSG_82. A refusal is an
 * error code the caller weighs: Raven's smu10 ignores responses altogether,
 * Renoir's smu_cmn returns them as errors and its callers decide. */
#define LOG_TAG "smu"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/mp_10_0.h"
#include "drivers/amdgpu/regs/pwr_10_0.h"
#include "drivers/amdgpu/regs/smu_msg.h"
#include "drivers/amdgpu/regs/smuio_12_0.h"
#include "lib/plat.h"

#define SMU_TIMEOUT_US 1000000

static int wait_response(struct amdgpu_device *dev, uint32_t *response) {
  uint32_t reg = amdgpu_reg_index(dev, REG_MP1_SMN_C2PMSG_90);
  uint64_t deadline = plat_now_ns() + SMU_TIMEOUT_US * 1000ull;
  while ((*response = amdgpu_rreg(dev, reg)) == 0) {
    if (plat_now_ns() > deadline) return -ETIMEDOUT;
    plat_sleep_ns(1000);
  }
  return 0;
}

/* PPSMC_Result_* as errors (Linux smu_cmn.c __smu_cmn_reg2errno). */
static int response_errno(uint32_t response) {
  switch (response) {
    case PPSMC_Result_OK: return 0;
    case PPSMC_Result_Failed: return -EIO;
    case PPSMC_Result_UnknownCmd: return -EOPNOTSUPP;
    case PPSMC_Result_CmdRejectedPrereq: return -EINVAL;
    case PPSMC_Result_CmdRejectedBusy: return -EBUSY;
    default: return -EPROTO; /* not a response the protocol defines */
  }
}

int smu_send_message(struct amdgpu_device *dev, uint32_t message, uint32_t argument,
                     uint32_t *returned) {
  uint32_t response;
  if (wait_response(dev, &response)) {
    log_error("SMU busy: no response to the previous message in C2PMSG_90 after %u ms",
              SMU_TIMEOUT_US / 1000);
    return -ETIMEDOUT;
  }
  WREG(dev, REG_MP1_SMN_C2PMSG_90, 0);
  WREG(dev, REG_MP1_SMN_C2PMSG_82, argument);
  WREG(dev, REG_MP1_SMN_C2PMSG_66, message);
  if (wait_response(dev, &response)) {
    log_error("SMU did not answer message 0x%x within %u ms", message, SMU_TIMEOUT_US / 1000);
    return -ETIMEDOUT;
  }
  int r = response_errno(response);
  if (r) log_debug("SMU answered message 0x%x with 0x%x", message, response);
  else if (returned) *returned = RREG(dev, REG_MP1_SMN_C2PMSG_82);
  return r;
}

/* GFXOFF powers the graphics core down when idle, and its registers stop
 * answering; a driver that programs compute queues through them must find
 * it on. The SMU allows GFXOFF only once a driver sent EnableGfxOff (Linux
 * amdgpu_gfx_off_ctrl: gfx_off_state starts false, DisableGfxOff follows
 * only an EnableGfxOff); this driver never does, so the core is normally
 * on and nothing is sent. An OS that allowed GFXOFF leaves it allowed
 * across a warm reboot: then DisableGfxOff, and wait until the core says
 * it is on (PWR_GFXOFF_STATUS = 2: smu10_disable_gfx_off polls
 * smu10_is_gfx_on; smu_v12_0_gfx_off_control waits up to 500 ms). The RLC
 * steps GFXOFF and power gating need (amdgpu_rlc.c) are not done for the
 * same reason. */
#define GFX_ON_TIMEOUT_US    500000
#define PWR_GFXOFF_STATUS_ON 2u

/* Both chips' status registers hold the field at the same bits. */
_Static_assert(PWR_MISC_CNTL_STATUS__PWR_GFXOFF_STATUS_MASK ==
                       SMUIO_GFX_MISC_CNTL__PWR_GFXOFF_STATUS_MASK &&
                   PWR_MISC_CNTL_STATUS__PWR_GFXOFF_STATUS_SHIFT ==
                       SMUIO_GFX_MISC_CNTL__PWR_GFXOFF_STATUS_SHIFT,
               "PWR_GFXOFF_STATUS moved");
static uint32_t gfxoff_status(struct amdgpu_device *dev) {
  return REG_GET_FIELD(RREG(dev, dev->chip->gfxoff_status),
                       PWR_MISC_CNTL_STATUS__PWR_GFXOFF_STATUS);
}

static bool gfx_on(struct amdgpu_device *dev) { return gfxoff_status(dev) == PWR_GFXOFF_STATUS_ON; }

static int keep_gfx_on(struct amdgpu_device *dev) {
  if (gfx_on(dev)) return 0;
  log_info("the graphics core is in GFXOFF (left allowed by an earlier driver): turning it off");
  int r = smu_send_message(dev, PPSMC_MSG_DisableGfxOff, 0, NULL);
  if (r) {
    log_error("SMU refused DisableGfxOff (%d): the graphics core stays off", r);
    return r;
  }
  uint64_t deadline = plat_now_ns() + GFX_ON_TIMEOUT_US * 1000ull;
  while (!gfx_on(dev)) {
    if (plat_now_ns() > deadline) {
      log_error("the graphics core is not on %u ms after DisableGfxOff (PWR_GFXOFF_STATUS %u)",
                GFX_ON_TIMEOUT_US / 1000, gfxoff_status(dev));
      return -ETIMEDOUT;
    }
    plat_sleep_ns(100000);
  }
  return 0;
}

/* First after the IP bases: every later step reads or writes GC registers
 * (gmc_init_sw reads the GFX hub's MC_VM_FB_OFFSET). */
static int smu_init_sw(struct amdgpu_device *dev) { return keep_gfx_on(dev); }

static int smu_init_hw(struct amdgpu_device *dev) {
  /* The firmware version picks firmware files (amdgpu_firmware.c): needed. */
  int r = smu_send_message(dev, PPSMC_MSG_GetSmuVersion, 0, &dev->smu_version);
  if (r) {
    if (r != -ETIMEDOUT) log_error("SMU refused GetSmuVersion (%d)", r);
    return r;
  }
  r = smu_send_message(dev, PPSMC_MSG_GetMaxGfxclkFrequency, 0, &dev->max_gfxclk_mhz);
  if (r == -ETIMEDOUT) return r;
  if (r) {
    log_warn("SMU refused GetMaxGfxclkFrequency (%d): the GPU's clock is reported as unknown", r);
    dev->max_gfxclk_mhz = 0;
  }
  log_info("SMU %u.%u firmware %u.%u.%u, max GFX clock %u MHz, GFXOFF not allowed", dev->ip[IP_MP1].major,
           dev->ip[IP_MP1].minor, dev->smu_version >> 16, (dev->smu_version >> 8) & 0xff,
           dev->smu_version & 0xff, dev->max_gfxclk_mhz);
  return 0;
}

/* GFX out of GFXOFF; SMU version, clocks */
const struct amdgpu_ip_funcs smu_block = {
    .name = "smu",
    .init_sw = smu_init_sw,
    .init_hw = smu_init_hw,
};
