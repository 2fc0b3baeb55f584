/*
 * soc15_ih.h - the interrupt vector (IV) format of SOC15 chips and the
 * client and source IDs compute needs.
 *
 * IV layout: 8 dwords (32 bytes) per entry, Linux amdgpu_ih.c
 * amdgpu_ih_decode_iv_helper and amdkfd/soc15_int.h. Client IDs: Linux
 * include/soc15_ih_clientid.h. Source IDs: include/ivsrcid/gfx/
 * irqsrcs_gfx_9_0.h and ivsrcid/vmc/irqsrcs_vmc_1_0.h. SQ interrupt word:
 * amdkfd/kfd_int_process_v9.c.
 */
#ifndef DRIVERS_AMDGPU_REGS_SOC15_IH_H
#define DRIVERS_AMDGPU_REGS_SOC15_IH_H

#define IH_IV_ENTRY_BYTES            32

/* dw0 */
#define IH_IV_CLIENT_ID(dw0)         ((dw0) & 0xffu)
#define IH_IV_SOURCE_ID(dw0)         (((dw0) >> 8) & 0xffu)
#define IH_IV_RING_ID(dw0)           (((dw0) >> 16) & 0xffu)
#define IH_IV_VMID(dw0)              (((dw0) >> 24) & 0xfu)
#define IH_IV_VMID_SRC(dw0)          ((dw0) >> 31) /* 0 = GFX hub, 1 = MM hub */
/* dw1, dw2[15:0]: timestamp; dw3[15:0]: pasid; dw4..dw7: src_data[0..3] */

#define SOC15_IH_CLIENTID_RLC        0x07
#define SOC15_IH_CLIENTID_SE0SH      0x0a
#define SOC15_IH_CLIENTID_SE1SH      0x0b
#define SOC15_IH_CLIENTID_SE2SH      0x0c
#define SOC15_IH_CLIENTID_SE3SH      0x0d
#define SOC15_IH_CLIENTID_VMC        0x12 /* MM hub VM faults */
#define SOC15_IH_CLIENTID_GRBM_CP    0x14
#define SOC15_IH_CLIENTID_UTCL2      0x1b /* GFX hub VM faults */

#define GFX_9_0__SRCID__CP_EOP_INTERRUPT    181
#define GFX_9_0__SRCID__CP_BAD_OPCODE_ERROR 183
/* CP_BAD_OPCODE's context_id0: the queue's doorbell id [9:0] and the error
 * code [25:10] (amdkfd kfd_int_process_v9.c KFD_DEBUG_DOORBELL_ID,
 * KFD_DEBUG_CP_BAD_OP_ECODE). */
#define IH_BAD_OPCODE_DOORBELL(ctx)         ((ctx) & 0x3ffu)
#define IH_BAD_OPCODE_CODE(ctx)             (((ctx) & 0x3fffc00u) >> 10)
#define GFX_9_0__SRCID__CP_PRIV_REG_FAULT   184
#define GFX_9_0__SRCID__CP_PRIV_INSTR_FAULT 185
#define GFX_9_0__SRCID__CP_ECC_ERROR        197
#define GFX_9_0__SRCID__SQ_INTERRUPT_ID     239
#define VMC_1_0__SRCID__VM_FAULT            0
#define UTCL2_1_0__SRCID__FAULT             0

/* VM fault src_data (Linux gmc_v9_0_process_interrupt): page address
 * [43:12] in src_data[0], [47:44] in src_data[1][3:0]; write = bit 5,
 * retry = bit 7 of src_data[1]. */
#define IH_VM_FAULT_ADDR_HI_MASK     0xfu
#define IH_VM_FAULT_WRITE            0x20u
#define IH_VM_FAULT_RETRY            0x80u

/* CP ring_id: pipe [1:0], me [3:2], queue [6:4] (Linux gfx_v9_0_eop_irq). */
#define IH_CP_RING_PIPE(r)           ((r) & 0x3u)
#define IH_CP_RING_ME(r)             (((r) >> 2) & 0x3u)
#define IH_CP_RING_QUEUE(r)          (((r) >> 4) & 0x7u)

/* SQ interrupt word in src_data[0] (context_id0) */
#define SQ_INTERRUPT_WORD_ENCODING_SHIFT    26
#define SQ_INTERRUPT_WORD_ENCODING_MASK     0x0c000000u
#define SQ_INTERRUPT_WORD_ENCODING_AUTO     0
#define SQ_INTERRUPT_WORD_ENCODING_INST     1
#define SQ_INTERRUPT_WORD_ENCODING_ERROR    2
#define SQ_INTERRUPT_WORD_WAVE_DATA_MASK    0x00000fffu
#define SQ_INTERRUPT_WORD_WAVE_SH_ID_SHIFT  12
#define SQ_INTERRUPT_WORD_WAVE_WAVE_ID_SHIFT 14 /* 0x0003c000 */
#define SQ_INTERRUPT_WORD_WAVE_SIMD_ID_SHIFT 18 /* 0x000c0000 */
#define SQ_INTERRUPT_WORD_WAVE_CU_ID_SHIFT  20 /* 0x00f00000 */
#define SQ_INTERRUPT_WORD_WAVE_SE_ID_SHIFT  24 /* 0x03000000 */
/* Error type: KFD_CONTEXT_ID_GET_SQ_INT_DATA(ctx0, ctx1) bits [23:20] */
#define SQ_INT_DATA(ctx0, ctx1) \
  (((ctx0) & 0xfffu) | (((ctx0) >> 16) & 0xf000u) | (((ctx1) << 16) & 0xff0000u))
#define SQ_INT_DATA_ERR_TYPE(d)             (((d) >> 20) & 0xfu)
#define SQ_INTERRUPT_ERROR_TYPE_EDC_FUE     0
#define SQ_INTERRUPT_ERROR_TYPE_ILLEGAL_INST 1
#define SQ_INTERRUPT_ERROR_TYPE_MEMVIOL     2
#define SQ_INTERRUPT_ERROR_TYPE_EDC_FED     3

#endif
