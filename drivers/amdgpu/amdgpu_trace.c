/* amdgpu_trace.c - the bring-up's register accesses, one log line each,
 * for a board owner to compare with Linux on the same board (boot option
 * or HSAR_OPTIONS word amdgpu_trace=on; tools/amdgpu-trace-diff puts both
 * in one form and diffs them). A line:
 *
 *   [time core] info  mmio: <seq> <step> <R|W> <index> <value> <block> <register>
 *
 * index: the register's dword index in the register space (what Linux's
 * amdgpu_device_rreg / amdgpu_device_wreg tracepoints print as "reg"),
 * hex; value: hex; step: the bring-up block and phase the access belongs
 * to; block and register: the IP and the name this driver knows it by,
 * "? ?" for one it has no name for. Accesses beyond BAR5 are traced once,
 * as the register they reach (the PCIE_INDEX2/DATA2 pair is not shown),
 * like Linux's tracepoints. After the bring-up tracing stops. */
#define LOG_TAG "mmio"
#include <stdio.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu_dev.h"
#include "drivers/amdgpu/amdgpu_gmc_hub.h"
#include "drivers/amdgpu/regs/gc_9_1.h"
#include "drivers/amdgpu/regs/gc_9_1_cp.h"
#include "drivers/amdgpu/regs/hdp_4_0.h"
#include "drivers/amdgpu/regs/mmhub_9_1.h"
#include "drivers/amdgpu/regs/mp_10_0.h"
#include "drivers/amdgpu/regs/nbio_7_0.h"
#include "drivers/amdgpu/regs/osssys_4_0.h"
#include "drivers/amdgpu/regs/pwr_10_0.h"
#include "drivers/amdgpu/regs/smuio_12_0.h"
#include "lib/plat.h"
#include "lib/util.h"

PLAT_OPTION(amdgpu_trace, "amdgpu_trace",
            "on: log every GPU register read and write of the bring-up (block, register, value, step)");

/* The registers the driver uses (REG_<name>: IP, segment, offset), by
 * name; `count` > 1 for a register array (one per VMID or invalidation
 * engine), printed as name[i]. TRACED_FIXED names one read before the IP
 * bases are known, at its fixed index (REG_<name>_FIXED). */
struct traced_reg {
  struct amdgpu_reg reg;
  uint16_t count;
  const char *name;
};
#define TRACED(name) {REG_##name, 1, #name}
#define TRACED_ARRAY(name, n) {REG_##name, n, #name}
#define TRACED_FIXED(name) {REG_##name##_FIXED, 1, #name}
/* The VM block of a hub (amdgpu_gmc_hub.h), P its IP's prefix. */
#define TRACED_HUB(P, field, reg, count) {REG_##P##_##reg, count, #P "_" #reg},
#define HUB(P) GMC_HUB_REGISTERS(TRACED_HUB, P)

static const struct traced_reg traced[] = {
    TRACED(GC_GRBM_GFX_CNTL),
    TRACED(GC_GRBM_GFX_INDEX),
    TRACED(GC_CP_MEC_CNTL),
    TRACED(GC_SH_MEM_CONFIG),
    TRACED(GC_SH_MEM_BASES),
    TRACED(GC_COMPUTE_TMPRING_SIZE),
    TRACED(GC_GB_ADDR_CONFIG),
    TRACED(GC_CC_GC_SHADER_ARRAY_CONFIG),
    TRACED(GC_GC_USER_SHADER_ARRAY_CONFIG),
    TRACED(GC_CP_MEC_DOORBELL_RANGE_LOWER),
    TRACED(GC_CP_MEC_DOORBELL_RANGE_UPPER),
    TRACED(GC_CP_PQ_WPTR_POLL_CNTL),
    TRACED(GC_CP_PQ_WPTR_POLL_CNTL1),
    TRACED(GC_CP_PQ_STATUS),
    TRACED(GC_CPC_INT_CNTL),
    TRACED_ARRAY(GC_CP_ME1_PIPE0_INT_CNTL, 4),
    TRACED(GC_RLC_CNTL),
    TRACED(GC_RLC_CGCG_CGLS_CTRL),
    TRACED_ARRAY(GC_CP_MQD_BASE_ADDR, GC_CP_HQD_PQ_WPTR_HI - GC_CP_MQD_BASE_ADDR + 1), /* the HQD */
    HUB(GC) HUB(MMHUB) TRACED(NBIO_RCC_DOORBELL_APER_EN),
    TRACED(NBIO_RCC_CONFIG_MEMSIZE),
    TRACED(NBIO_INTERRUPT_CNTL),
    TRACED(NBIO_INTERRUPT_CNTL2),
    TRACED(NBIO_BIF_FB_EN),
    TRACED(NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL),
    TRACED(NBIO_HDP_REG_COHERENCY_FLUSH_CNTL),
    TRACED(NBIO_RCC_DEV0_EPF0_STRAP0),
    TRACED(NBIO_PCIE_INDEX2),
    TRACED(NBIO_PCIE_DATA2),
    TRACED_FIXED(NBIO_MM_INDEX),
    TRACED_FIXED(NBIO_MM_DATA),
    TRACED_FIXED(NBIO_MM_INDEX_HI),
    TRACED_FIXED(NBIO_RCC_DEV0_EPF0_STRAP0),
    TRACED_FIXED(NBIO_RCC_CONFIG_MEMSIZE),
    TRACED_FIXED(MP0_SMN_C2PMSG_33),
    TRACED(HDP_MISC_CNTL),
    TRACED(HDP_NONSURFACE_BASE),
    TRACED(HDP_NONSURFACE_BASE_HI),
    TRACED(HDP_READ_CACHE_INVALIDATE),
    TRACED(IH_RB_CNTL),
    TRACED(IH_RB_BASE),
    TRACED(IH_RB_BASE_HI),
    TRACED(IH_RB_RPTR),
    TRACED(IH_RB_WPTR),
    TRACED(IH_RB_WPTR_ADDR_LO),
    TRACED(IH_RB_WPTR_ADDR_HI),
    TRACED(IH_DOORBELL_RPTR),
    TRACED(IH_CHICKEN),
    TRACED(MP0_SMN_C2PMSG_33),
    TRACED(MP0_SMN_C2PMSG_64),
    TRACED(MP0_SMN_C2PMSG_67),
    TRACED(MP0_SMN_C2PMSG_69),
    TRACED(MP0_SMN_C2PMSG_70),
    TRACED(MP0_SMN_C2PMSG_71),
    TRACED(MP0_SMN_C2PMSG_81),
    TRACED(MP1_SMN_C2PMSG_66),
    TRACED(MP1_SMN_C2PMSG_82),
    TRACED(MP1_SMN_C2PMSG_90),
    TRACED_FIXED(PWR_MISC_CNTL_STATUS),
    TRACED_FIXED(SMUIO_GFX_MISC_CNTL),
};

bool amdgpu_trace_enabled(void) {
  const char *v = plat_option("amdgpu_trace");
  return v && (!*v || !strcmp(v, "on") || !strcmp(v, "1"));
}

void amdgpu_register_name(const struct amdgpu_device *dev, uint32_t index, char *out, size_t size) {
  for (size_t i = 0; i < countof(traced); i++) {
    const struct traced_reg *t = &traced[i];
    if (t->reg.seg != SOC15_SEG_FIXED && !dev->ip[t->reg.ip].present) continue;
    uint32_t first = amdgpu_reg_index(dev, t->reg);
    if (index < first || index >= first + t->count) continue;
    if (t->count == 1) snprintf(out, size, "%s %s", amdgpu_ip_name(t->reg.ip), t->name);
    else snprintf(out, size, "%s %s[%u]", amdgpu_ip_name(t->reg.ip), t->name, index - first);
    return;
  }
  const char *golden = dev->ip[IP_GC].present ? gfx_golden_register_name(dev, index) : NULL;
  snprintf(out, size, golden ? "GC %s" : "? ?", golden);
}

void amdgpu_trace_access(struct amdgpu_device *dev, char rw, uint32_t index, uint32_t value) {
  char name[96];
  amdgpu_register_name(dev, index, name, sizeof name);
  plat_log(LOG_INFO, LOG_TAG, "%u %s %c 0x%05x 0x%08x %s", dev->trace_seq++,
           dev->trace_step ? dev->trace_step : "probe", rw, index, value, name);
}
