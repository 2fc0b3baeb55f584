/*
 * hdp_4_0.h - HDP (host data path: CPU accesses to the frame buffer
 * through BAR0) registers. Dword indices relative to the HDP IP's segment 0,
 * from Linux include/asic_reg/hdp/hdp_4_0_offset.h and hdp_4_0_sh_mask.h
 * (Linux hdp_v4_0.c drives HDP 4.1.x of Raven and Renoir with them).
 */
#ifndef DRIVERS_AMDGPU_REGS_HDP_4_0_H
#define DRIVERS_AMDGPU_REGS_HDP_4_0_H

#include "drivers/amdgpu/regs/soc15_reg.h"

#define HDP_NONSURFACE_BASE        0x0040 /* frame buffer MC base >> 8 */
#define HDP_NONSURFACE_BASE_HI     0x0042 /* frame buffer MC base >> 40 */
#define HDP_HOST_PATH_CNTL         0x00cc
#define HDP_READ_CACHE_INVALIDATE  0x00d1
#define HDP_MISC_CNTL              0x00d3

#define HDP_MISC_CNTL__FLUSH_INVALIDATE_CACHE 0x00000001u

/* The registers above that the driver reads and writes, with their IP and
   segment (soc15_reg.h). */
#define REG_HDP_MISC_CNTL SOC15_REG(IP_HDP, 0, HDP_MISC_CNTL)
#define REG_HDP_NONSURFACE_BASE SOC15_REG(IP_HDP, 0, HDP_NONSURFACE_BASE)
#define REG_HDP_NONSURFACE_BASE_HI SOC15_REG(IP_HDP, 0, HDP_NONSURFACE_BASE_HI)
#define REG_HDP_READ_CACHE_INVALIDATE SOC15_REG(IP_HDP, 0, HDP_READ_CACHE_INVALIDATE)

#endif
