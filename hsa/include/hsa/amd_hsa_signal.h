/*
 * amd_hsa_signal.h - amd_signal_t, the 64-byte signal the packet processor
 * (CPU agent or GPU command processor) reads and decrements (ROCR-Runtime
 * src/inc/amd_hsa_signal.h: field names, order and offsets). A signal's
 * hsa_signal_t handle is the address of its amd_signal_t.
 */
#ifndef AMD_HSA_SIGNAL_H
#define AMD_HSA_SIGNAL_H

#include "amd_hsa_common.h"
#include "amd_hsa_queue.h"

typedef int64_t amd_signal_kind64_t;
enum amd_signal_kind_t {
  AMD_SIGNAL_KIND_INVALID = 0,
  AMD_SIGNAL_KIND_USER = 1,             /* value is the signal's value */
  AMD_SIGNAL_KIND_DOORBELL = -1,        /* a store writes *hardware_doorbell_ptr */
  AMD_SIGNAL_KIND_LEGACY_DOORBELL = -2
};

#define AMD_SIGNAL_ALIGN_BYTES 64
#define AMD_SIGNAL_ALIGN __ALIGNED__(AMD_SIGNAL_ALIGN_BYTES)

typedef struct AMD_SIGNAL_ALIGN amd_signal_s {
  amd_signal_kind64_t kind;                           /*  0 */
  union {                                             /*  8 */
    volatile int64_t value;
    volatile uint32_t *legacy_hardware_doorbell_ptr;
    volatile uint64_t *hardware_doorbell_ptr;
  };
  uint64_t event_mailbox_ptr; /* 16: where the GPU writes event_id to interrupt */
  uint32_t event_id;          /* 24 */
  uint32_t reserved1;         /* 28 */
  uint64_t start_ts;          /* 32: dispatch start, timestamp ticks (profiling) */
  uint64_t end_ts;            /* 40 */
  union {                     /* 48: doorbell signals: the queue they ring */
    amd_queue_t *queue_ptr;
    uint64_t reserved2;
  };
  uint32_t reserved3[2];      /* 56 */
} amd_signal_t;

#if defined(HSA_LARGE_MODEL) && !defined(__cplusplus)
_Static_assert(sizeof(amd_signal_t) == 64, "amd_signal_t is 64 bytes");
_Static_assert(offsetof(amd_signal_t, value) == 8, "amd_signal_t.value");
_Static_assert(offsetof(amd_signal_t, event_mailbox_ptr) == 16, "amd_signal_t.event_mailbox_ptr");
_Static_assert(offsetof(amd_signal_t, event_id) == 24, "amd_signal_t.event_id");
_Static_assert(offsetof(amd_signal_t, start_ts) == 32, "amd_signal_t.start_ts");
_Static_assert(offsetof(amd_signal_t, end_ts) == 40, "amd_signal_t.end_ts");
_Static_assert(offsetof(amd_signal_t, queue_ptr) == 48, "amd_signal_t.queue_ptr");
#endif

#endif
