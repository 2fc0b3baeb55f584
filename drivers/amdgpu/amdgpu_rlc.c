/* amdgpu_rlc.c - the RLC (run list controller), whose firmware the PSP
 * loaded: stopped, clock gating off, started. Sequence: Linux gfx_v9_0.c
 * gfx_v9_0_rlc_resume / gfx_v9_0_rlc_stop / gfx_v9_0_rlc_start on an APU
 * with PSP loading (no microcode write, no GUI-idle interrupt, 50 us after
 * the start); RLC_CNTL.RLC_ENABLE_F32 (gc_9_0_sh_mask.h).
 * What Linux's gfx_v9_0_rlc_resume does besides, and this driver does not:
 * gfx_v9_0_init_pg (the clear-state buffer, the RLC save/restore list and
 * the power-gating registers), the serdes wait before a gating change,
 * load balancing per watt. They serve GFXOFF and power gating, which stay
 * off here (amdgpu_smu.c): a graphics core that never powers down needs no
 * state saved for its return. */
#define LOG_TAG "rlc"
#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "lib/plat.h"

#define RLC_START_DELAY_NS 50000ull

static int rlc_init_hw(struct amdgpu_device *dev) {
  uint32_t cntl = RREG(dev, REG_GC_RLC_CNTL);
  WREG(dev, REG_GC_RLC_CNTL, cntl & ~RLC_CNTL__RLC_ENABLE_F32);
  WREG(dev, REG_GC_RLC_CGCG_CGLS_CTRL, 0); /* coarse grain clock gating off */
  WREG(dev, REG_GC_RLC_CNTL, cntl | RLC_CNTL__RLC_ENABLE_F32);
  plat_sleep_ns(RLC_START_DELAY_NS);
  log_info("RLC started (firmware 0x%x, feature %u)", dev->firmware[UCODE_RLC].ucode_version,
           dev->firmware[UCODE_RLC].feature_version);
  return 0;
}

static void rlc_fini_hw(struct amdgpu_device *dev) {
  WREG(dev, REG_GC_RLC_CNTL, RREG(dev, REG_GC_RLC_CNTL) & ~RLC_CNTL__RLC_ENABLE_F32);
}

/* RLC started */
const struct amdgpu_ip_funcs rlc_block = {
    .name = "rlc",
    .init_hw = rlc_init_hw,
    .fini_hw = rlc_fini_hw,
};
