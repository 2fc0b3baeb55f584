/* amdgpu_nbio.c - NBIO (bus interface) and HDP (the host data path: CPU
 * accesses to the frame buffer through BAR0).
 * Sequences: Linux nbio_v7_0.c (doorbell aperture enable, IH control) and
 * hdp_v4_0.c hdp_v4_0_init_registers (flush-invalidate, non-surface base)
 * and the HDP flush through HDP_MEM_COHERENCY_FLUSH_CNTL (nbio_v7_0
 * hdp_flush_reg). The CPU reaches the carve-out at its physical address,
 * not through BAR0 and the HDP (amdgpu_gmc.c), so the driver's own
 * accesses need no HDP flush or invalidation (Linux
 * amdgpu_device_flush_hdp / invalidate_hdp return at once on x86-64
 * APUs); the GART's enabling still flushes it once, as gmc_v9_0 does. */
#define LOG_TAG "nbio"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/hdp_4_0.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "lib/plat.h"

/* Makes CPU writes to the frame buffer visible to the GPU: a write to the
 * flush register, read back so it has landed (Linux amdgpu_device_flush_hdp). */
void hdp_flush(struct amdgpu_device *dev) {
  WREG(dev, REG_NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL, 0);
  (void)RREG(dev, REG_NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL);
}

/* The registers' CPU addresses, found as WREG finds them (NBIO segment 2;
 * Linux amdgpu_discovery.c drives NBIO 7.0.x and Renoir's 2.5.0 with
 * nbio_v7_0, so one offset serves every chip here). */
int amdgpu_hdp_flush_registers(struct amdgpu_device *dev, uint32_t **mem_flush,
                               uint32_t **reg_flush) {
  uint32_t mem = amdgpu_reg_index(dev, REG_NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL);
  uint32_t reg = amdgpu_reg_index(dev, REG_NBIO_HDP_REG_COHERENCY_FLUSH_CNTL);
  volatile uint32_t *m = dev->bus->mmio_word ? dev->bus->mmio_word(dev, mem * 4) : NULL;
  volatile uint32_t *r = dev->bus->mmio_word ? dev->bus->mmio_word(dev, reg * 4) : NULL;
  if (!m || !r) {
    log_error("%s: HDP flush registers (BAR5 0x%x, 0x%x) are not CPU-visible on bus %s",
              dev->chip->name, mem * 4, reg * 4, dev->bus->name);
    return -ENODEV;
  }
  *mem_flush = (uint32_t *)m;
  *reg_flush = (uint32_t *)r;
  return 0;
}

static int nbio_init_hw(struct amdgpu_device *dev) {
  /* Doorbells: BAR2 decodes once the aperture is on. */
  uint32_t aper = RREG(dev, REG_NBIO_RCC_DOORBELL_APER_EN);
  WREG(dev, REG_NBIO_RCC_DOORBELL_APER_EN, aper | RCC_DOORBELL_APER_EN__BIF_DOORBELL_APER_EN);
  /* CPU access to the frame buffer through BAR0. */
  WREG(dev, REG_NBIO_BIF_FB_EN, BIF_FB_EN__FB_READ_EN | BIF_FB_EN__FB_WRITE_EN);
  /* HDP: flushes also invalidate its read cache; the non-surface base is
   * the frame buffer's MC address. */
  uint32_t misc = RREG(dev, REG_HDP_MISC_CNTL);
  WREG(dev, REG_HDP_MISC_CNTL, misc | HDP_MISC_CNTL__FLUSH_INVALIDATE_CACHE);
  WREG(dev, REG_HDP_NONSURFACE_BASE, (uint32_t)(dev->gmc.fb_start >> 8));
  WREG(dev, REG_HDP_NONSURFACE_BASE_HI, (uint32_t)(dev->gmc.fb_start >> 40));
  log_info("doorbell aperture on (BAR2 %llu KiB), HDP set up", (unsigned long long)(dev->bar_size[2] >> 10));
  return 0;
}

static void nbio_fini_hw(struct amdgpu_device *dev) {
  uint32_t aper = RREG(dev, REG_NBIO_RCC_DOORBELL_APER_EN);
  WREG(dev, REG_NBIO_RCC_DOORBELL_APER_EN, aper & ~RCC_DOORBELL_APER_EN__BIF_DOORBELL_APER_EN);
}

/* doorbell aperture, HDP */
const struct amdgpu_ip_funcs nbio_block = {
    .name = "nbio",
    .init_hw = nbio_init_hw,
    .fini_hw = nbio_fini_hw,
};
