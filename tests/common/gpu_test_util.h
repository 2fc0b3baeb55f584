/*
 * gpu_test_util.h - helpers of the GPU agent tests (tests/{common,host}/gpu_*.c).
 */
#ifndef TESTS_COMMON_GPU_TEST_UTIL_H
#define TESTS_COMMON_GPU_TEST_UTIL_H

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

/* The first GPU agent. On the host there always is one (the virtual APU):
 * none fails the test; in the image the test is skipped when the boot
 * options asked for no GPU. */
hsa_agent_t gpu_test_agent(void);

/* The GPU agent's local pool (its first, as ROCr lists it) and what it can
 * still give (HSA_AMD_AGENT_INFO_MEMORY_AVAIL). */
hsa_amd_memory_pool_t gpu_test_local_pool(hsa_agent_t gpu);
uint64_t gpu_test_memory_avail(hsa_agent_t gpu);

#endif
