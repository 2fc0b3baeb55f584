/* amdgpu_golden.c - the "golden" register settings of the graphics core:
 * values the hardware team requires on top of the reset state, per chip.
 * Tables: Linux gfx_v9_0.c golden_settings_gc_9_1 (Raven family),
 * golden_settings_gc_9_1_rv1 (Raven, Picasso), golden_settings_gc_9_1_rv2
 * (Raven2), golden_settings_gc_9_1_rn (Renoir), golden_settings_gc_9_x_common
 * (all but Renoir), applied in gfx_v9_0_init_golden_registers' order;
 * offsets and segments from gc_9_0_offset.h (the header gfx_v9_0.c uses;
 * gc_9_1_offset.h agrees). Each entry: register, AND mask, OR value, with
 * soc15_program_register_sequence's meaning: a full mask writes the value,
 * else the masked bits are replaced by the value's. GB_ADDR_CONFIG is
 * among them (Raven 0x24000042, Raven2 0x26013041, Renoir 0x24000042). */
#define LOG_TAG "gfx"
#include "drivers/amdgpu/amdgpu_dev.h"
#include "lib/plat.h"
#include "lib/util.h"

struct golden { uint16_t offset; uint8_t segment; uint32_t and_mask, or_value; const char *name; };

static const struct golden gc_9_1[] = {
    {0x0680, 0, 0xfffdf3cf, 0x00014104, "CB_HW_CONTROL"},
    {0x103d, 0, 0x08000000, 0x08000080, "CPC_UTCL1_CNTL"},
    {0x103e, 0, 0x08000000, 0x08000080, "CPF_UTCL1_CNTL"},
    {0x103c, 0, 0x08000000, 0x08000080, "CPG_UTCL1_CNTL"},
    {0x060d, 0, 0xf00fffff, 0x00000420, "DB_DEBUG2"},
    {0x0640, 0, 0x0000000f, 0x00000000, "GB_GPU_ID"},
    {0x0246, 0, 0x08000000, 0x08000080, "IA_UTCL1_CNTL"},
    {0x02cf, 0, 0x00000003, 0x82400024, "PA_SC_BINNER_EVENT_CNTL_3"},
    {0x02fc, 0, 0x3fffffff, 0x00000001, "PA_SC_ENHANCE"},
    {0x2281, 1, 0x0000ff0f, 0x00000000, "PA_SC_LINE_STIPPLE_STATE"},
    {0x4cb2, 1, 0x08000000, 0x08000080, "RLC_GPM_UTCL1_CNTL_0"},
    {0x4cb3, 1, 0x08000000, 0x08000080, "RLC_GPM_UTCL1_CNTL_1"},
    {0x4cb4, 1, 0x08000000, 0x08000080, "RLC_GPM_UTCL1_CNTL_2"},
    {0x4ccd, 1, 0x08000000, 0x08000080, "RLC_PREWALKER_UTCL1_CNTL"},
    {0x4cb5, 1, 0x08000000, 0x08000080, "RLC_SPM_UTCL1_CNTL"},
    {0x0542, 0, 0xfffffeef, 0x010b0000, "TA_CNTL_AUX"},
    {0x0b04, 0, 0xffffffff, 0x00000000, "TCP_CHAN_STEER_HI"},
    {0x0b03, 0, 0xffffffff, 0x00003120, "TCP_CHAN_STEER_LO"},
    {0x0231, 0, 0x3fff3af3, 0x19200000, "VGT_CACHE_INVALIDATION"},
    {0x0269, 0, 0x00000fff, 0x000000ff, "VGT_GS_MAX_WAVE_ID"},
    {0x0243, 0, 0x08000000, 0x08000080, "WD_UTCL1_CNTL"},
    {0x10bd, 0, 0x00000800, 0x00000800, "CP_MEC1_F32_INT_DIS"},
    {0x10be, 0, 0x00000800, 0x00000800, "CP_MEC2_F32_INT_DIS"},
    {0x107f, 0, 0x00008000, 0x00008000, "CP_DEBUG"},
};

static const struct golden gc_9_1_rv1[] = {
    {0x0683, 0, 0x30000000, 0x10000000, "CB_HW_CONTROL_3"},
    {0x063e, 0, 0xffff77ff, 0x24000042, "GB_ADDR_CONFIG"},
    {0x0642, 0, 0xffff77ff, 0x24000042, "GB_ADDR_CONFIG_READ"},
    {0x02fd, 0, 0xffffffff, 0x04048000, "PA_SC_ENHANCE_1"},
    {0x0293, 1, 0x06000000, 0x06000000, "PA_SC_MODE_CNTL_1"},
    {0x078c, 0, 0x00030000, 0x00020000, "RMI_UTCL1_CNTL2"},
    {0x0525, 0, 0x01bd9f33, 0x00000800, "TD_CNTL"},
};

static const struct golden gc_9_1_rv2[] = {
    {0x0688, 0, 0xff7fffff, 0x04000000, "CB_DCC_CONFIG"},
    {0x0680, 0, 0xfffdf3cf, 0x00014104, "CB_HW_CONTROL"},
    {0x0682, 0, 0xff7fffff, 0x0a000000, "CB_HW_CONTROL_2"},
    {0x103d, 0, 0x7f0fffff, 0x08000080, "CPC_UTCL1_CNTL"},
    {0x103e, 0, 0xff8fffff, 0x08000080, "CPF_UTCL1_CNTL"},
    {0x103c, 0, 0x7f8fffff, 0x08000080, "CPG_UTCL1_CNTL"},
    {0x063e, 0, 0xffff77ff, 0x26013041, "GB_ADDR_CONFIG"},
    {0x0642, 0, 0xffff77ff, 0x26013041, "GB_ADDR_CONFIG_READ"},
    {0x0246, 0, 0x3f8fffff, 0x08000080, "IA_UTCL1_CNTL"},
    {0x02fd, 0, 0xffffffff, 0x04040000, "PA_SC_ENHANCE_1"},
    {0x4cb2, 1, 0xff0fffff, 0x08000080, "RLC_GPM_UTCL1_CNTL_0"},
    {0x4cb3, 1, 0xff0fffff, 0x08000080, "RLC_GPM_UTCL1_CNTL_1"},
    {0x4cb4, 1, 0xff0fffff, 0x08000080, "RLC_GPM_UTCL1_CNTL_2"},
    {0x4ccd, 1, 0xff0fffff, 0x08000080, "RLC_PREWALKER_UTCL1_CNTL"},
    {0x4cb5, 1, 0xff0fffff, 0x08000080, "RLC_SPM_UTCL1_CNTL"},
    {0x0b04, 0, 0xffffffff, 0x00000000, "TCP_CHAN_STEER_HI"},
    {0x0b03, 0, 0xffffffff, 0x00000010, "TCP_CHAN_STEER_LO"},
    {0x0525, 0, 0x01bd9f33, 0x01000000, "TD_CNTL"},
    {0x0243, 0, 0x3f8fffff, 0x08000080, "WD_UTCL1_CNTL"},
};

static const struct golden gc_9_1_rn[] = {
    {0x0680, 0, 0xfffdf3cf, 0x00014104, "CB_HW_CONTROL"},
    {0x0682, 0, 0xff7fffff, 0x0a000000, "CB_HW_CONTROL_2"},
    {0x060d, 0, 0xf00fffff, 0x00000400, "DB_DEBUG2"},
    {0x063e, 0, 0xf3e777ff, 0x24000042, "GB_ADDR_CONFIG"},
    {0x0642, 0, 0xf3e777ff, 0x24000042, "GB_ADDR_CONFIG_READ"},
    {0x02fc, 0, 0x3fffffff, 0x00000001, "PA_SC_ENHANCE"},
    {0x02fd, 0, 0xffffffff, 0x04040000, "PA_SC_ENHANCE_1"},
    {0x2281, 1, 0x0000ff0f, 0x00000000, "PA_SC_LINE_STIPPLE_STATE"},
    {0x0542, 0, 0xfffffeef, 0x010b0000, "TA_CNTL_AUX"},
    {0x0b04, 0, 0xffffffff, 0x00000000, "TCP_CHAN_STEER_HI"},
    {0x0b03, 0, 0xffffffff, 0x00003120, "TCP_CHAN_STEER_LO"},
    {0x070c, 0, 0xffffffff, 0x0000cccc, "GCEA_PROBE_MAP"}, /* defined in gfx_v9_0.c */
};

static const struct golden gc_9_x_common[] = {
    {0x11b7, 0, 0xffffffff, 0x000001ff, "CP_SD_CNTL"},
    {0x5a04, 1, 0xffffffff, 0x00000000, "GRBM_CAM_INDEX"},
    {0x5a05, 1, 0xffffffff, 0x2544c382, "GRBM_CAM_DATA"},
};

static void program(struct amdgpu_device *dev, const struct golden *g, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint32_t reg = soc15_reg(dev, IP_GC, g[i].segment, g[i].offset);
    uint32_t value = g[i].or_value;
    if (g[i].and_mask != 0xffffffffu)
      value = (amdgpu_rreg(dev, reg) & ~g[i].and_mask) | (g[i].or_value & g[i].and_mask);
    amdgpu_wreg(dev, reg, value);
  }
}
#define PROGRAM(dev, table) program(dev, table, countof(table))

void gfx_apply_golden_settings(struct amdgpu_device *dev) {
  switch (dev->chip->golden) {
    case AMDGPU_GOLDEN_RN:
      PROGRAM(dev, gc_9_1_rn);
      return; /* Renoir takes no common settings (gfx_v9_0_init_golden_registers) */
    case AMDGPU_GOLDEN_RV2:
      PROGRAM(dev, gc_9_1);
      PROGRAM(dev, gc_9_1_rv2);
      break;
    case AMDGPU_GOLDEN_RV1:
      PROGRAM(dev, gc_9_1);
      PROGRAM(dev, gc_9_1_rv1);
      break;
  }
  PROGRAM(dev, gc_9_x_common);
}

const char *gfx_golden_register_name(const struct amdgpu_device *dev, uint32_t index) {
  static const struct { const struct golden *g; size_t n; } tables[] = {
      {gc_9_1, countof(gc_9_1)},       {gc_9_1_rv1, countof(gc_9_1_rv1)},
      {gc_9_1_rv2, countof(gc_9_1_rv2)}, {gc_9_1_rn, countof(gc_9_1_rn)},
      {gc_9_x_common, countof(gc_9_x_common)},
  };
  for (size_t t = 0; t < countof(tables); t++)
    for (size_t i = 0; i < tables[t].n; i++)
      if (soc15_reg(dev, IP_GC, tables[t].g[i].segment, tables[t].g[i].offset) == index) return tables[t].g[i].name;
  return NULL;
}
