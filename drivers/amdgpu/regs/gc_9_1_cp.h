/*
 * gc_9_1_cp.h - the compute side of the graphics core: the GRBM queue
 * select, the shader memory apertures, the MEC and its hardware queue
 * descriptors (HQDs), the RLC, and the v9 memory queue descriptor (MQD)
 * layout that mirrors the HQD registers.
 *
 * Offsets are dword indices in the GC IP's segment named per register
 * (BASE_IDX), from Linux drivers/gpu/drm/amd/include/asic_reg/gc/
 * gc_9_1_offset.h; fields from gc_9_1_sh_mask.h; reset values from
 * gc_9_0_default.h; enumerations from include/vega10_enum.h. GC 9.1.0
 * (Raven, Picasso), 9.2.2 (Raven2) and 9.3.0 (Renoir) share them.
 */
#ifndef DRIVERS_AMDGPU_REGS_GC_9_1_CP_H
#define DRIVERS_AMDGPU_REGS_GC_9_1_CP_H

#include "drivers/amdgpu/regs/soc15_reg.h"

/* ---- GRBM: which ME/pipe/queue and VMID the banked registers below mean
 * (BASE_IDX 0; Linux soc15_grbm_select). ---- */
#define GC_GRBM_GFX_CNTL                               0x0022
#define GRBM_GFX_CNTL__PIPEID_SHIFT                    0
#define GRBM_GFX_CNTL__PIPEID_MASK                     0x00000003u
#define GRBM_GFX_CNTL__MEID_SHIFT                      2
#define GRBM_GFX_CNTL__MEID_MASK                       0x0000000Cu
#define GRBM_GFX_CNTL__VMID_SHIFT                      4
#define GRBM_GFX_CNTL__VMID_MASK                       0x000000F0u
#define GRBM_GFX_CNTL__QUEUEID_SHIFT                   8
#define GRBM_GFX_CNTL__QUEUEID_MASK                    0x00000700u

/* ---- Shader memory apertures, banked per VMID (BASE_IDX 0) ---- */
#define GC_SH_MEM_BASES                                0x030a
#define GC_SH_MEM_CONFIG                               0x030d
#define SH_MEM_BASES__PRIVATE_BASE_SHIFT               0  /* bits 63:48 of the scratch aperture */
#define SH_MEM_BASES__PRIVATE_BASE_MASK                0x0000FFFFu
#define SH_MEM_BASES__SHARED_BASE_SHIFT                16 /* bits 63:48 of the LDS aperture */
#define SH_MEM_BASES__SHARED_BASE_MASK                 0xFFFF0000u
#define SH_MEM_CONFIG__ADDRESS_MODE_64                 0x0 /* vega10_enum.h SH_MEM_ADDRESS_MODE_64 */
#define SH_MEM_CONFIG__ALIGNMENT_MODE_SHIFT            3
#define SH_MEM_CONFIG__ALIGNMENT_MODE_MASK             0x00000018u
#define SH_MEM_ALIGNMENT_MODE_UNALIGNED                3  /* vega10_enum.h */
#define SH_MEM_CONFIG__RETRY_DISABLE                   0x00001000u

/* ---- Scratch ring size for compute (BASE_IDX 0) ---- */
#define GC_COMPUTE_TMPRING_SIZE                        0x0e18
#define COMPUTE_TMPRING_SIZE__WAVES_MASK               0x00000FFFu
#define COMPUTE_TMPRING_SIZE__WAVESIZE_SHIFT           12 /* in 1 KiB units (256 dwords) */
#define COMPUTE_TMPRING_SIZE__WAVESIZE_MASK            0x01FFF000u

/* ---- Address configuration (BASE_IDX 0) ---- */
#define GC_GB_ADDR_CONFIG                              0x063e

/* ---- MEC control and doorbell range (BASE_IDX 0) ---- */
#define GC_CP_MEC_CNTL                                 0x008d
#define CP_MEC_CNTL__MEC_ME2_HALT                      0x10000000u
#define CP_MEC_CNTL__MEC_ME1_HALT                      0x40000000u
#define GC_CP_MEC_DOORBELL_RANGE_LOWER                 0x105c /* byte offset in the doorbell BAR */
#define GC_CP_MEC_DOORBELL_RANGE_UPPER                 0x105d
/* The range's dword index (Linux gc_9_1_sh_mask.h, byte offset bits [27:2]). */
#define CP_MEC_DOORBELL_RANGE_LOWER__DOORBELL_RANGE_LOWER_SHIFT 2
#define CP_MEC_DOORBELL_RANGE_LOWER__DOORBELL_RANGE_LOWER_MASK  0x0FFFFFFCu
#define CP_MEC_DOORBELL_RANGE_UPPER__DOORBELL_RANGE_UPPER_SHIFT 2
#define CP_MEC_DOORBELL_RANGE_UPPER__DOORBELL_RANGE_UPPER_MASK  0x0FFFFFFCu
#define GC_CP_PQ_WPTR_POLL_CNTL                        0x1083
#define GC_CP_PQ_WPTR_POLL_CNTL1                       0x1084 /* one bit per queue of the MEC */
#define CP_PQ_WPTR_POLL_CNTL__EN                       0x80000000u /* reset 0: polling off */
#define GC_CP_PQ_STATUS                                0x10b8
#define CP_PQ_STATUS__DOORBELL_ENABLE                  0x00000002u /* reset 0: doorbells ignored */
#define GC_CPC_INT_CNTL                                0x10b4
#define GC_CP_ME1_PIPE0_INT_CNTL                       0x1085 /* +1 per pipe, ME1 pipes 0-3 */
#define CP_INT_CNTL__OPCODE_ERROR_INT_ENABLE           0x01000000u
#define CP_INT_CNTL__TIME_STAMP_INT_ENABLE             0x04000000u
#define CP_INT_CNTL__PRIV_REG_INT_ENABLE               0x00800000u
#define CP_INT_CNTL__GENERIC2_INT_ENABLE               0x20000000u

/* ---- The hardware queue descriptor of the selected ME/pipe/queue
 * (BASE_IDX 0). CP_MQD_BASE_ADDR .. CP_HQD_PQ_WPTR_HI are contiguous and
 * match the MQD's dwords 128..183 (include/v9_structs.h struct v9_mqd;
 * Linux kgd_gfx_v9_hqd_load writes them in that order). ---- */
#define GC_CP_MQD_BASE_ADDR                            0x1245
#define GC_CP_MQD_BASE_ADDR_HI                         0x1246
#define GC_CP_HQD_ACTIVE                               0x1247
#define GC_CP_HQD_VMID                                 0x1248
#define GC_CP_HQD_PERSISTENT_STATE                     0x1249
#define GC_CP_HQD_PIPE_PRIORITY                        0x124a
#define GC_CP_HQD_QUEUE_PRIORITY                       0x124b
#define GC_CP_HQD_QUANTUM                              0x124c
#define GC_CP_HQD_PQ_BASE                              0x124d
#define GC_CP_HQD_PQ_BASE_HI                           0x124e
#define GC_CP_HQD_PQ_RPTR                              0x124f
#define GC_CP_HQD_PQ_RPTR_REPORT_ADDR                  0x1250
#define GC_CP_HQD_PQ_RPTR_REPORT_ADDR_HI               0x1251
#define GC_CP_HQD_PQ_WPTR_POLL_ADDR                    0x1252
#define GC_CP_HQD_PQ_WPTR_POLL_ADDR_HI                 0x1253
#define GC_CP_HQD_PQ_DOORBELL_CONTROL                  0x1254
#define GC_CP_HQD_PQ_CONTROL                           0x1256
#define GC_CP_HQD_IB_CONTROL                           0x125a
#define GC_CP_HQD_IQ_TIMER                             0x125b
#define GC_CP_HQD_DEQUEUE_REQUEST                      0x125d
#define GC_CP_MQD_CONTROL                              0x1267
#define GC_CP_HQD_EOP_BASE_ADDR                        0x126a
#define GC_CP_HQD_EOP_BASE_ADDR_HI                     0x126b
#define GC_CP_HQD_EOP_CONTROL                          0x126c
#define GC_CP_HQD_EOP_RPTR                             0x126d
#define GC_CP_HQD_EOP_WPTR                             0x126e
#define GC_CP_HQD_ERROR                                0x1278
#define GC_CP_HQD_EOP_WPTR_MEM                         0x1279
#define GC_CP_HQD_AQL_CONTROL                          0x127a
#define GC_CP_HQD_PQ_WPTR_LO                           0x127b
#define GC_CP_HQD_PQ_WPTR_HI                           0x127c

#define CP_HQD_ACTIVE__ACTIVE                          0x00000001u
#define CP_HQD_PERSISTENT_STATE__PRELOAD_REQ           0x00000001u
#define CP_HQD_PERSISTENT_STATE__PRELOAD_SIZE_SHIFT    8
#define CP_HQD_QUANTUM__QUANTUM_EN                     0x00000001u
#define CP_HQD_QUANTUM__QUANTUM_SCALE_SHIFT            4
#define CP_HQD_QUANTUM__QUANTUM_DURATION_SHIFT         8
#define CP_HQD_PQ_CONTROL__QUEUE_SIZE_MASK             0x0000003Fu /* ring dwords = 2 << QUEUE_SIZE */
#define CP_HQD_PQ_CONTROL__RPTR_BLOCK_SIZE_SHIFT       8
#define CP_HQD_PQ_CONTROL__QUEUE_FULL_EN               0x00004000u
#define CP_HQD_PQ_CONTROL__WPP_CLAMP_EN                0x00010000u
#define CP_HQD_PQ_CONTROL__SLOT_BASED_WPTR_SHIFT       25 /* 2: write pointer counts 64-byte AQL slots */
#define CP_HQD_PQ_CONTROL__SLOT_BASED_WPTR_MASK        0x06000000u
#define CP_HQD_PQ_CONTROL__NO_UPDATE_RPTR              0x08000000u
#define CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_BIF_DROP  0x00000002u
#define CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_OFFSET_SHIFT 2 /* dword index in the doorbell BAR */
#define CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_OFFSET_MASK 0x0FFFFFFCu
#define CP_HQD_PQ_DOORBELL_CONTROL__DOORBELL_EN        0x40000000u
#define CP_HQD_IB_CONTROL__MIN_IB_AVAIL_SIZE_SHIFT     20
#define CP_HQD_IB_CONTROL__IB_EXE_DISABLE              0x00800000u
#define CP_HQD_EOP_CONTROL__EOP_SIZE_MASK              0x0000003Fu /* EOP dwords = 2 << EOP_SIZE */
#define CP_HQD_EOP_RPTR__INIT_FETCHER                  0x80000000u
#define CP_HQD_AQL_CONTROL__CONTROL0_SHIFT             0
#define CP_MQD_CONTROL__PRIV_STATE                     0x00000100u
/* CP_HQD_DEQUEUE_REQUEST.DEQUEUE_REQ (Linux amdgpu_amdkfd_gfx_v9.c enum
 * hqd_dequeue_request_type). */
#define CP_HQD_DEQUEUE_DRAIN_PIPE                      1
#define CP_HQD_DEQUEUE_RESET_WAVES                     2
/* CP_HQD_PIPE_PRIORITY (Linux kfd_mqd_manager.c pipe_priority_map). */
#define CP_HQD_PIPE_PRIORITY_LOW                       0
#define CP_HQD_PIPE_PRIORITY_MEDIUM                    1
#define CP_HQD_PIPE_PRIORITY_HIGH                      2

/* ---- The v9 MQD: 512 dwords in memory (include/v9_structs.h) ---- */
#define MQD_DWORDS                                     512
#define MQD_HEADER                                     0
#define MQD_COMPUTE_PIPELINESTAT_ENABLE                11
#define MQD_COMPUTE_STATIC_THREAD_MGMT_SE0             23
#define MQD_COMPUTE_STATIC_THREAD_MGMT_SE1             24
#define MQD_COMPUTE_TMPRING_SIZE                       25
#define MQD_COMPUTE_STATIC_THREAD_MGMT_SE2             26
#define MQD_COMPUTE_STATIC_THREAD_MGMT_SE3             27
#define MQD_HQD_FIRST                                  128 /* = CP_MQD_BASE_ADDR */
/* The MQD dword holding the value of HQD register `reg`. */
#define MQD_HQD(reg)                                   (MQD_HQD_FIRST + (reg) - GC_CP_MQD_BASE_ADDR)
#define MQD_HEADER_VALUE                               0xC0310800u /* Linux kfd_mqd_manager_v9.c init_mqd */

/* ---- RLC (BASE_IDX 1) ---- */
#define GC_RLC_CNTL                                    0x4c00
#define RLC_CNTL__RLC_ENABLE_F32                       0x00000001u
#define GC_RLC_CGCG_CGLS_CTRL                          0x4c49
#define GC_RLC_CP_SCHEDULERS                           0x4caa

/* ---- Doorbell layout of SOC15 chips: 64-bit doorbells, numbered
 * (Linux amdgpu_doorbell.h AMDGPU_DOORBELL64_*, vega10_reg_init.c). The
 * user queues' range is what CP_MEC_DOORBELL_RANGE admits. ---- */
#define DOORBELL64_KIQ                                 0x00
#define DOORBELL64_USERQUEUE_START                     0x0b
#define DOORBELL64_USERQUEUE_END                       0x8a

/* The registers above that the driver reads and writes, with their IP and
   segment (soc15_reg.h). */
#define REG_GC_CP_MQD_BASE_ADDR SOC15_REG(IP_GC, 0, GC_CP_MQD_BASE_ADDR) /* the HQD registers follow */
/* The HQD register at offset `reg` (GC_CP_MQD_BASE_ADDR .. GC_CP_HQD_PQ_WPTR_HI). */
#define REG_GC_HQD(reg) reg_at(REG_GC_CP_MQD_BASE_ADDR, (reg) - GC_CP_MQD_BASE_ADDR)
#define REG_GC_COMPUTE_TMPRING_SIZE SOC15_REG(IP_GC, 0, GC_COMPUTE_TMPRING_SIZE)
#define REG_GC_CPC_INT_CNTL SOC15_REG(IP_GC, 0, GC_CPC_INT_CNTL)
#define REG_GC_CP_HQD_ACTIVE SOC15_REG(IP_GC, 0, GC_CP_HQD_ACTIVE)
#define REG_GC_CP_HQD_DEQUEUE_REQUEST SOC15_REG(IP_GC, 0, GC_CP_HQD_DEQUEUE_REQUEST)
#define REG_GC_CP_HQD_EOP_RPTR SOC15_REG(IP_GC, 0, GC_CP_HQD_EOP_RPTR)
#define REG_GC_CP_HQD_PQ_DOORBELL_CONTROL SOC15_REG(IP_GC, 0, GC_CP_HQD_PQ_DOORBELL_CONTROL)
#define REG_GC_CP_ME1_PIPE0_INT_CNTL SOC15_REG(IP_GC, 0, GC_CP_ME1_PIPE0_INT_CNTL)
#define REG_GC_CP_MEC_CNTL SOC15_REG(IP_GC, 0, GC_CP_MEC_CNTL)
#define REG_GC_CP_MEC_DOORBELL_RANGE_LOWER SOC15_REG(IP_GC, 0, GC_CP_MEC_DOORBELL_RANGE_LOWER)
#define REG_GC_CP_MEC_DOORBELL_RANGE_UPPER SOC15_REG(IP_GC, 0, GC_CP_MEC_DOORBELL_RANGE_UPPER)
#define REG_GC_CP_PQ_STATUS SOC15_REG(IP_GC, 0, GC_CP_PQ_STATUS)
#define REG_GC_CP_PQ_WPTR_POLL_CNTL SOC15_REG(IP_GC, 0, GC_CP_PQ_WPTR_POLL_CNTL)
#define REG_GC_CP_PQ_WPTR_POLL_CNTL1 SOC15_REG(IP_GC, 0, GC_CP_PQ_WPTR_POLL_CNTL1)
#define REG_GC_GB_ADDR_CONFIG SOC15_REG(IP_GC, 0, GC_GB_ADDR_CONFIG)
#define REG_GC_GRBM_GFX_CNTL SOC15_REG(IP_GC, 0, GC_GRBM_GFX_CNTL)
#define REG_GC_RLC_CGCG_CGLS_CTRL SOC15_REG(IP_GC, 1, GC_RLC_CGCG_CGLS_CTRL)
#define REG_GC_RLC_CNTL SOC15_REG(IP_GC, 1, GC_RLC_CNTL)
#define REG_GC_SH_MEM_BASES SOC15_REG(IP_GC, 0, GC_SH_MEM_BASES)
#define REG_GC_SH_MEM_CONFIG SOC15_REG(IP_GC, 0, GC_SH_MEM_CONFIG)

#endif
