/*
 * amd_hsa_queue.h - amd_queue_t, the 256-byte queue descriptor the packet
 * processor and the compiler's code read (ROCR-Runtime src/inc/
 * amd_hsa_queue.h: field names, order and offsets). hsa_queue_t is its
 * first 40 bytes; the hsa_queue_t* the API hands out points at it.
 *
 * Offsets in the comments are checked by the _Static_asserts at the end.
 */
#ifndef AMD_HSA_QUEUE_H
#define AMD_HSA_QUEUE_H

#include "amd_hsa_common.h"
#include "hsa.h"

typedef uint32_t amd_queue_properties32_t;
enum amd_queue_properties_t {
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER, 0, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_IS_PTR64, 1, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS, 2, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 3, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE, 4, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_RESERVED1, 5, 27)
};

typedef uint32_t amd_queue_capabilities32_t;
enum amd_queue_capabilities_t {
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_CAPS_ASYNC_RECLAIM, 0, 1),
};

#define AMD_QUEUE_ALIGN_BYTES 64
#define AMD_QUEUE_ALIGN __ALIGNED__(AMD_QUEUE_ALIGN_BYTES)

typedef struct AMD_QUEUE_ALIGN amd_queue_s {
  hsa_queue_t hsa_queue;                          /*   0 */
  uint32_t caps;                                  /*  40 */
  uint32_t reserved1[3];                          /*  44 */
  volatile uint64_t write_dispatch_id;            /*  56: the write index */
  uint32_t group_segment_aperture_base_hi;        /*  64 */
  uint32_t private_segment_aperture_base_hi;      /*  68 */
  uint32_t max_cu_id;                             /*  72 */
  uint32_t max_wave_id;                           /*  76 */
  volatile uint64_t max_legacy_doorbell_dispatch_id_plus_1; /* 80 */
  volatile uint32_t legacy_doorbell_lock;         /*  88 */
  uint32_t reserved2[9];                          /*  92 */
  volatile uint64_t read_dispatch_id;             /* 128: the read index */
  uint32_t read_dispatch_id_field_base_byte_offset; /* 136 */
  uint32_t compute_tmpring_size;                  /* 140 */
  uint32_t scratch_resource_descriptor[4];        /* 144 */
  uint64_t scratch_backing_memory_location;       /* 160 */
  uint64_t scratch_backing_memory_byte_size;      /* 168 */
  uint32_t scratch_wave64_lane_byte_size;         /* 176 */
  amd_queue_properties32_t queue_properties;      /* 180 */
  volatile uint64_t scratch_last_used_index;      /* 184 */
  hsa_signal_t queue_inactive_signal;             /* 192 */
  uint32_t reserved4[2];                          /* 200 */
  volatile uint64_t alt_scratch_last_used_index;  /* 208 */
  uint64_t alt_scratch_backing_memory_location;   /* 216 */
  uint64_t alt_scratch_backing_memory_byte_size;  /* 224 */
  uint32_t alt_scratch_dispatch_limit_x;          /* 232 */
  uint32_t alt_scratch_dispatch_limit_y;          /* 236 */
  uint32_t alt_scratch_dispatch_limit_z;          /* 240 */
  uint32_t alt_scratch_wave64_lane_byte_size;     /* 244 */
  uint32_t alt_compute_tmpring_size;              /* 248 */
  uint32_t reserved5;                             /* 252 */
} amd_queue_t;

#if defined(HSA_LARGE_MODEL) && !defined(__cplusplus)
_Static_assert(sizeof(amd_queue_t) == 256, "amd_queue_t is 256 bytes");
_Static_assert(offsetof(amd_queue_t, write_dispatch_id) == 56, "amd_queue_t.write_dispatch_id");
_Static_assert(offsetof(amd_queue_t, max_cu_id) == 72, "amd_queue_t.max_cu_id");
_Static_assert(offsetof(amd_queue_t, legacy_doorbell_lock) == 88, "amd_queue_t.legacy_doorbell_lock");
_Static_assert(offsetof(amd_queue_t, read_dispatch_id) == 128, "amd_queue_t.read_dispatch_id");
_Static_assert(offsetof(amd_queue_t, compute_tmpring_size) == 140, "amd_queue_t.compute_tmpring_size");
_Static_assert(offsetof(amd_queue_t, scratch_resource_descriptor) == 144, "amd_queue_t.scratch_srd");
_Static_assert(offsetof(amd_queue_t, scratch_backing_memory_location) == 160, "amd_queue_t.scratch");
_Static_assert(offsetof(amd_queue_t, scratch_wave64_lane_byte_size) == 176, "amd_queue_t.lane size");
_Static_assert(offsetof(amd_queue_t, queue_properties) == 180, "amd_queue_t.queue_properties");
_Static_assert(offsetof(amd_queue_t, queue_inactive_signal) == 192, "amd_queue_t.inactive_signal");
_Static_assert(offsetof(amd_queue_t, alt_scratch_last_used_index) == 208, "amd_queue_t.alt_scratch");
_Static_assert(offsetof(amd_queue_t, alt_compute_tmpring_size) == 248, "amd_queue_t.alt_tmpring");
#endif

#endif
