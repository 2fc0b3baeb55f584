/* amdgpu_gfx.c - the graphics core's configuration as far as compute
 * needs it: how many CUs are active in each shader array. Linux gfx_v9_0.c
 * gfx_v9_0_get_cu_info / get_cu_active_bitmap: select the SE/SH through
 * GRBM_GFX_INDEX, inactive CUs = (CC_GC_SHADER_ARRAY_CONFIG |
 * GC_USER_SHADER_ARRAY_CONFIG).INACTIVE_CUS, then broadcast again.
 * gfx9: 4 SIMDs per CU, 10 wave slots per SIMD, 64 KiB LDS (AMD Vega ISA
 * guide, section 2; Linux gfx_v9_0 max_waves_per_simd). */
#define LOG_TAG "gfx"
#include <errno.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/gc_9_1.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "lib/plat.h"

#define GFX9_WAVES_PER_SIMD 10
#define GFX9_LDS_BYTES 65536

static void select_se_sh(struct amdgpu_device *dev, uint32_t se, uint32_t sh, bool broadcast) {
  uint32_t v = GRBM_GFX_INDEX__INSTANCE_BROADCAST_WRITES;
  v |= broadcast ? GRBM_GFX_INDEX__SE_BROADCAST_WRITES | GRBM_GFX_INDEX__SH_BROADCAST_WRITES
                 : REG_FIELD(GRBM_GFX_INDEX__SE_INDEX, se) | REG_FIELD(GRBM_GFX_INDEX__SH_INDEX, sh);
  WREG(dev, REG_GC_GRBM_GFX_INDEX, v);
}

static int gfx_init_hw(struct amdgpu_device *dev) {
  gfx_apply_golden_settings(dev);
  log_info("golden settings applied, GB_ADDR_CONFIG 0x%08x", RREG(dev, REG_GC_GB_ADDR_CONFIG));
  if (!dev->chip->uses_discovery) { /* Renoir's came from the discovery GC table */
    dev->shader_engines = dev->chip->shader_engines;
    dev->sh_per_se = dev->chip->sh_per_se;
    dev->cu_per_sh = dev->chip->cu_per_sh;
    dev->wave_size = 64;
    dev->waves_per_simd = GFX9_WAVES_PER_SIMD;
    dev->lds_bytes = GFX9_LDS_BYTES;
  }
  if (dev->cu_per_sh > 16) {
    log_error("%u CUs per shader array: more than the 16 INACTIVE_CUS bits", dev->cu_per_sh);
    return -EINVAL;
  }
  /* A queue's CU masks name 4 SEs of 2 SHs (the MQD's
   * COMPUTE_STATIC_THREAD_MGMT_SE0..3, SH0/SH1_CU_EN). */
  if (dev->shader_engines > 4 || dev->sh_per_se > 2) {
    log_error("%u SEs x %u SHs: more than a gfx9 queue's CU masks name (4 x 2)", dev->shader_engines,
              dev->sh_per_se);
    return -EINVAL;
  }
  uint32_t all = (1u << dev->cu_per_sh) - 1;
  dev->active_cus = 0;
  for (uint32_t se = 0; se < dev->shader_engines; se++)
    for (uint32_t sh = 0; sh < dev->sh_per_se; sh++) {
      select_se_sh(dev, se, sh, false);
      uint32_t inactive = (RREG(dev, REG_GC_CC_GC_SHADER_ARRAY_CONFIG) |
                           RREG(dev, REG_GC_GC_USER_SHADER_ARRAY_CONFIG)) >>
                          CC_GC_SHADER_ARRAY_CONFIG__INACTIVE_CUS_SHIFT;
      dev->active_cu_bitmap[se][sh] = (uint16_t)(~inactive & all);
      dev->active_cus += (uint32_t)__builtin_popcount(~inactive & all);
    }
  select_se_sh(dev, 0, 0, true);
  if (!dev->active_cus) {
    log_error("no active compute unit (all fused off)");
    return -ENODEV;
  }
  log_info("%s: %u SE x %u SH x %u CU, %u active, %u waves/SIMD", dev->chip->gfx_target,
           dev->shader_engines, dev->sh_per_se, dev->cu_per_sh, dev->active_cus, dev->waves_per_simd);
  return 0;
}

/* KFD's mapping of a queue's CU mask onto the shader engines
 * (kfd_mqd_manager.c mqd_symmetrically_map_cu_mask): bit i of the mask is
 * the i-th active CU counted CU by CU across the SHs and SEs (SE0 SH0 CU0,
 * SE1 SH0 CU0, ..., SE0 SH1 CU0, ..., SE0 SH0 CU1, ...), and lands in its
 * SE's mask at bit (CU + 16 * SH), CU counting the active CUs of the SH
 * (the hardware places the harvested ones itself). */
uint32_t gfx_cu_mask_to_se_masks(const struct amdgpu_device *dev, const uint32_t *mask, uint32_t count,
                                 uint32_t se_mask[4]) {
  se_mask[0] = se_mask[1] = se_mask[2] = se_mask[3] = 0;
  uint32_t i = 0, enabled = 0;
  for (uint32_t cu = 0; cu < 16; cu++)
    for (uint32_t sh = 0; sh < dev->sh_per_se; sh++)
      for (uint32_t se = 0; se < dev->shader_engines; se++) {
        if ((uint32_t)__builtin_popcount(dev->active_cu_bitmap[se][sh]) <= cu) continue;
        if (i >= count) return enabled;
        if (mask[i / 32] & (1u << (i % 32))) {
          se_mask[se] |= 1u << (cu + sh * 16);
          enabled++;
        }
        i++;
      }
  return enabled;
}

/* golden settings, active CUs */
const struct amdgpu_ip_funcs gfx_block = {.name = "gfx", .init_hw = gfx_init_hw};
