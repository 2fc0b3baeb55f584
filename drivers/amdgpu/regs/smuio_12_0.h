/*
 * smuio_12_0.h - the SMUIO block's GFXOFF status register of the Renoir
 * family. Offset from Linux include/asic_reg/smuio/smuio_12_0_0_offset.h
 * (mmSMUIO_GFX_MISC_CNTL 0x00c8, BASE_IDX 0), field from
 * smuio_12_0_0_sh_mask.h; Linux smu_v12_0_get_gfxoff_status reads it.
 */
#ifndef DRIVERS_AMDGPU_REGS_SMUIO_12_0_H
#define DRIVERS_AMDGPU_REGS_SMUIO_12_0_H

#include "drivers/amdgpu/regs/soc15_reg.h"

#define SMUIO_GFX_MISC_CNTL 0x00c8

#define SMUIO_GFX_MISC_CNTL__PWR_GFXOFF_STATUS_SHIFT 1
#define SMUIO_GFX_MISC_CNTL__PWR_GFXOFF_STATUS_MASK  0x00000006u

/* The driver keeps no SMUIO bases: the register is at its fixed index,
 * SMUIO segment 0 being at 0x16800 on the Renoir family
 * (renoir_ip_offset.h SMUIO_BASE). */
#define SMUIO_SEG0_FIXED_BASE 0x16800
#define REG_SMUIO_GFX_MISC_CNTL_FIXED \
  SOC15_REG_FIXED(IP_SMUIO, SMUIO_SEG0_FIXED_BASE, SMUIO_GFX_MISC_CNTL)

#endif
