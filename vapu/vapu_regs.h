/*
 * vapu_regs.h - the virtual APU's register offsets: dword offsets in the
 * segment of their IP block (the bases the model's discovery table and
 * fixed table publish, vapu_discovery.c), from the register headers of
 * Linux drivers/gpu/drm/amd/include/asic_reg/ (the one named with each
 * group). The model knows the hardware's documented registers, never the
 * driver's headers: these are written independently of drivers/amdgpu/regs/.
 * Field layouts stay with the block that decodes them.
 */
#ifndef VAPU_VAPU_REGS_H
#define VAPU_VAPU_REGS_H

/* ---- GC (gc_9_1_offset.h; segment 0 unless noted) ---- */
#define GC_GRBM_GFX_CNTL               0x0022
#define GC_CP_MEC_CNTL                 0x008d
#define GC_CC_GC_SHADER_ARRAY_CONFIG   0x026f /* INACTIVE_CUS [31:16] */
#define GC_GC_USER_SHADER_ARRAY_CONFIG 0x0270
#define GC_SH_MEM_BASES                0x030a
#define GC_SH_MEM_CONFIG               0x030d
#define GC_GB_ADDR_CONFIG              0x063e
#define GC_CP_MEC_DOORBELL_RANGE_LOWER 0x105c
#define GC_CP_MEC_DOORBELL_RANGE_UPPER 0x105d
#define GC_CP_PQ_WPTR_POLL_CNTL        0x1083
#define GC_CP_PQ_WPTR_POLL_CNTL1       0x1084
#define GC_CP_PQ_STATUS                0x10b8
#define GC_GRBM_GFX_INDEX              0x2200 /* segment 1 */
#define GC_RLC_CNTL                    0x4c00 /* segment 1 */
#define GC_RLC_CGCG_CGLS_CTRL          0x4c49 /* segment 1 */

/* ---- OSSSYS, the interrupt handler (osssys_4_0_offset.h; segment 0) ---- */
#define IH_RB_CNTL         0x0080
#define IH_RB_BASE         0x0081
#define IH_RB_BASE_HI      0x0082
#define IH_RB_RPTR         0x0083
#define IH_RB_WPTR         0x0084
#define IH_RB_WPTR_ADDR_HI 0x0085
#define IH_RB_WPTR_ADDR_LO 0x0086
#define IH_CHICKEN         0x018c

/* ---- MP0, the PSP (mp_10_0_offset.h; segment 0) ---- */
#define MP0_SMN_C2PMSG_33 0x0061
#define MP0_SMN_C2PMSG_64 0x0080
#define MP0_SMN_C2PMSG_67 0x0083
#define MP0_SMN_C2PMSG_69 0x0085
#define MP0_SMN_C2PMSG_70 0x0086
#define MP0_SMN_C2PMSG_71 0x0087
#define MP0_SMN_C2PMSG_81 0x0091

/* ---- MP1, the SMU (mp_10_0_offset.h; segment 0) ---- */
#define MP1_SMN_C2PMSG_66 0x0282
#define MP1_SMN_C2PMSG_82 0x0292
#define MP1_SMN_C2PMSG_90 0x029a

/* ---- NBIO (nbio_7_0_offset.h) ---- */
#define NBIO_MM_INDEX                     0x0000 /* segment 0; bit 31: memory, not registers */
#define NBIO_MM_DATA                      0x0001 /* segment 0 */
#define NBIO_MM_INDEX_HI                  0x0006 /* segment 0: offset bits 31 and up */
#define NBIO_PCIE_INDEX2                  0x000e /* segment 0 */
#define NBIO_PCIE_DATA2                   0x000f /* segment 0 */
#define NBIO_RCC_DEV0_EPF0_STRAP0         0x000f /* segment 2; ATI_REV_ID in [27:24] */
#define NBIO_RCC_DOORBELL_APER_EN         0x00c0 /* segment 2; BIF_DOORBELL_APER_EN bit 0 */
#define NBIO_RCC_CONFIG_MEMSIZE           0x00c3 /* segment 2; MiB */
#define NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL 0x00f7 /* segment 2 */
#define NBIO_BIF_FB_EN                    0x00ff /* segment 2; FB_READ_EN bit 0, FB_WRITE_EN bit 1 */

/* ---- HDP (hdp_4_0_offset.h; segment 0) ---- */
#define HDP_READ_CACHE_INVALIDATE 0x00d1
#define HDP_MISC_CNTL             0x00d3 /* FLUSH_INVALIDATE_CACHE bit 0 */

#endif
