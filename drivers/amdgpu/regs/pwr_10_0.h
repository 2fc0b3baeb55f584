/*
 * pwr_10_0.h - the PWR block's GFXOFF status register of the Raven family.
 * Offset from Linux include/asic_reg/pwr/pwr_10_0_offset.h
 * (mmPWR_MISC_CNTL_STATUS 0x0183, BASE_IDX 0), field from
 * pwr_10_0_sh_mask.h; Linux smu10_is_gfx_on reads it.
 */
#ifndef DRIVERS_AMDGPU_REGS_PWR_10_0_H
#define DRIVERS_AMDGPU_REGS_PWR_10_0_H

#include "drivers/amdgpu/regs/soc15_reg.h"

#define PWR_MISC_CNTL_STATUS 0x0183

#define PWR_MISC_CNTL_STATUS__PWR_GFXOFF_STATUS_SHIFT 1
#define PWR_MISC_CNTL_STATUS__PWR_GFXOFF_STATUS_MASK  0x00000006u

/* The driver keeps no PWR bases: the register is at its fixed index, PWR
 * segment 0 being at 0x16A00 on the Raven family (vega10_ip_offset.h
 * PWR_BASE, the table Linux uses for CHIP_RAVEN). */
#define PWR_SEG0_FIXED_BASE 0x16a00
#define REG_PWR_MISC_CNTL_STATUS_FIXED \
  SOC15_REG_FIXED(IP_PWR, PWR_SEG0_FIXED_BASE, PWR_MISC_CNTL_STATUS)

#endif
