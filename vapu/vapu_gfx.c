/* vapu_gfx.c - the graphics core's registers that configure compute: the
 * GRBM queue/VMID select that banks other registers, SH_MEM_CONFIG and
 * SH_MEM_BASES per VMID, CP_MEC_CNTL (MEC halt) and RLC_CNTL (RLC start).
 * A micro-engine runs only when it is let run and has firmware: an ME of
 * the MEC needs the MEC image and its jump table (PSP types CP_MEC and
 * CP_MEC_ME1/ME2, Linux psp_gfx_if.h), the RLC needs RLC_G.
 * Offsets and reset values: Linux include/asic_reg/gc/gc_9_1_offset.h,
 * gc_9_1_sh_mask.h, gc_9_0_default.h (CP_MEC_CNTL resets with both MEs
 * halted, 0x50000000; RLC_CNTL resets to 1 but runs nothing without
 * firmware). */
#define LOG_TAG "vapu"
#include "vapu/vapu_internal.h"

#define CP_MEC_CNTL_DEFAULT 0x50000000u
#define CP_MEC_CNTL__MEC_ME2_HALT 0x10000000u
#define CP_MEC_CNTL__MEC_ME1_HALT 0x40000000u
#define RLC_CNTL__RLC_ENABLE_F32 0x1u

struct vapu_grbm_select vapu_grbm_selected(struct vapu *v) {
  uint32_t cntl = vapu_reg_get(v, v->gfx.gc_base + GC_GRBM_GFX_CNTL);
  /* PIPEID [1:0], MEID [3:2], VMID [7:4], QUEUEID [10:8] */
  return (struct vapu_grbm_select){.pipe = cntl & 3, .me = (cntl >> 2) & 3, .vmid = (cntl >> 4) & 0xf,
                                   .queue = (cntl >> 8) & 7};
}

bool vapu_mec_unhalted(struct vapu *v, unsigned me) {
  uint32_t cntl = vapu_reg_get(v, v->gfx.gc_base + GC_CP_MEC_CNTL);
  if (me == 1) return !(cntl & CP_MEC_CNTL__MEC_ME1_HALT);
  if (me == 2) return !(cntl & CP_MEC_CNTL__MEC_ME2_HALT);
  return false;
}

bool vapu_mec_has_firmware(struct vapu *v, unsigned me) {
  uint32_t jump_table = me == 1 ? VAPU_FW_CP_MEC_ME1 : VAPU_FW_CP_MEC_ME2;
  return (me == 1 || me == 2) && vapu_psp_firmware_loaded(v, 1u << VAPU_FW_CP_MEC | 1u << jump_table);
}

bool vapu_mec_running(struct vapu *v, unsigned me) {
  return vapu_mec_unhalted(v, me) && vapu_mec_has_firmware(v, me);
}

bool vapu_rlc_running(struct vapu *v) {
  return (vapu_reg_get(v, v->gfx.rlc_cntl) & RLC_CNTL__RLC_ENABLE_F32) &&
         vapu_psp_firmware_loaded(v, 1u << VAPU_FW_RLC_G);
}

/* SH_MEM_* hold one value per VMID: the one GRBM_GFX_CNTL.VMID selects. */
static uint32_t *sh_mem_bank(struct vapu *v, uint32_t index) {
  uint32_t vmid = vapu_grbm_selected(v).vmid;
  return index == v->gfx.gc_base + GC_SH_MEM_BASES ? &v->gfx.sh_mem_bases[vmid]
                                                   : &v->gfx.sh_mem_config[vmid];
}

static uint32_t sh_mem_read(struct vapu *v, uint32_t index, void *arg) {
  return __atomic_load_n(sh_mem_bank(v, index), __ATOMIC_ACQUIRE);
}

static void sh_mem_write(struct vapu *v, uint32_t index, uint32_t value, void *arg) {
  __atomic_store_n(sh_mem_bank(v, index), value, __ATOMIC_RELEASE);
}

void vapu_gfx_init(struct vapu *v) {
  v->gfx.gc_base = vapu_reg_index(v, HWID_GC, 0, 0);
  v->gfx.gc_seg1_base = vapu_reg_index(v, HWID_GC, 1, 0);
  vapu_reg_set(v, v->gfx.gc_base + GC_GB_ADDR_CONFIG, v->chip->gb_addr_config);
  v->gfx.rlc_cntl = vapu_reg_index(v, HWID_GC, 1, GC_RLC_CNTL);
  vapu_reg_set(v, v->gfx.rlc_cntl, RLC_CNTL__RLC_ENABLE_F32);
  vapu_reg_set(v, v->gfx.gc_base + GC_CP_MEC_CNTL, CP_MEC_CNTL_DEFAULT);
  /* gc_9_0_default.h: GRBM_GFX_INDEX broadcasts to every SE, SH and
   * instance; coarse-grain clock gating at its reset setting. */
  vapu_reg_set(v, v->gfx.gc_seg1_base + GC_GRBM_GFX_INDEX, 0xe0000000u);
  vapu_reg_set(v, v->gfx.gc_seg1_base + GC_RLC_CGCG_CGLS_CTRL, 0x0001003cu);
  vapu_reg_hook(v, v->gfx.gc_base + GC_SH_MEM_BASES, sh_mem_read, sh_mem_write, NULL);
  vapu_reg_hook(v, v->gfx.gc_base + GC_SH_MEM_CONFIG, sh_mem_read, sh_mem_write, NULL);
}

uint32_t vapu_sh_mem_bases(struct vapu *v, unsigned vmid) {
  return vmid < 16 ? __atomic_load_n(&v->gfx.sh_mem_bases[vmid], __ATOMIC_ACQUIRE) : 0;
}
