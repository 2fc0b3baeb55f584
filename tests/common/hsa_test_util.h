/*
 * hsa_test_util.h - helpers of the HSA runtime tests (tests/{common,host}/hsa_*.c):
 * finding agents and pools, and writing AQL packets the way a program
 * does (reserve a slot, write the body, publish the header, ring).
 */
#ifndef TESTS_HSA_TEST_UTIL_H
#define TESTS_HSA_TEST_UTIL_H

#include <hsa/hsa.h>
#include <hsa/hsa_cpu_kernel.h>
#include <hsa/hsa_ext_amd.h>

#include "lib/test.h"

#define HSA_ASSERT_OK(call) ASSERT_EQ((call), HSA_STATUS_SUCCESS)

/* CPU agents in iteration order; count returned. Skips the test when
 * there is none (an image booted on one core). */
uint32_t hsa_test_cpu_agents(hsa_agent_t *agents, uint32_t max);
hsa_amd_memory_pool_t hsa_test_kernarg_pool(hsa_agent_t agent);
/* Allocation from the pool `pool` points to (a hsa_amd_memory_pool_t), NULL
 * when refused, and its free (`unused` ignored): the corpus_alloc pair. */
void *hsa_test_pool_alloc(void *pool, size_t size);
void hsa_test_pool_free(void *unused, void *p);

/* A header with system-scope acquire and release fences. */
uint16_t hsa_test_header(hsa_packet_type_t type, bool barrier);

/* Writes a 64-byte packet (its first 16-bit header field is replaced by
 * `header`, published last) into the next slot of q and rings the doorbell;
 * waits while the queue is full. Returns the packet's index. */
uint64_t hsa_test_submit(hsa_queue_t *q, const void *packet, uint16_t header);

/* A 1-D..3-D kernel dispatch packet for a CPU kernel descriptor. */
hsa_kernel_dispatch_packet_t hsa_test_dispatch_packet(const hsa_cpu_kernel_descriptor_t *kernel,
                                                      uint32_t dims, const uint32_t grid[3],
                                                      const uint32_t wg[3], void *kernarg,
                                                      hsa_signal_t completion);

/* Waits for signal == value with a generous timeout; the value it saw. */
hsa_signal_value_t hsa_test_wait_eq(hsa_signal_t s, hsa_signal_value_t value);

/* Records the status an error callback received (tests read it). */
struct hsa_test_queue_error {
  _Atomic int calls;
  _Atomic int status;
};
void hsa_test_queue_error_callback(hsa_status_t status, hsa_queue_t *source, void *data);

#endif
