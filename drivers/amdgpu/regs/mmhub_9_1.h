/*
 * mmhub_9_1.h - the multimedia hub's VM (UTCL2) registers: the same block
 * as the GFX hub's, at other offsets. Dword indices relative to the MMHUB
 * IP's segment 0 base, from Linux include/asic_reg/mmhub/mmhub_9_1_offset.h
 * (Raven); mmhub_1_0_offset.h and mmhub_9_3_0_offset.h list the same
 * values (Linux mmhub_v1_0.c uses them for Raven and Renoir). Field layouts
 * are those of gc_9_1.h.
 */
#ifndef DRIVERS_AMDGPU_REGS_MMHUB_9_1_H
#define DRIVERS_AMDGPU_REGS_MMHUB_9_1_H

#include "drivers/amdgpu/regs/soc15_reg.h"

#define MMHUB_VM_L2_CNTL                               0x0680
#define MMHUB_VM_L2_CNTL2                              0x0681
#define MMHUB_VM_L2_CNTL3                              0x0682
#define MMHUB_VM_L2_PROTECTION_FAULT_CNTL              0x0687
#define MMHUB_VM_L2_PROTECTION_FAULT_CNTL2             0x0688
#define MMHUB_VM_L2_PROTECTION_FAULT_STATUS            0x068b
#define MMHUB_VM_L2_PROTECTION_FAULT_ADDR_LO32         0x068c
#define MMHUB_VM_L2_PROTECTION_FAULT_ADDR_HI32         0x068d
#define MMHUB_VM_L2_PROTECTION_FAULT_DEFAULT_ADDR_LO32 0x068e
#define MMHUB_VM_L2_PROTECTION_FAULT_DEFAULT_ADDR_HI32 0x068f
#define MMHUB_VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR_LO32  0x0691
#define MMHUB_VM_L2_CONTEXT1_IDENTITY_APERTURE_LOW_ADDR_HI32  0x0692
#define MMHUB_VM_L2_CONTEXT1_IDENTITY_APERTURE_HIGH_ADDR_LO32 0x0693
#define MMHUB_VM_L2_CONTEXT1_IDENTITY_APERTURE_HIGH_ADDR_HI32 0x0694
#define MMHUB_VM_L2_CONTEXT_IDENTITY_PHYSICAL_OFFSET_LO32 0x0695
#define MMHUB_VM_L2_CONTEXT_IDENTITY_PHYSICAL_OFFSET_HI32 0x0696
#define MMHUB_VM_L2_CNTL4                              0x0697
#define MMHUB_VM_CONTEXT0_CNTL                         0x06c0
#define MMHUB_VM_INVALIDATE_ENG0_SEM                   0x06d1
#define MMHUB_VM_INVALIDATE_ENG0_REQ                   0x06e3
#define MMHUB_VM_INVALIDATE_ENG0_ACK                   0x06f5
#define MMHUB_VM_INVALIDATE_ENG0_ADDR_RANGE_LO32       0x0707
#define MMHUB_VM_INVALIDATE_ENG0_ADDR_RANGE_HI32       0x0708
#define MMHUB_VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32    0x072b
#define MMHUB_VM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32    0x072c
#define MMHUB_VM_CONTEXT0_PAGE_TABLE_START_ADDR_LO32   0x074b
#define MMHUB_VM_CONTEXT0_PAGE_TABLE_START_ADDR_HI32   0x074c
#define MMHUB_VM_CONTEXT0_PAGE_TABLE_END_ADDR_LO32     0x076b
#define MMHUB_VM_CONTEXT0_PAGE_TABLE_END_ADDR_HI32     0x076c
#define MMHUB_MC_VM_FB_OFFSET                          0x0817
#define MMHUB_MC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_LSB   0x0818
#define MMHUB_MC_VM_SYSTEM_APERTURE_DEFAULT_ADDR_MSB   0x0819
#define MMHUB_MC_VM_FB_LOCATION_BASE                   0x082c
#define MMHUB_MC_VM_FB_LOCATION_TOP                    0x082d
#define MMHUB_MC_VM_AGP_TOP                            0x082e
#define MMHUB_MC_VM_AGP_BOT                            0x082f
#define MMHUB_MC_VM_AGP_BASE                           0x0830
#define MMHUB_MC_VM_SYSTEM_APERTURE_LOW_ADDR           0x0831
#define MMHUB_MC_VM_SYSTEM_APERTURE_HIGH_ADDR          0x0832
#define MMHUB_MC_VM_MX_L1_TLB_CNTL                     0x0833

/* The registers above that the driver reads and writes, with their IP and
   segment (soc15_reg.h). */
#define REG_MMHUB_VM_L2_PROTECTION_FAULT_CNTL SOC15_REG(IP_MMHUB, 0, MMHUB_VM_L2_PROTECTION_FAULT_CNTL)
#define REG_MMHUB_VM_L2_PROTECTION_FAULT_STATUS SOC15_REG(IP_MMHUB, 0, MMHUB_VM_L2_PROTECTION_FAULT_STATUS)

#endif
