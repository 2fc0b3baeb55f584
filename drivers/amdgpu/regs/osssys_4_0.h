/*
 * osssys_4_0.h - OSSSYS (interrupt handler, IH) registers of ring 0.
 * Dword indices relative to the OSSSYS IP's segment 0, from Linux
 * include/asic_reg/oss/osssys_4_0_offset.h; fields from osssys_4_0_sh_mask.h
 * (Linux vega10_ih.c drives OSSSYS 4.1.x of Raven and Renoir's with them).
 */
#ifndef DRIVERS_AMDGPU_REGS_OSSSYS_4_0_H
#define DRIVERS_AMDGPU_REGS_OSSSYS_4_0_H

#include "drivers/amdgpu/regs/soc15_reg.h"

#define IH_RB_CNTL            0x0080
#define IH_RB_BASE            0x0081 /* ring address [39:8] */
#define IH_RB_BASE_HI         0x0082 /* ring address [47:40] */
#define IH_RB_RPTR            0x0083
#define IH_RB_WPTR            0x0084
#define IH_RB_WPTR_ADDR_HI    0x0085
#define IH_RB_WPTR_ADDR_LO    0x0086
#define IH_DOORBELL_RPTR      0x0087
#define IH_CHICKEN            0x018c

/* The high address bits (Linux osssys_4_0_sh_mask.h IH_RB_BASE_HI__ADDR,
 * IH_RB_WPTR_ADDR_HI__ADDR). */
#define IH_RB_BASE_HI__ADDR_SHIFT          0
#define IH_RB_BASE_HI__ADDR_MASK           0x000000FFu
#define IH_RB_WPTR_ADDR_HI__ADDR_SHIFT     0
#define IH_RB_WPTR_ADDR_HI__ADDR_MASK      0x0000FFFFu

#define IH_RB_CNTL__RB_ENABLE              0x00000001u
#define IH_RB_CNTL__RB_SIZE_SHIFT          1 /* log2(ring size in dwords) */
#define IH_RB_CNTL__RB_SIZE_MASK           0x0000003Eu
#define IH_RB_CNTL__RB_GPU_TS_ENABLE       0x00000080u
#define IH_RB_CNTL__WPTR_WRITEBACK_ENABLE  0x00000100u
#define IH_RB_CNTL__RB_FULL_DRAIN_ENABLE   0x00000200u
#define IH_RB_CNTL__WPTR_OVERFLOW_ENABLE   0x00010000u
#define IH_RB_CNTL__ENABLE_INTR            0x00020000u
#define IH_RB_CNTL__MC_SNOOP               0x00100000u
#define IH_RB_CNTL__RPTR_REARM             0x00200000u
#define IH_RB_CNTL__MC_RO                  0x00400000u
#define IH_RB_CNTL__MC_VMID_MASK           0x0F000000u
#define IH_RB_CNTL__MC_SPACE_SHIFT         28
#define IH_RB_CNTL__MC_SPACE_MASK          0x70000000u
#define IH_RB_CNTL__WPTR_OVERFLOW_CLEAR    0x80000000u
/* MC_SPACE values (Linux vega10_ih.c vega10_ih_rb_cntl: use_bus_addr ? 1 : 4):
 * the ring at a bus address, or at a GPU MC address (the MM hub translates). */
#define IH_MC_SPACE_BUS_ADDRESS            1
#define IH_MC_SPACE_MC_ADDRESS             4

#define IH_RB_WPTR__RB_OVERFLOW            0x00000001u
#define IH_RB_WPTR__OFFSET_MASK            0x0003FFFCu
#define IH_DOORBELL_RPTR__ENABLE           0x10000000u
#define IH_CHICKEN__MC_SPACE_GPA_ENABLE    0x00000010u

/* The registers above that the driver reads and writes, with their IP and
   segment (soc15_reg.h). */
#define REG_IH_CHICKEN SOC15_REG(IP_OSSSYS, 0, IH_CHICKEN)
#define REG_IH_DOORBELL_RPTR SOC15_REG(IP_OSSSYS, 0, IH_DOORBELL_RPTR)
#define REG_IH_RB_BASE SOC15_REG(IP_OSSSYS, 0, IH_RB_BASE)
#define REG_IH_RB_BASE_HI SOC15_REG(IP_OSSSYS, 0, IH_RB_BASE_HI)
#define REG_IH_RB_CNTL SOC15_REG(IP_OSSSYS, 0, IH_RB_CNTL)
#define REG_IH_RB_RPTR SOC15_REG(IP_OSSSYS, 0, IH_RB_RPTR)
#define REG_IH_RB_WPTR SOC15_REG(IP_OSSSYS, 0, IH_RB_WPTR)
#define REG_IH_RB_WPTR_ADDR_HI SOC15_REG(IP_OSSSYS, 0, IH_RB_WPTR_ADDR_HI)
#define REG_IH_RB_WPTR_ADDR_LO SOC15_REG(IP_OSSSYS, 0, IH_RB_WPTR_ADDR_LO)

#endif
