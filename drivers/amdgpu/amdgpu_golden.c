/* amdgpu_golden.c - the "golden" register settings of the graphics core:
 * values the hardware team requires on top of the reset state, per chip.
 * Tables: Linux gfx_v9_0.c golden_settings_gc_9_1 (Raven family),
 * golden_settings_gc_9_1_rv1 (Raven, Picasso), golden_settings_gc_9_1_rv2
 * (Raven2), golden_settings_gc_9_1_rn (Renoir), golden_settings_gc_9_x_common
 * (all but Renoir), applied in gfx_v9_0_init_golden_registers' order;
 * the registers, with their segments, in regs/gc_9_1_golden.h. Each entry:
 * register, AND mask, OR value, with soc15_program_register_sequence's
 * meaning: a full mask writes the value, else the masked bits are replaced
 * by the value's. GB_ADDR_CONFIG is among them (Raven 0x24000042, Raven2
 * 0x26013041, Renoir 0x24000042). */
#define LOG_TAG "gfx"
#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "drivers/amdgpu/regs/gc_9_1_golden.h"
#include "lib/plat.h"
#include "lib/util.h"

struct golden { struct amdgpu_reg reg; uint32_t and_mask, or_value; const char *name; };
/* A row: the GC register REG_GC_<name>, and its name for the trace. */
#define G(name, and_mask, or_value) {REG_GC_##name, and_mask, or_value, #name}

static const struct golden gc_9_1[] = {
    G(CB_HW_CONTROL, 0xfffdf3cf, 0x00014104),
    G(CPC_UTCL1_CNTL, 0x08000000, 0x08000080),
    G(CPF_UTCL1_CNTL, 0x08000000, 0x08000080),
    G(CPG_UTCL1_CNTL, 0x08000000, 0x08000080),
    G(DB_DEBUG2, 0xf00fffff, 0x00000420),
    G(GB_GPU_ID, 0x0000000f, 0x00000000),
    G(IA_UTCL1_CNTL, 0x08000000, 0x08000080),
    G(PA_SC_BINNER_EVENT_CNTL_3, 0x00000003, 0x82400024),
    G(PA_SC_ENHANCE, 0x3fffffff, 0x00000001),
    G(PA_SC_LINE_STIPPLE_STATE, 0x0000ff0f, 0x00000000),
    G(RLC_GPM_UTCL1_CNTL_0, 0x08000000, 0x08000080),
    G(RLC_GPM_UTCL1_CNTL_1, 0x08000000, 0x08000080),
    G(RLC_GPM_UTCL1_CNTL_2, 0x08000000, 0x08000080),
    G(RLC_PREWALKER_UTCL1_CNTL, 0x08000000, 0x08000080),
    G(RLC_SPM_UTCL1_CNTL, 0x08000000, 0x08000080),
    G(TA_CNTL_AUX, 0xfffffeef, 0x010b0000),
    G(TCP_CHAN_STEER_HI, 0xffffffff, 0x00000000),
    G(TCP_CHAN_STEER_LO, 0xffffffff, 0x00003120),
    G(VGT_CACHE_INVALIDATION, 0x3fff3af3, 0x19200000),
    G(VGT_GS_MAX_WAVE_ID, 0x00000fff, 0x000000ff),
    G(WD_UTCL1_CNTL, 0x08000000, 0x08000080),
    G(CP_MEC1_F32_INT_DIS, 0x00000800, 0x00000800),
    G(CP_MEC2_F32_INT_DIS, 0x00000800, 0x00000800),
    G(CP_DEBUG, 0x00008000, 0x00008000),
};

static const struct golden gc_9_1_rv1[] = {
    G(CB_HW_CONTROL_3, 0x30000000, 0x10000000),
    G(GB_ADDR_CONFIG, 0xffff77ff, 0x24000042),
    G(GB_ADDR_CONFIG_READ, 0xffff77ff, 0x24000042),
    G(PA_SC_ENHANCE_1, 0xffffffff, 0x04048000),
    G(PA_SC_MODE_CNTL_1, 0x06000000, 0x06000000),
    G(RMI_UTCL1_CNTL2, 0x00030000, 0x00020000),
    G(TD_CNTL, 0x01bd9f33, 0x00000800),
};

static const struct golden gc_9_1_rv2[] = {
    G(CB_DCC_CONFIG, 0xff7fffff, 0x04000000),
    G(CB_HW_CONTROL, 0xfffdf3cf, 0x00014104),
    G(CB_HW_CONTROL_2, 0xff7fffff, 0x0a000000),
    G(CPC_UTCL1_CNTL, 0x7f0fffff, 0x08000080),
    G(CPF_UTCL1_CNTL, 0xff8fffff, 0x08000080),
    G(CPG_UTCL1_CNTL, 0x7f8fffff, 0x08000080),
    G(GB_ADDR_CONFIG, 0xffff77ff, 0x26013041),
    G(GB_ADDR_CONFIG_READ, 0xffff77ff, 0x26013041),
    G(IA_UTCL1_CNTL, 0x3f8fffff, 0x08000080),
    G(PA_SC_ENHANCE_1, 0xffffffff, 0x04040000),
    G(RLC_GPM_UTCL1_CNTL_0, 0xff0fffff, 0x08000080),
    G(RLC_GPM_UTCL1_CNTL_1, 0xff0fffff, 0x08000080),
    G(RLC_GPM_UTCL1_CNTL_2, 0xff0fffff, 0x08000080),
    G(RLC_PREWALKER_UTCL1_CNTL, 0xff0fffff, 0x08000080),
    G(RLC_SPM_UTCL1_CNTL, 0xff0fffff, 0x08000080),
    G(TCP_CHAN_STEER_HI, 0xffffffff, 0x00000000),
    G(TCP_CHAN_STEER_LO, 0xffffffff, 0x00000010),
    G(TD_CNTL, 0x01bd9f33, 0x01000000),
    G(WD_UTCL1_CNTL, 0x3f8fffff, 0x08000080),
};

static const struct golden gc_9_1_rn[] = {
    G(CB_HW_CONTROL, 0xfffdf3cf, 0x00014104),
    G(CB_HW_CONTROL_2, 0xff7fffff, 0x0a000000),
    G(DB_DEBUG2, 0xf00fffff, 0x00000400),
    G(GB_ADDR_CONFIG, 0xf3e777ff, 0x24000042),
    G(GB_ADDR_CONFIG_READ, 0xf3e777ff, 0x24000042),
    G(PA_SC_ENHANCE, 0x3fffffff, 0x00000001),
    G(PA_SC_ENHANCE_1, 0xffffffff, 0x04040000),
    G(PA_SC_LINE_STIPPLE_STATE, 0x0000ff0f, 0x00000000),
    G(TA_CNTL_AUX, 0xfffffeef, 0x010b0000),
    G(TCP_CHAN_STEER_HI, 0xffffffff, 0x00000000),
    G(TCP_CHAN_STEER_LO, 0xffffffff, 0x00003120),
    G(GCEA_PROBE_MAP, 0xffffffff, 0x0000cccc), /* defined in gfx_v9_0.c */
};

static const struct golden gc_9_x_common[] = {
    G(CP_SD_CNTL, 0xffffffff, 0x000001ff),
    G(GRBM_CAM_INDEX, 0xffffffff, 0x00000000),
    G(GRBM_CAM_DATA, 0xffffffff, 0x2544c382),
};

static void program(struct amdgpu_device *dev, const struct golden *g, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint32_t value = g[i].or_value;
    if (g[i].and_mask != 0xffffffffu)
      value = (RREG(dev, g[i].reg) & ~g[i].and_mask) | (g[i].or_value & g[i].and_mask);
    WREG(dev, g[i].reg, value);
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
      if (amdgpu_reg_index(dev, tables[t].g[i].reg) == index) return tables[t].g[i].name;
  return NULL;
}
