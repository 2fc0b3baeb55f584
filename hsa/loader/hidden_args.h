/*
 * hidden_args.h - the implicit ("hidden_*") kernel arguments a dispatch
 * must set up behind the explicit ones.
 *
 * The kernel's metadata lists each hidden argument with its offset, size and
 * value kind; their meaning is AMDGPUUsage "Code Object V5 Metadata" (block
 * counts, group sizes, remainders, grid dimensions, dynamic LDS size, ...)
 * and, for the kinds code object v4 already had, "Code Object V3 Metadata"
 * (global offsets, printf buffer, default queue, ...).
 */
#ifndef HSA_LOADER_HIDDEN_ARGS_H
#define HSA_LOADER_HIDDEN_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "hsa/loader/loader.h"

/* What a dispatch knows: the AQL packet's geometry plus the runtime's
 * buffers. Unused dimensions have size 1 (HSA AQL rules). */
struct loader_dispatch {
  uint32_t dims;              /* 1..3 */
  uint32_t workgroup_size[3]; /* work-items */
  uint32_t grid_size[3];      /* work-items */
  uint32_t dynamic_lds_size;  /* group segment bytes beyond the kernel's fixed size */
  uint64_t global_offset[3];  /* OpenCL global work offset, usually 0 */
  uint64_t printf_buffer, hostcall_buffer, default_queue, completion_action;
  uint64_t multigrid_sync_arg, heap_v1, queue_ptr;
  uint32_t private_base, shared_base; /* high 32 bits of the aperture bases */
};

/* Writes every hidden argument of kernel `k` into `kernarg` (the whole
 * kernarg segment, `kernarg_size` bytes, explicit arguments already there
 * and left alone). Kinds with nothing to pass (hidden_none, unknown kinds,
 * buffers given as 0) are zeroed. Fails, writing nothing, on a geometry the
 * kernel cannot take (dims, zero sizes, reqd_work_group_size, max flat size)
 * or a kernarg buffer smaller than the kernel's kernarg segment. */
enum loader_status loader_fill_hidden_args(const struct loader_kernel_meta *k,
                                           const struct loader_dispatch *d, void *kernarg,
                                           size_t kernarg_size, char *why, size_t why_size);

#endif
