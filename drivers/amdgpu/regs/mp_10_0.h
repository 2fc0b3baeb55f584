/*
 * mp_10_0.h - MP0 (PSP) and MP1 (SMU) mailbox registers. Dword indices
 * relative to segment 0 of the MP0 / MP1 IP, from Linux
 * include/asic_reg/mp/mp_10_0_offset.h (Raven); mp_12_0_0_offset.h
 * (Renoir) lists the same offsets; both chips have MP0 and MP1 segment 0
 * at 0x16000 (vega10_ip_offset.h, renoir_ip_offset.h IP_BASE structs),
 * which the IP base table or discovery supplies.
 */
#ifndef DRIVERS_AMDGPU_REGS_MP_10_0_H
#define DRIVERS_AMDGPU_REGS_MP_10_0_H

#include "drivers/amdgpu/regs/soc15_reg.h"

/* MP0_SMN_C2PMSG_n is at 0x0040 + n. */
#define MP0_SMN_C2PMSG_33   0x0061 /* IFWI initialised: bit 31 (amdgpu_discovery.c) */
#define MP0_SMN_C2PMSG_35   0x0063 /* bootloader command / ready bit 31 */
#define MP0_SMN_C2PMSG_64   0x0080 /* ring command / response, ready bit 31 */
#define MP0_SMN_C2PMSG_67   0x0083 /* ring write pointer, dwords */
#define MP0_SMN_C2PMSG_69   0x0085 /* ring address, low */
#define MP0_SMN_C2PMSG_70   0x0086 /* ring address, high */
#define MP0_SMN_C2PMSG_71   0x0087 /* ring size, bytes */
#define MP0_SMN_C2PMSG_81   0x0091 /* psp_v12_0: sOS sign of life, non-zero once sOS runs */

/* MP1_SMN_C2PMSG_n is at 0x0240 + n. */
#define MP1_SMN_C2PMSG_66   0x0282 /* message */
#define MP1_SMN_C2PMSG_82   0x0292 /* argument / returned value */
#define MP1_SMN_C2PMSG_90   0x029a /* response */

/* The registers above that the driver reads and writes, with their IP and
   segment (soc15_reg.h). */
#define REG_MP0_SMN_C2PMSG_33 SOC15_REG(IP_MP0, 0, MP0_SMN_C2PMSG_33)
#define REG_MP0_SMN_C2PMSG_64 SOC15_REG(IP_MP0, 0, MP0_SMN_C2PMSG_64)
#define REG_MP0_SMN_C2PMSG_67 SOC15_REG(IP_MP0, 0, MP0_SMN_C2PMSG_67)
#define REG_MP0_SMN_C2PMSG_69 SOC15_REG(IP_MP0, 0, MP0_SMN_C2PMSG_69)
#define REG_MP0_SMN_C2PMSG_70 SOC15_REG(IP_MP0, 0, MP0_SMN_C2PMSG_70)
#define REG_MP0_SMN_C2PMSG_71 SOC15_REG(IP_MP0, 0, MP0_SMN_C2PMSG_71)
#define REG_MP0_SMN_C2PMSG_81 SOC15_REG(IP_MP0, 0, MP0_SMN_C2PMSG_81)
#define REG_MP1_SMN_C2PMSG_66 SOC15_REG(IP_MP1, 0, MP1_SMN_C2PMSG_66)
#define REG_MP1_SMN_C2PMSG_82 SOC15_REG(IP_MP1, 0, MP1_SMN_C2PMSG_82)
#define REG_MP1_SMN_C2PMSG_90 SOC15_REG(IP_MP1, 0, MP1_SMN_C2PMSG_90)

/* C2PMSG_33 is polled before the IP bases are known (amdgpu_discovery.c):
 * at its fixed index, MP0 segment 0 being at 0x16000 on every chip here. */
#define MP0_SEG0_FIXED_BASE 0x16000
#define REG_MP0_SMN_C2PMSG_33_FIXED SOC15_REG_FIXED(IP_MP0, MP0_SEG0_FIXED_BASE, MP0_SMN_C2PMSG_33)

#endif
