/* vapu_nbio.c - NBIO (bus interface: strap, memory size, doorbell
 * aperture, indirect register and memory access), HDP (the host data path
 * between BAR0 and the carve-out) and the GC shader array fuses: the
 * blocks whose registers are mostly reset values.
 * Offsets: Linux include/asic_reg/nbio/nbio_7_0_offset.h (BASE_IDX 0 and 2),
 * hdp/hdp_4_0_offset.h, gc/gc_9_1_offset.h; reset values
 * nbio_7_0_default.h (RCC_DOORBELL_APER_EN, BIF_FB_EN and
 * HDP_MEM_COHERENCY_FLUSH_CNTL reset to 0). Linux has no HDP default
 * header: HDP registers start at 0. */
#define LOG_TAG "vapu"
#include <string.h>

#include "vapu/vapu_internal.h"

#define MM_INDEX_MEMORY               0x80000000u
#define FB_READ_EN                    0x1u
#define FB_WRITE_EN                   0x2u
#define PAGE_BYTES                    4096u

static uint32_t nbio2(struct vapu *v, uint32_t offset) { return vapu_reg_index(v, HWID_NBIF, 2, offset); }

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

/* MM_INDEX/MM_INDEX_HI/MM_DATA: with MM_INDEX bit 31 a dword of the frame
 * buffer at offset (MM_INDEX_HI << 31) | MM_INDEX[30:0] (Linux
 * amdgpu_device_mm_access, the way amdgpu_discovery.c reads the discovery
 * table before any aperture is mapped); without it a register. Offsets
 * beyond the carve-out read as 0 and take no write. */
static uint32_t *mm_target(struct vapu *v, uint32_t *register_index) {
  uint32_t index = vapu_reg_get(v, vapu_reg_index(v, HWID_NBIF, 0, NBIO_MM_INDEX));
  if (!(index & MM_INDEX_MEMORY)) {
    *register_index = index / 4;
    return NULL;
  }
  *register_index = UINT32_MAX;
  uint64_t offset = (uint64_t)vapu_reg_get(v, vapu_reg_index(v, HWID_NBIF, 0, NBIO_MM_INDEX_HI)) << 31 |
                    (index & ~MM_INDEX_MEMORY);
  if ((offset & 3) || offset + 4 > v->carveout_bytes) return NULL;
  return (uint32_t *)(v->carveout + offset);
}

static uint32_t mm_data_read(struct vapu *v, uint32_t index, void *arg) {
  uint32_t reg;
  uint32_t *p = mm_target(v, &reg);
  if (p) return __atomic_load_n(p, __ATOMIC_ACQUIRE);
  return reg == UINT32_MAX ? 0 : vapu_reg_access_read(v, reg);
}

static void mm_data_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  uint32_t reg;
  uint32_t *p = mm_target(v, &reg);
  if (p) __atomic_store_n(p, value, __ATOMIC_RELEASE);
  else if (reg != UINT32_MAX) vapu_reg_access_write(v, reg, value);
}

/* ---- HDP ----
 * BAR0 is the CPU's window on the carve-out's first bar0_bytes through the
 * HDP, which holds CPU writes until a flush and answers CPU reads from its
 * read cache until an invalidation: data a GPU engine wrote is seen through
 * BAR0 only after HDP_READ_CACHE_INVALIDATE (or a flush with
 * HDP_MISC_CNTL.FLUSH_INVALIDATE_CACHE), data the CPU wrote reaches the GPU
 * only after HDP_MEM_COHERENCY_FLUSH_CNTL (Linux amdgpu_device_flush_hdp /
 * invalidate_hdp around every aperture access on dGPUs). BIF_FB_EN gates
 * both directions. The model keeps the state of the last sync to tell who
 * wrote what since. */

void vapu_hdp_write_back(struct vapu *v) {
  if (!(vapu_reg_get(v, nbio2(v, NBIO_BIF_FB_EN)) & FB_WRITE_EN)) return;
  for (uint64_t page = 0; page < v->bar0_bytes; page += PAGE_BYTES) {
    uint32_t *cpu = (uint32_t *)(v->bar0 + page), *synced = (uint32_t *)(v->bar0_synced + page);
    if (!memcmp(cpu, synced, PAGE_BYTES)) continue;
    uint32_t *memory = (uint32_t *)(v->carveout + page);
    for (unsigned i = 0; i < PAGE_BYTES / 4; i++)
      if (cpu[i] != synced[i]) memory[i] = synced[i] = cpu[i];
  }
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void vapu_hdp_power_on(struct vapu *v) {
  memcpy(v->bar0, v->carveout, v->bar0_bytes);
  memcpy(v->bar0_synced, v->carveout, v->bar0_bytes);
}

void vapu_hdp_invalidate(struct vapu *v) {
  if (!(vapu_reg_get(v, nbio2(v, NBIO_BIF_FB_EN)) & FB_READ_EN)) return;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  for (uint64_t page = 0; page < v->bar0_bytes; page += PAGE_BYTES) {
    uint32_t *memory = (uint32_t *)(v->carveout + page), *synced = (uint32_t *)(v->bar0_synced + page);
    if (!memcmp(memory, synced, PAGE_BYTES)) continue;
    uint32_t *cpu = (uint32_t *)(v->bar0 + page);
    for (unsigned i = 0; i < PAGE_BYTES / 4; i++)
      if (cpu[i] == synced[i]) cpu[i] = synced[i] = memory[i]; /* what the CPU wrote stays */
  }
}

static void hdp_flush_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  vapu_reg_set(v, index, value);
  vapu_hdp_write_back(v);
  if (vapu_reg_get(v, vapu_reg_index(v, HWID_HDP, 0, HDP_MISC_CNTL)) & 1u) vapu_hdp_invalidate(v);
  vapu_stat_add(&v->stats.hdp_flushes);
}

static void hdp_invalidate_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  vapu_reg_set(v, index, value);
  if (value & 1u) vapu_hdp_invalidate(v);
}

/* nbio_7_0_default.h: RCC_DOORBELL_APER_EN resets to 0 (BAR2 decodes
 * nothing until a driver turns it on: Linux nbio_v7_0_enable_doorbell_aperture);
 * the field is bit 0 (nbif_6_3_1_sh_mask.h RCC_DEV0_EPF0_RCC_DOORBELL_APER_EN). */
bool vapu_nbio_doorbell_aperture(struct vapu *v) {
  return vapu_reg_get(v, nbio2(v, NBIO_RCC_DOORBELL_APER_EN)) & 1u;
}

void vapu_regs_init(struct vapu *v) {
  uint32_t index2 = vapu_reg_index(v, HWID_NBIF, 0, NBIO_PCIE_INDEX2);
  vapu_reg_hook(v, vapu_reg_index(v, HWID_NBIF, 0, NBIO_PCIE_DATA2), pcie_data_read,
                pcie_data_write, (void *)(uintptr_t)index2);
  vapu_reg_hook(v, vapu_reg_index(v, HWID_NBIF, 0, NBIO_MM_DATA), mm_data_read, mm_data_write, NULL);
  /* What the VBIOS leaves: the strap (nbio_7_0_default.h 0x300015dd: the
   * device ID in [15:0], function and legacy-type enables in [29:28]) with
   * this part's ID and ATI revision [27:24]; the carve-out's size. */
  vapu_reg_set(v, nbio2(v, NBIO_RCC_DEV0_EPF0_STRAP0),
               0x30000000u | (uint32_t)v->chip->ati_rev_id << 24 | v->chip->pci_device_id);
  vapu_reg_set(v, nbio2(v, NBIO_RCC_CONFIG_MEMSIZE), (uint32_t)(v->carveout_bytes >> 20));
  vapu_reg_hook(v, nbio2(v, NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL), NULL, hdp_flush_write, NULL);
  vapu_reg_hook(v, vapu_reg_index(v, HWID_HDP, 0, HDP_READ_CACHE_INVALIDATE), NULL, hdp_invalidate_write,
                NULL);
  vapu_reg_set(v, vapu_reg_index(v, HWID_GC, 0, GC_CC_GC_SHADER_ARRAY_CONFIG),
               (uint32_t)v->config.inactive_cus << 16);
}
