/*
 * gpu_kernel.h - a GPU kernel from a code object file, the way a program
 * written for ROCr gets one: the first GPU agent and its kernarg pool,
 * hsa_code_object_reader_create_from_file, an executable for the agent,
 * the kernel descriptor symbol and its segment sizes, and a dispatch
 * packet for it. No test framework: the GPU tests, the AQL fuzz target
 * and the GPU benchmark use it alike.
 */
#ifndef SUPPORT_GPU_KERNEL_H
#define SUPPORT_GPU_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

/* The first GPU agent, and the pool of `agent`'s regions that holds kernel
 * arguments (KERNARG_INIT). False when there is none. */
bool gpu_find_agent(hsa_agent_t *out);
bool gpu_find_kernarg_pool(hsa_agent_t agent, hsa_amd_memory_pool_t *out);

struct gpu_kernel {
  hsa_code_object_reader_t reader;
  hsa_executable_t executable;
  uint64_t object; /* KERNEL_OBJECT: the kernel descriptor's address */
  uint32_t kernarg_size, group_size, private_size;
  bool dynamic_stack;
};

/* Loads the code object file at `path` for `agent` and finds `symbol`
 * ("<name>.kd"). `variable`, when not NULL, is a program variable the
 * application defines at `address` before loading. On failure everything
 * is released, `why` names the step and the status is returned. */
hsa_status_t gpu_kernel_load(hsa_agent_t agent, const char *path, const char *symbol,
                             const char *variable, void *address, struct gpu_kernel *k,
                             char *why, size_t why_size);
void gpu_kernel_release(struct gpu_kernel *k);

/* A kernel dispatch packet body (header left 0: the submitter writes it
 * last): `dims` dimensions of grid[] in work-groups of wg[] (unused
 * dimensions 1), the kernel's group and private segment sizes (plus
 * `extra_private` bytes per work-item), its arguments and signal. */
void gpu_kernel_packet(const struct gpu_kernel *k, uint32_t dims, const uint32_t grid[3],
                       const uint32_t wg[3], uint32_t extra_private, void *kernarg,
                       hsa_signal_t completion, hsa_kernel_dispatch_packet_t *p);

#endif
