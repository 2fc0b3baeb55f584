/* amdgpu_test_util.h - what the driver's tests share: a device on the
 * virtual APU with a fault log, waiting for what the interrupt thread
 * reports, and the memory of an AQL queue. */
#ifndef TESTS_AMDGPU_TEST_UTIL_H
#define TESTS_AMDGPU_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include <hsa/amd_hsa_signal.h>

#include "drivers/amdgpu/amdgpu_vapu.h"

#define AMDGPU_TEST_CARVEOUT (32ull << 20)

struct amdgpu_fault_log {
  int count;
  struct amdgpu_fault last;
};

/* Skips the test when the virtual APU cannot run: it needs a core (image)
 * or thread (host) of its own, and the image's smp1 runs have none. */
void amdgpu_test_need_model(void);

/* A device on a fresh model of `chip`; every fault goes to `log`. NULL if
 * the bring-up failed. Skips like amdgpu_test_need_model. */
struct amdgpu_device *amdgpu_test_bring_up(enum vapu_chip_id chip, struct amdgpu_fault_log *log);

/* Waits (at most 2 s) until *counter reaches `n`; returns its value. The
 * driver reports interrupts from its own thread, after the GPU access that
 * raised them has returned. */
int amdgpu_test_wait_count(const int *counter, int n);

/* The runtime's side of a queue: amd_queue_t and a ring of `packets`
 * INVALID packets, in RAM. */
struct amdgpu_test_queue {
  amd_queue_t *amd;
  uint32_t ring_bytes;
};
int amdgpu_test_queue_alloc(struct amdgpu_test_queue *t, uint32_t packets);
void amdgpu_test_queue_free(struct amdgpu_test_queue *t);

/* Writes a barrier-AND packet without dependencies whose completion signal
 * is `done` (set to 1) at the queue's next write index, header last, and
 * bumps the write index; returns the packet's index. Does not ring. */
uint64_t amdgpu_test_publish_barrier(struct amdgpu_test_queue *t, amd_signal_t *done);
/* Waits up to timeout_ns until the CP has retired packet `index` (done at
 * 0 and the read index past it). */
bool amdgpu_test_retired(struct amdgpu_test_queue *t, amd_signal_t *done, uint64_t index, uint64_t timeout_ns);

/* A test that makes incoherent GPU accesses on purpose says so after it
 * did (the after-each check fails every other test that makes one). */
void amdgpu_test_incoherence_expected(void);

#endif
