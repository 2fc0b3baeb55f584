/*
 * amd_hsa_kernel_code.h - the AMDGPU kernel descriptor: the 64-byte,
 * 64-byte-aligned record in a code object's .rodata whose address is a
 * kernel's kernel_object (hsa_kernel_dispatch_packet_t.kernel_object) for a
 * GPU agent. The command processor (and our virtual APU) reads it to start
 * the kernel's waves.
 *
 * Source of every field, offset and bit: LLVM AMDGPUUsage, "Kernel
 * Descriptor" (code object V3 and later), tables "Kernel Descriptor for
 * GFX6-GFX12", "compute_pgm_rsrc1 for GFX6-GFX12", "compute_pgm_rsrc2 for
 * GFX6-GFX12" and "Kernel Code Properties"; field names as there.
 */
#ifndef AMD_HSA_KERNEL_CODE_H
#define AMD_HSA_KERNEL_CODE_H

#include "amd_hsa_common.h"
#include "hsa.h"

#define AMD_KERNEL_DESCRIPTOR_ALIGN_BYTES 64

typedef struct amd_kernel_descriptor_s {
  uint32_t group_segment_fixed_size;    /*  0: LDS bytes per work-group */
  uint32_t private_segment_fixed_size;  /*  4: scratch bytes per work-item */
  uint32_t kernarg_size;                /*  8: kernarg segment bytes */
  uint8_t reserved0[4];                 /* 12 */
  int64_t kernel_code_entry_byte_offset; /* 16: entry = descriptor address + this */
  uint8_t reserved1[20];                /* 24 */
  uint32_t compute_pgm_rsrc3;           /* 44: gfx90a+/gfx10+ only */
  uint32_t compute_pgm_rsrc1;           /* 48 */
  uint32_t compute_pgm_rsrc2;           /* 52 */
  uint16_t kernel_code_properties;      /* 56 */
  uint16_t kernarg_preload;             /* 58: gfx90a+ */
  uint8_t reserved3[4];                 /* 60 */
} amd_kernel_descriptor_t;

/* COMPUTE_PGM_RSRC1 (AMDGPUUsage; gfx9 meaning). */
enum amd_kd_compute_pgm_rsrc1_t {
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT, 0, 6),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT, 6, 4),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_PRIORITY, 10, 2),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_FLOAT_ROUND_MODE_32, 12, 2),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_FLOAT_ROUND_MODE_16_64, 14, 2),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_FLOAT_DENORM_MODE_32, 16, 2),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_FLOAT_DENORM_MODE_16_64, 18, 2),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_PRIV, 20, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_ENABLE_DX10_CLAMP, 21, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_DEBUG_MODE, 22, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_ENABLE_IEEE_MODE, 23, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_BULKY, 24, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_CDBG_USER, 25, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC1_FP16_OVFL, 26, 1), /* gfx9+ */
};

/* COMPUTE_PGM_RSRC2 (AMDGPUUsage). */
enum amd_kd_compute_pgm_rsrc2_t {
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_PRIVATE_SEGMENT, 0, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_USER_SGPR_COUNT, 1, 5),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_TRAP_HANDLER, 6, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X, 7, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y, 8, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z, 9, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_SGPR_WORKGROUP_INFO, 10, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_VGPR_WORKITEM_ID, 11, 2),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_ADDRESS_WATCH, 13, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_MEMORY, 14, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_GRANULATED_LDS_SIZE, 15, 9),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION, 24, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE, 25, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO, 26, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW, 27, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW, 28, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT, 29, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_RSRC2_ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO, 30, 1),
};

/* kernel_code_properties: which user SGPRs the CP sets up, in this order. */
enum amd_kd_kernel_code_properties_t {
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER, 0, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_ENABLE_SGPR_DISPATCH_PTR, 1, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_ENABLE_SGPR_QUEUE_PTR, 2, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_ENABLE_SGPR_KERNARG_SEGMENT_PTR, 3, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_ENABLE_SGPR_DISPATCH_ID, 4, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_ENABLE_SGPR_FLAT_SCRATCH_INIT, 5, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE, 6, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_ENABLE_WAVEFRONT_SIZE32, 10, 1), /* gfx10+ */
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_USES_DYNAMIC_STACK, 11, 1),
};

/* kernarg_preload (gfx90a+). */
enum amd_kd_kernarg_preload_t {
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_KERNARG_PRELOAD_SPEC_LENGTH, 0, 7),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KD_KERNARG_PRELOAD_SPEC_OFFSET, 7, 9),
};

#if !defined(__cplusplus)
_Static_assert(sizeof(amd_kernel_descriptor_t) == 64, "kernel descriptor is 64 bytes");
_Static_assert(offsetof(amd_kernel_descriptor_t, private_segment_fixed_size) == 4, "kd");
_Static_assert(offsetof(amd_kernel_descriptor_t, kernarg_size) == 8, "kd.kernarg_size");
_Static_assert(offsetof(amd_kernel_descriptor_t, kernel_code_entry_byte_offset) == 16, "kd.entry");
_Static_assert(offsetof(amd_kernel_descriptor_t, compute_pgm_rsrc3) == 44, "kd.rsrc3");
_Static_assert(offsetof(amd_kernel_descriptor_t, compute_pgm_rsrc1) == 48, "kd.rsrc1");
_Static_assert(offsetof(amd_kernel_descriptor_t, compute_pgm_rsrc2) == 52, "kd.rsrc2");
_Static_assert(offsetof(amd_kernel_descriptor_t, kernel_code_properties) == 56, "kd.properties");
_Static_assert(offsetof(amd_kernel_descriptor_t, kernarg_preload) == 58, "kd.kernarg_preload");
#endif

#endif
