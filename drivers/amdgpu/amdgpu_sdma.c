/* amdgpu_sdma.c - the system DMA engine (SDMA0). The driver runs no SDMA
 * queue of its own (copies here are the CPU's): its part of the bring-up
 * is the engine's power, which the SMU controls on these APUs. */
#define LOG_TAG "sdma"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/smu_msg.h"
#include "lib/plat.h"

/* SDMA is power gated by default on these APUs (smu_v12_0_ppsmc.h); the
 * SMU powers it up once its firmware is loaded (Linux sdma_v4_0_hw_init on
 * an APU: amdgpu_dpm_set_powergating_by_smu -> PowerUpSdma). */
static int sdma_init_hw(struct amdgpu_device *dev) {
  /* Linux sdma_v4_0_hw_init ignores the answer. */
  int r = smu_send_message(dev, PPSMC_MSG_PowerUpSdma, 0, NULL);
  if (r == -ETIMEDOUT) return r;
  if (r) log_warn("SMU refused PowerUpSdma (%d): SDMA0 stays powered down (not used for compute)", r);
  else log_info("SDMA0 powered up");
  return 0;
}

static void sdma_fini_hw(struct amdgpu_device *dev) { smu_send_message(dev, PPSMC_MSG_PowerDownSdma, 0, NULL); }

/* SDMA0 powered up */
const struct amdgpu_ip_funcs sdma_block = {
    .name = "sdma",
    .init_hw = sdma_init_hw,
    .fini_hw = sdma_fini_hw,
};
