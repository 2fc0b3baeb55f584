/*
 * gc_9_1_golden.h - the graphics-core registers that only the golden
 * settings (amdgpu_golden.c) write: dword offsets in the GC IP's segment
 * given by BASE_IDX, from Linux drivers/gpu/drm/amd/include/asic_reg/gc/
 * gc_9_1_offset.h (mm<NAME> and mm<NAME>_BASE_IDX; gc_9_0_offset.h, which
 * gfx_v9_0.c compiles against, lists the same), except GCEA_PROBE_MAP,
 * which gfx_v9_0.c defines itself. GB_ADDR_CONFIG, which the driver also
 * reads, is in gc_9_1_cp.h.
 */
#ifndef DRIVERS_AMDGPU_REGS_GC_9_1_GOLDEN_H
#define DRIVERS_AMDGPU_REGS_GC_9_1_GOLDEN_H

#include "drivers/amdgpu/regs/soc15_reg.h"

/* BASE_IDX 0 */
#define GC_VGT_CACHE_INVALIDATION             0x0231
#define GC_WD_UTCL1_CNTL                      0x0243
#define GC_IA_UTCL1_CNTL                      0x0246
#define GC_VGT_GS_MAX_WAVE_ID                 0x0269
#define GC_PA_SC_BINNER_EVENT_CNTL_3          0x02cf
#define GC_PA_SC_ENHANCE                      0x02fc
#define GC_PA_SC_ENHANCE_1                    0x02fd
#define GC_TD_CNTL                            0x0525
#define GC_TA_CNTL_AUX                        0x0542
#define GC_DB_DEBUG2                          0x060d
#define GC_GB_GPU_ID                          0x0640
#define GC_GB_ADDR_CONFIG_READ                0x0642
#define GC_CB_HW_CONTROL                      0x0680
#define GC_CB_HW_CONTROL_2                    0x0682
#define GC_CB_HW_CONTROL_3                    0x0683
#define GC_CB_DCC_CONFIG                      0x0688
#define GC_GCEA_PROBE_MAP                     0x070c
#define GC_RMI_UTCL1_CNTL2                    0x078c
#define GC_TCP_CHAN_STEER_LO                  0x0b03
#define GC_TCP_CHAN_STEER_HI                  0x0b04
#define GC_CPG_UTCL1_CNTL                     0x103c
#define GC_CPC_UTCL1_CNTL                     0x103d
#define GC_CPF_UTCL1_CNTL                     0x103e
#define GC_CP_DEBUG                           0x107f
#define GC_CP_MEC1_F32_INT_DIS                0x10bd
#define GC_CP_MEC2_F32_INT_DIS                0x10be
#define GC_CP_SD_CNTL                         0x11b7

/* BASE_IDX 1 */
#define GC_PA_SC_MODE_CNTL_1                  0x0293
#define GC_PA_SC_LINE_STIPPLE_STATE           0x2281
#define GC_RLC_GPM_UTCL1_CNTL_0               0x4cb2
#define GC_RLC_GPM_UTCL1_CNTL_1               0x4cb3
#define GC_RLC_GPM_UTCL1_CNTL_2               0x4cb4
#define GC_RLC_SPM_UTCL1_CNTL                 0x4cb5
#define GC_RLC_PREWALKER_UTCL1_CNTL           0x4ccd
#define GC_GRBM_CAM_INDEX                     0x5a04
#define GC_GRBM_CAM_DATA                      0x5a05

/* The registers above with their IP and segment (soc15_reg.h). */
#define REG_GC_VGT_CACHE_INVALIDATION SOC15_REG(IP_GC, 0, GC_VGT_CACHE_INVALIDATION)
#define REG_GC_WD_UTCL1_CNTL SOC15_REG(IP_GC, 0, GC_WD_UTCL1_CNTL)
#define REG_GC_IA_UTCL1_CNTL SOC15_REG(IP_GC, 0, GC_IA_UTCL1_CNTL)
#define REG_GC_VGT_GS_MAX_WAVE_ID SOC15_REG(IP_GC, 0, GC_VGT_GS_MAX_WAVE_ID)
#define REG_GC_PA_SC_BINNER_EVENT_CNTL_3 SOC15_REG(IP_GC, 0, GC_PA_SC_BINNER_EVENT_CNTL_3)
#define REG_GC_PA_SC_ENHANCE SOC15_REG(IP_GC, 0, GC_PA_SC_ENHANCE)
#define REG_GC_PA_SC_ENHANCE_1 SOC15_REG(IP_GC, 0, GC_PA_SC_ENHANCE_1)
#define REG_GC_TD_CNTL SOC15_REG(IP_GC, 0, GC_TD_CNTL)
#define REG_GC_TA_CNTL_AUX SOC15_REG(IP_GC, 0, GC_TA_CNTL_AUX)
#define REG_GC_DB_DEBUG2 SOC15_REG(IP_GC, 0, GC_DB_DEBUG2)
#define REG_GC_GB_GPU_ID SOC15_REG(IP_GC, 0, GC_GB_GPU_ID)
#define REG_GC_GB_ADDR_CONFIG_READ SOC15_REG(IP_GC, 0, GC_GB_ADDR_CONFIG_READ)
#define REG_GC_CB_HW_CONTROL SOC15_REG(IP_GC, 0, GC_CB_HW_CONTROL)
#define REG_GC_CB_HW_CONTROL_2 SOC15_REG(IP_GC, 0, GC_CB_HW_CONTROL_2)
#define REG_GC_CB_HW_CONTROL_3 SOC15_REG(IP_GC, 0, GC_CB_HW_CONTROL_3)
#define REG_GC_CB_DCC_CONFIG SOC15_REG(IP_GC, 0, GC_CB_DCC_CONFIG)
#define REG_GC_GCEA_PROBE_MAP SOC15_REG(IP_GC, 0, GC_GCEA_PROBE_MAP)
#define REG_GC_RMI_UTCL1_CNTL2 SOC15_REG(IP_GC, 0, GC_RMI_UTCL1_CNTL2)
#define REG_GC_TCP_CHAN_STEER_LO SOC15_REG(IP_GC, 0, GC_TCP_CHAN_STEER_LO)
#define REG_GC_TCP_CHAN_STEER_HI SOC15_REG(IP_GC, 0, GC_TCP_CHAN_STEER_HI)
#define REG_GC_CPG_UTCL1_CNTL SOC15_REG(IP_GC, 0, GC_CPG_UTCL1_CNTL)
#define REG_GC_CPC_UTCL1_CNTL SOC15_REG(IP_GC, 0, GC_CPC_UTCL1_CNTL)
#define REG_GC_CPF_UTCL1_CNTL SOC15_REG(IP_GC, 0, GC_CPF_UTCL1_CNTL)
#define REG_GC_CP_DEBUG SOC15_REG(IP_GC, 0, GC_CP_DEBUG)
#define REG_GC_CP_MEC1_F32_INT_DIS SOC15_REG(IP_GC, 0, GC_CP_MEC1_F32_INT_DIS)
#define REG_GC_CP_MEC2_F32_INT_DIS SOC15_REG(IP_GC, 0, GC_CP_MEC2_F32_INT_DIS)
#define REG_GC_CP_SD_CNTL SOC15_REG(IP_GC, 0, GC_CP_SD_CNTL)
#define REG_GC_PA_SC_MODE_CNTL_1 SOC15_REG(IP_GC, 1, GC_PA_SC_MODE_CNTL_1)
#define REG_GC_PA_SC_LINE_STIPPLE_STATE SOC15_REG(IP_GC, 1, GC_PA_SC_LINE_STIPPLE_STATE)
#define REG_GC_RLC_GPM_UTCL1_CNTL_0 SOC15_REG(IP_GC, 1, GC_RLC_GPM_UTCL1_CNTL_0)
#define REG_GC_RLC_GPM_UTCL1_CNTL_1 SOC15_REG(IP_GC, 1, GC_RLC_GPM_UTCL1_CNTL_1)
#define REG_GC_RLC_GPM_UTCL1_CNTL_2 SOC15_REG(IP_GC, 1, GC_RLC_GPM_UTCL1_CNTL_2)
#define REG_GC_RLC_SPM_UTCL1_CNTL SOC15_REG(IP_GC, 1, GC_RLC_SPM_UTCL1_CNTL)
#define REG_GC_RLC_PREWALKER_UTCL1_CNTL SOC15_REG(IP_GC, 1, GC_RLC_PREWALKER_UTCL1_CNTL)
#define REG_GC_GRBM_CAM_INDEX SOC15_REG(IP_GC, 1, GC_GRBM_CAM_INDEX)
#define REG_GC_GRBM_CAM_DATA SOC15_REG(IP_GC, 1, GC_GRBM_CAM_DATA)

#endif
