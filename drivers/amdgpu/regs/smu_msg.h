/*
 * smu_msg.h - SMU firmware message numbers and responses used by the
 * driver. Raven's SMU 10 (Linux pm/powerplay/inc/rv_ppsmc.h) and Renoir's
 * SMU 12 (pm/swsmu/inc/pmfw_if/smu_v12_0_ppsmc.h) agree on these values.
 */
#ifndef DRIVERS_AMDGPU_REGS_SMU_MSG_H
#define DRIVERS_AMDGPU_REGS_SMU_MSG_H

#define PPSMC_MSG_TestMessage      0x1
#define PPSMC_MSG_GetSmuVersion    0x2
#define PPSMC_MSG_PowerUpGfx       0x6
#define PPSMC_MSG_EnableGfxOff     0x7
#define PPSMC_MSG_DisableGfxOff    0x8
#define PPSMC_MSG_PowerDownSdma    0xD
#define PPSMC_MSG_PowerUpSdma      0xE
#define PPSMC_MSG_GetMaxGfxclkFrequency 0x2D /* MHz in the argument register */

#define PPSMC_Result_OK                 0x1
#define PPSMC_Result_Failed             0xFF
#define PPSMC_Result_UnknownCmd         0xFE
#define PPSMC_Result_CmdRejectedPrereq  0xFD
#define PPSMC_Result_CmdRejectedBusy    0xFC

#endif
