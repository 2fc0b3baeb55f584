/* vapu_nbio.c - NBIO (bus interface: strap, memory size, indirect register
 * access), HDP (host data path flushes) and the GC shader array fuses:
 * the blocks whose registers are mostly read-only reset values.
 * Offsets: Linux include/asic_reg/nbio/nbio_7_0_offset.h (BASE_IDX 0 and 2),
 * hdp/hdp_4_0_offset.h, gc/gc_9_1_offset.h. */
#define LOG_TAG "vapu"
#include "vapu/vapu_internal.h"

#define NBIO_PCIE_INDEX2              0x000e /* segment 0 */
#define NBIO_PCIE_DATA2               0x000f /* segment 0 */
#define NBIO_RCC_DEV0_EPF0_STRAP0     0x000f /* segment 2; ATI_REV_ID in [27:24] */
#define NBIO_RCC_CONFIG_MEMSIZE       0x00c3 /* segment 2; MiB */
#define NBIO_RCC_DOORBELL_APER_EN     0x00c0 /* segment 2; BIF_DOORBELL_APER_EN bit 0, reset 0 */
#define NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL 0x00f7 /* segment 2 */
#define HDP_READ_CACHE_INVALIDATE     0x00d1 /* HDP segment 0 */
#define GC_CC_GC_SHADER_ARRAY_CONFIG  0x026f /* GC segment 0; INACTIVE_CUS [31:16] */

/* PCIE_INDEX2 holds a byte address in the register space; PCIE_DATA2
 * reads or writes the register there (Linux amdgpu_device_indirect_rreg). */
static uint32_t pcie_data_read(struct vapu *v, uint32_t index, void *arg) {
  uint32_t address = vapu_reg_get(v, (uint32_t)(uintptr_t)arg);
  return address & 3 ? 0xffffffffu : vapu_reg_access_read(v, address / 4);
}

static void pcie_data_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  uint32_t address = vapu_reg_get(v, (uint32_t)(uintptr_t)arg);
  if (!(address & 3)) vapu_reg_access_write(v, address / 4, value);
}

/* The HDP write path has no cache in the model: CPU writes through BAR0 are
 * already in memory. A flush orders them before what the GPU does next. */
static void hdp_flush(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  vapu_stat_add(&v->stats.hdp_flushes);
}

/* nbio_7_0_default.h: RCC_DOORBELL_APER_EN resets to 0 (BAR2 decodes
 * nothing until a driver turns it on: Linux nbio_v7_0_enable_doorbell_aperture);
 * the field is bit 0 (nbif_6_3_1_sh_mask.h RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN). */
bool vapu_nbio_doorbell_aperture(struct vapu *v) {
  return vapu_reg_get(v, vapu_reg_index(v, HWID_NBIF, 2, NBIO_RCC_DOORBELL_APER_EN)) & 1u;
}

void vapu_regs_init(struct vapu *v) {
  uint32_t index2 = vapu_reg_index(v, HWID_NBIF, 0, NBIO_PCIE_INDEX2);
  vapu_reg_hook(v, vapu_reg_index(v, HWID_NBIF, 0, NBIO_PCIE_DATA2), pcie_data_read,
                pcie_data_write, (void *)(uintptr_t)index2);
  vapu_reg_set(v, vapu_reg_index(v, HWID_NBIF, 2, NBIO_RCC_DEV0_EPF0_STRAP0),
               (uint32_t)v->chip->ati_rev_id << 24);
  vapu_reg_set(v, vapu_reg_index(v, HWID_NBIF, 2, NBIO_RCC_CONFIG_MEMSIZE),
               (uint32_t)(v->carveout_bytes >> 20));
  vapu_reg_hook(v, vapu_reg_index(v, HWID_NBIF, 2, NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL), NULL,
                hdp_flush, NULL);
  vapu_reg_hook(v, vapu_reg_index(v, HWID_HDP, 0, HDP_READ_CACHE_INVALIDATE), NULL, hdp_flush,
                NULL);
  vapu_reg_set(v, vapu_reg_index(v, HWID_GC, 0, GC_CC_GC_SHADER_ARRAY_CONFIG),
               (uint32_t)v->config.inactive_cus << 16);
}
