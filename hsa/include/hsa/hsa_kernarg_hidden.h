/*
 * hsa_kernarg_hidden.h - filling a GPU kernel's hidden arguments (an
 * hsa-metal extension; not part of ROCr).
 *
 * Code objects v5 and later read the dispatch geometry from "hidden"
 * kernel arguments placed after the explicit ones: work-group counts,
 * work-group sizes, the size of a partial last work-group, the number of
 * dimensions, and more (LLVM AMDGPUUsage, "Code Object V5 Metadata"; v4 has
 * the OpenCL global offsets). ROCr's HIP and OpenCL runtimes fill them from
 * the kernel's metadata; a program that dispatches through raw HSA has to
 * do the same, and this function does it:
 *
 *   hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
 *                                  &packet->kernel_object);
 *   ... set the packet's setup, sizes, group_segment_size, kernarg_address ...
 *   memcpy(kernarg, &explicit_args, sizeof explicit_args);
 *   hsa_kernarg_fill_hidden(packet, queue, kernarg, kernarg_size);
 *
 * Every hidden argument the kernel's metadata lists is written at its
 * offset: block counts (grid / work-group, whole groups only), group sizes,
 * remainders (grid % work-group), grid dimensions, dynamic LDS size
 * (packet->group_segment_size minus the kernel's fixed group segment size),
 * the queue pointer and the private and shared aperture bases (from the
 * queue's amd_queue_t; 0 without a queue), global offsets 0. Buffers this
 * runtime does not provide (printf, hostcall, heap, default queue,
 * completion action, multi-grid sync) and kinds it does not know are
 * written as 0. The explicit arguments are left alone.
 *
 * Returns HSA_STATUS_SUCCESS, or HSA_STATUS_ERROR_INVALID_ARGUMENT (and
 * writes nothing, logging one line) for a NULL pointer, a kernel object no
 * loaded code object defines, a geometry the kernel cannot take (dimensions
 * outside 1..3, a zero size, unused dimensions not 1, a work-group larger
 * than the kernel's maximum or other than its required size, a
 * group_segment_size below the kernel's fixed size) or a kernarg buffer
 * smaller than the kernel's kernarg segment.
 */
#ifndef HSA_KERNARG_HIDDEN_H
#define HSA_KERNARG_HIDDEN_H

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

hsa_status_t HSA_API hsa_kernarg_fill_hidden(const hsa_kernel_dispatch_packet_t *packet,
                                             const hsa_queue_t *queue, void *kernarg,
                                             size_t kernarg_size);

#ifdef __cplusplus
}
#endif

#endif
