/*
 * amd_hsa_common.h - helpers shared by the AMD ABI headers: alignment and
 * bit-field enumerators (NAME_SHIFT, NAME_WIDTH, NAME = mask), with the
 * names ROCR-Runtime's src/inc/amd_hsa_common.h gives them.
 */
#ifndef AMD_HSA_COMMON_H
#define AMD_HSA_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define AMD_HSA_ABI_VERSION "AMD GPU Architecture v0.35 (June 25, 2015)"

#define __ALIGNED__(x) __attribute__((aligned(x)))

/* Three enumerators for a bit field: its shift, its width and its mask. */
#define AMD_HSA_BITS_CREATE_ENUM_ENTRIES(name, shift, width) \
  name##_SHIFT = (shift), name##_WIDTH = (width), name = (((1 << (width)) - 1) << (shift))

#define AMD_HSA_BITS_GET(src, mask) (((src) & (mask)) >> mask##_SHIFT)
#define AMD_HSA_BITS_SET(dst, mask, val) \
  ((dst) = ((dst) & ~(mask)) | ((((uint32_t)(val)) << mask##_SHIFT) & (mask)))

#endif
