/*
 * gpu_test_util.h - helpers of the GPU agent tests (tests/{common,host}/gpu_*.c).
 */
#ifndef TESTS_COMMON_GPU_TEST_UTIL_H
#define TESTS_COMMON_GPU_TEST_UTIL_H

#include <hsa/hsa.h>

/* The first GPU agent. On the host there always is one (the virtual APU):
 * none fails the test; in the image the test is skipped when the boot
 * options asked for no GPU. */
hsa_agent_t gpu_test_agent(void);

#endif
