/*
 * gpu_queue_test_util.h - what the tests of many GPU queues share
 * (gpu_queue_sched_test.c, gpu_cu_mask_test.c): the runtime opened with
 * the GPU agent, the kernels of tests/data/gpu/queues.cl and faults.cl,
 * kernarg memory handed out in order, and dispatches of those kernels.
 */
#ifndef TESTS_COMMON_GPU_QUEUE_TEST_UTIL_H
#define TESTS_COMMON_GPU_QUEUE_TEST_UTIL_H

#include <stdint.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "support/gpu_kernel.h"

struct gpu_queue_env {
  hsa_agent_t gpu;
  hsa_amd_memory_pool_t pool; /* kernarg (system, fine-grained) */
  struct gpu_kernel step, hw_id, count_and_wait, trap, store;
  uint32_t compute_units;
  uint8_t *kernargs;
  size_t kernargs_used;
};

/* hsa_init, the GPU agent and its kernels; gpu_queue_env_close undoes it. */
void gpu_queue_env_open(struct gpu_queue_env *e);
void gpu_queue_env_close(struct gpu_queue_env *e);

/* Zeroed memory the GPU reaches (freed at close). */
void *gpu_queue_env_alloc(struct gpu_queue_env *e, size_t bytes);

/* A queue of `packets` with error reports to `error` (may be NULL). */
hsa_queue_t *gpu_queue_env_queue(struct gpu_queue_env *e, uint32_t packets, void *error);

/* Submits a dispatch of `k` (1-D, `items` work-items in groups of `group`)
 * with two 64-bit arguments and the barrier bit, completing `done`. */
uint64_t gpu_queue_env_dispatch(struct gpu_queue_env *e, hsa_queue_t *q, const struct gpu_kernel *k,
                                uint32_t items, uint32_t group, uint64_t arg0, uint64_t arg1,
                                hsa_signal_t done);
/* Submits a barrier-AND on `dep` (0: none) completing `done` (0: none). */
uint64_t gpu_queue_env_barrier(hsa_queue_t *q, hsa_signal_t dep, hsa_signal_t done);

/* Loads of a GPU queue that had waited for a hardware slot (the driver's
 * count for the first GPU). */
uint64_t gpu_queue_env_swap_ins(void);

#endif
