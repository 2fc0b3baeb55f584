/*
 * nbio_7_0.h - NBIO (northbridge interface: BIF, RCC) registers of Raven
 * and Renoir. Dword indices relative to the NBIO IP's segment given by
 * BASE_IDX, from Linux include/asic_reg/nbio/nbio_7_0_offset.h; fields from
 * nbio_7_0_sh_mask.h. Linux nbio_v7_0.c drives Raven (NBIO 7.0.0/7.0.1) and
 * Renoir (NBIO 2.5.0 in its discovery table) with these.
 */
#ifndef DRIVERS_AMDGPU_REGS_NBIO_7_0_H
#define DRIVERS_AMDGPU_REGS_NBIO_7_0_H

#include "drivers/amdgpu/regs/soc15_reg.h"

/* BASE_IDX 0: the memory index/data pair (mmMM_INDEX, bit 31 selects
 * memory; mmMM_DATA; mmMM_INDEX_HI: address bits 31 and up, Linux
 * amdgpu_device_mm_access) and the indirect index/data pair for registers
 * beyond the BAR (Linux nbio_v7_0_get_pcie_index_offset / _data_offset). */
#define NBIO_MM_INDEX                        0x0000
#define NBIO_MM_DATA                         0x0001
#define NBIO_MM_INDEX_HI                     0x0006
#define NBIO_PCIE_INDEX2                     0x000e
#define NBIO_PCIE_DATA2                      0x000f

/* BASE_IDX 2 */
#define NBIO_RCC_DEV0_EPF0_STRAP0            0x000f
#define NBIO_RCC_DOORBELL_APER_EN            0x00c0
#define NBIO_RCC_CONFIG_MEMSIZE              0x00c3 /* frame buffer size in MiB */
#define NBIO_INTERRUPT_CNTL                  0x00f1
#define NBIO_INTERRUPT_CNTL2                 0x00f2 /* IH dummy read address >> 8 */
/* A write to either flushes the HDP (the memory path, or its register
 * path); block nbio_nbif0_bif_bx_pf_BIFPFVFDEC1 of nbio_7_0_offset.h. */
#define NBIO_HDP_REG_COHERENCY_FLUSH_CNTL    0x00f6
#define NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL    0x00f7
#define NBIO_BIF_FB_EN                       0x00ff
#define NBIO_BIF_IH_DOORBELL_RANGE           0x01d2

#define RCC_DEV0_EPF0_STRAP0__STRAP_ATI_REV_ID_DEV0_F0_SHIFT 24
#define RCC_DEV0_EPF0_STRAP0__STRAP_ATI_REV_ID_DEV0_F0_MASK  0x0F000000u
#define RCC_DOORBELL_APER_EN__BIF_DOORBELL_APER_EN           0x00000001u
#define INTERRUPT_CNTL__IH_DUMMY_RD_OVERRIDE                 0x00000001u
#define INTERRUPT_CNTL__IH_REQ_NONSNOOP_EN                   0x00000008u
#define BIF_FB_EN__FB_READ_EN                                0x00000001u
#define BIF_FB_EN__FB_WRITE_EN                               0x00000002u

/* The registers above that the driver reads and writes, with their IP and
   segment (soc15_reg.h). */
#define REG_NBIO_PCIE_INDEX2 SOC15_REG(IP_NBIO, 0, NBIO_PCIE_INDEX2)
#define REG_NBIO_PCIE_DATA2 SOC15_REG(IP_NBIO, 0, NBIO_PCIE_DATA2)
#define REG_NBIO_BIF_FB_EN SOC15_REG(IP_NBIO, 2, NBIO_BIF_FB_EN)
#define REG_NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL SOC15_REG(IP_NBIO, 2, NBIO_HDP_MEM_COHERENCY_FLUSH_CNTL)
#define REG_NBIO_HDP_REG_COHERENCY_FLUSH_CNTL SOC15_REG(IP_NBIO, 2, NBIO_HDP_REG_COHERENCY_FLUSH_CNTL)
#define REG_NBIO_INTERRUPT_CNTL SOC15_REG(IP_NBIO, 2, NBIO_INTERRUPT_CNTL)
#define REG_NBIO_INTERRUPT_CNTL2 SOC15_REG(IP_NBIO, 2, NBIO_INTERRUPT_CNTL2)
#define REG_NBIO_RCC_CONFIG_MEMSIZE SOC15_REG(IP_NBIO, 2, NBIO_RCC_CONFIG_MEMSIZE)
#define REG_NBIO_RCC_DOORBELL_APER_EN SOC15_REG(IP_NBIO, 2, NBIO_RCC_DOORBELL_APER_EN)
#define REG_NBIO_RCC_DEV0_EPF0_STRAP0 SOC15_REG(IP_NBIO, 2, NBIO_RCC_DEV0_EPF0_STRAP0)

/* Those read before the IP bases are known, at their fixed index: NBIO
 * segment 0 is at 0 and segment 2 at 0xd20 on every chip here
 * (vega10_ip_offset.h, renoir_ip_offset.h NBIO_BASE). */
#define NBIO_SEG0_FIXED_BASE 0x0000
#define NBIO_SEG2_FIXED_BASE 0x0d20
#define REG_NBIO_MM_INDEX_FIXED SOC15_REG_FIXED(IP_NBIO, NBIO_SEG0_FIXED_BASE, NBIO_MM_INDEX)
#define REG_NBIO_MM_DATA_FIXED SOC15_REG_FIXED(IP_NBIO, NBIO_SEG0_FIXED_BASE, NBIO_MM_DATA)
#define REG_NBIO_MM_INDEX_HI_FIXED SOC15_REG_FIXED(IP_NBIO, NBIO_SEG0_FIXED_BASE, NBIO_MM_INDEX_HI)
#define REG_NBIO_RCC_DEV0_EPF0_STRAP0_FIXED                                                      \
  SOC15_REG_FIXED(IP_NBIO, NBIO_SEG2_FIXED_BASE, NBIO_RCC_DEV0_EPF0_STRAP0)
#define REG_NBIO_RCC_CONFIG_MEMSIZE_FIXED                                                        \
  SOC15_REG_FIXED(IP_NBIO, NBIO_SEG2_FIXED_BASE, NBIO_RCC_CONFIG_MEMSIZE)

#endif
