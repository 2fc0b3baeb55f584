/*
 * psp_gfx_if.h - the PSP's kernel-mode (GPCOM) ring interface: the ring
 * control registers, the 64-byte ring frame, the 1 KiB command buffer with
 * its response, the command IDs and the firmware types of LOAD_IP_FW.
 *
 * Layouts and values: Linux drivers/gpu/drm/amd/amdgpu/psp_gfx_if.h
 * (struct psp_gfx_rb_frame, psp_gfx_cmd_resp, psp_gfx_resp,
 * psp_gfx_cmd_setup_tmr, psp_gfx_cmd_load_ip_fw, enum psp_gfx_cmd_id,
 * enum psp_gfx_fw_type), amdgpu_psp.h (ring types, buffer sizes, TMR size
 * and alignment), psp_v10_0.c / psp_v12_0.c (ring registers: C2PMSG_64
 * command, 67 write pointer, 69/70 ring address, 71 ring size).
 */
#ifndef DRIVERS_AMDGPU_REGS_PSP_GFX_IF_H
#define DRIVERS_AMDGPU_REGS_PSP_GFX_IF_H

#include <stddef.h>
#include <stdint.h>

/* Ring control through the MP0 mailbox (offsets: regs/mp_10_0.h). */
#define PSP_RING_TYPE_KM            2u          /* kernel mode ring (GPCOM) */
#define PSP_RING_CMD_SHIFT          16          /* C2PMSG_64 = ring type (create) or 3 (destroy) << 16 */
#define PSP_RING_CMD_DESTROY        3u
#define PSP_CMD_RESPONSE            0x80000000u /* C2PMSG_64: the command was handled */
#define PSP_CMD_STATUS_MASK         0x0000ffffu

#define PSP_RING_BYTES              0x1000u     /* psp_v10_0_ring_init: one 4 KiB page */
#define PSP_FENCE_BUFFER_BYTES      0x1000u
#define PSP_CMD_BUFFER_BYTES        0x1000u
#define PSP_TMR_BYTES               0x400000u   /* PSP_TMR_SIZE for these chips */
#define PSP_TMR_ALIGNMENT           0x100000u

struct psp_rb_frame {
  uint32_t cmd_buf_addr_lo, cmd_buf_addr_hi; /* GPU address (VMID 0), 4 KiB aligned */
  uint32_t cmd_buf_size;
  uint32_t fence_addr_lo, fence_addr_hi;     /* where the PSP writes fence_value when done */
  uint32_t fence_value;
  uint32_t sid_lo, sid_hi;                   /* RBI only */
  uint8_t vmid, frame_type, reserved1[2];
  uint32_t reserved2[7];
};

#define PSP_CMD_BUF_VERSION         1u

enum psp_cmd_id {
  PSP_CMD_SETUP_TMR = 0x5,
  PSP_CMD_LOAD_IP_FW = 0x6,
  PSP_CMD_DESTROY_TMR = 0x7,
};

enum psp_fw_type {
  PSP_FW_CP_ME = 1,
  PSP_FW_CP_PFP = 2,
  PSP_FW_CP_CE = 3,
  PSP_FW_CP_MEC = 4,
  PSP_FW_CP_MEC_ME1 = 5,     /* MEC jump table for ME1 */
  PSP_FW_CP_MEC_ME2 = 6,     /* MEC jump table for ME2 */
  PSP_FW_RLC_G = 8,
  PSP_FW_SDMA0 = 9,
  PSP_FW_RLC_RESTORE_LIST_GPM_MEM = 20,
  PSP_FW_RLC_RESTORE_LIST_SRM_MEM = 21,
  PSP_FW_RLC_RESTORE_LIST_SRM_CNTL = 22,
};

struct psp_cmd_setup_tmr {
  uint32_t buf_phy_addr_lo, buf_phy_addr_hi; /* GPU address of the TMR */
  uint32_t buf_size;
  uint32_t tmr_flags;                        /* bit 1: the system physical address follows */
  uint32_t system_phy_addr_lo, system_phy_addr_hi;
};
#define PSP_TMR_FLAG_VIRT_PHY_ADDR  0x2u

struct psp_cmd_load_ip_fw {
  uint32_t fw_phy_addr_lo, fw_phy_addr_hi;   /* GPU address, 4 KiB aligned */
  uint32_t fw_size;
  uint32_t fw_type;                          /* enum psp_fw_type */
};

struct psp_resp {
  uint32_t status;                           /* 0: success */
  uint32_t session_id;
  uint32_t fw_addr_lo, fw_addr_hi;           /* LOAD_IP_FW: where the firmware went in the TMR */
  uint32_t tmr_size;
  uint32_t reserved[11];
  uint32_t uresp[8];
};

struct psp_cmd_resp {
  uint32_t buf_size;                         /* bytes of this buffer */
  uint32_t buf_version;                      /* PSP_CMD_BUF_VERSION */
  uint32_t cmd_id;                           /* enum psp_cmd_id */
  uint32_t resp_buf_addr_lo, resp_buf_addr_hi, resp_offset, resp_buf_size; /* RBI only */
  union {
    struct psp_cmd_setup_tmr setup_tmr;
    struct psp_cmd_load_ip_fw load_ip_fw;
    uint8_t bytes[864 - 28];
  } cmd;
  struct psp_resp resp;                      /* +864 */
  uint8_t reserved[1024 - 864 - sizeof(struct psp_resp)];
};

_Static_assert(sizeof(struct psp_rb_frame) == 64, "PSP ring frame is 64 bytes");
_Static_assert(offsetof(struct psp_cmd_resp, cmd) == 28, "PSP command at +28");
_Static_assert(offsetof(struct psp_cmd_resp, resp) == 864, "PSP response at +864");
_Static_assert(sizeof(struct psp_cmd_resp) == 1024, "PSP command buffer is 1 KiB");

/* Statuses the PSP's trusted OS answers with (GlobalPlatform TEE Internal
 * Core API, TEE_Result; Linux psp_gfx_if.h uses TEE_ERROR_NOT_SUPPORTED). */
#define TEE_SUCCESS                 0x00000000u
#define TEE_ERROR_BAD_FORMAT        0xFFFF0005u
#define TEE_ERROR_BAD_PARAMETERS    0xFFFF0006u
#define TEE_ERROR_BAD_STATE         0xFFFF0007u
#define TEE_ERROR_NOT_SUPPORTED     0xFFFF000Au
#define PSP_ERR_UNKNOWN_COMMAND     0x00000100u

#endif
