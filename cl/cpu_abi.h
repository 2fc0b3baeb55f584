/*
 * cpu_abi.h - the interface between the CPU part of a tools/hsacc file (an
 * x86-64 ELF shared object) and the runtime that loads it for a CPU agent
 * (hsa/cl_program.c).
 *
 * The shared object exports (dynamic symbol table, default visibility):
 *   __hsacl_abi_version   const uint32_t, HSACL_ABI_VERSION
 *   __hsacl_kernels       const struct hsacl_kernel[__hsacl_kernel_count]
 *   __hsacl_kernel_count  const uint32_t
 *   __hsacl_run_groups    void (struct hsacl_group *): runs a run of
 *                         work-groups of one dispatch
 * tools/hsacc generates the kernel table and one wrapper per kernel from
 * the GPU code object's metadata (LLVM AMDGPUUsage, "Code Object V3 to V5
 * Metadata": .args with .offset/.size/.value_kind), so that a wrapper reads
 * the explicit arguments from the GPU's kernarg layout: one kernarg buffer
 * serves a dispatch to either agent, and one loop over the work-items of a
 * group per kernel (hsacl_items_fn). A __local pointer argument
 * (dynamic_shared_pointer) is an offset into the work-group's group
 * segment in the kernarg, turned into a pointer by the wrapper.
 *
 * The runtime loads one instance of the object per core of the agent, so
 * that kernel-scope __local variables (internal data of the object) are
 * private to the work-group that core runs; symbols of default visibility
 * that are data (program-scope __global and __constant variables) resolve
 * to the first instance's copy, shared by all.
 */
#ifndef CL_CPU_ABI_H
#define CL_CPU_ABI_H

#include <stddef.h>
#include <stdint.h>

/* 2: struct hsacl_kernel has `items`. 3: `group` and `context_stride`,
 * struct hsacl_group `context`. 4: `items` is NULL when `group` is not;
 * `barrier_count`. 5: __hsacl_run_groups runs `group_count` work-groups
 * (it was __hsacl_run_group, one), struct hsacl_group has no item_count. */
#define HSACL_ABI_VERSION 5u
/* Work-items of one work-group at most (the CPU agents' workgroup_max_size). */
#define HSACL_MAX_ITEMS 1024u

/* Reads the kernel's explicit arguments from `kernarg` (the GPU layout)
 * and calls the kernel for the current work-item. */
typedef void (*hsacl_wrapper_fn)(const void *kernarg, void *group_segment);

/* Runs work-items `first` .. last of the work-group __hsacl_run_groups is
 * running, one after the other, the kernel's body inlined in the loop
 * (tools/hsacc makes one per kernel without a group function,
 * __hsacl_items_<kernel>); for the work-items after item 0 when item 0
 * returned without a barrier.
 * tools/hsacc defines it, and hsacl_group_fn below, with the parameter
 * `const uint8_t kernarg[restrict static N]` aligned to 16 bytes, N the
 * end of the explicit arguments: the kernarg segment is read-only while
 * the kernel runs (HSA Programmer's Reference Manual 1.2, "Kernarg
 * segment"; LLVM AMDGPUUsage, "Address Spaces": a constant address space),
 * so no store of the kernel's aliases it; it is at least 16-byte aligned
 * (HSA Runtime PRM 1.2, 2.9.6; the runtime refuses a dispatch whose
 * kernarg is not); and the wrapper reads all N bytes for every work-item.
 * So each argument may be read before the loop, once per group, rather
 * than once per work-item after every store of the kernel. */
typedef void (*hsacl_items_fn)(const uint8_t *kernarg, void *group_segment, uint32_t first);
/* cl/workitem.c's loop that tools/hsacc's __hsacl_items_<kernel> (and the
 * group function of a kernel without a barrier, from item 0) calls with
 * its kernel's wrapper (always inlined; internal once linked). */
void __hsacl_for_items(const void *kernarg, void *group_segment, uint32_t first,
                       hsacl_wrapper_fn body);

/* The part of a kernel between two barriers for one work-item: from the
 * start (state 0) or from after barrier `state`, to barrier k (returns k)
 * or to the end (returns -1). `context` is the work-item's own. The
 * values that tools/hsacl-barriers.c proves the same for every work-item
 * of the group at each barrier (a loop counter of a barrier loop, a value
 * of the kernarg and the group id) are kept once per group instead, in
 * two areas of the group function: the region reads them from
 * `uniform_in`, which no work-item changes during the region, so that
 * each sees the values of the region's entry and the optimiser may read
 * them once for the loop over the work-items; and writes them to
 * `uniform_out` before it returns, every work-item the same values. */
typedef int32_t (*hsacl_region_fn)(int32_t state, char *context, const char *uniform_in,
                                   char *uniform_out, const void *kernarg, void *group_segment);
/* Runs the work-group __hsacl_run_groups is running, region by region
 * (tools/hsacc makes one per kernel it cut, __hsacl_group_<kernel>: a
 * switch on the state, each case __hsacl_for_region with that state, so
 * that the region function inlined there keeps only that region's code;
 * and one per kernel that reaches no barrier: __hsacl_for_items from item
 * 0, a single region);
 * `context`: the kernel's context_stride bytes for each work-item, 64-byte
 * aligned. Returns an enum hsacl_status. */
typedef uint32_t (*hsacl_group_fn)(const uint8_t *kernarg, void *group_segment, char *context);
/* cl/workitem.c's loop over the work-items of the group for one region
 * (always inlined; internal once linked): the state every work-item
 * reached, or HSACL_REGIONS_DIVERGED (the last work-item's state when
 * `same_end`: tools/hsacl-barriers.c proved that all reach the same); then
 * `uniform_out` (uniform_size bytes) copied to `uniform_in` for the next
 * region. Only the work-items whose x id is below x_limit run: the pass
 * proved that the others change nothing and end at `skipped_end`. Before
 * it, a group function may call the region once with state -2 - k after
 * barrier k (the routing call of tools/hsacl-barriers.c, step 8): it runs
 * the part of the region every work-item runs the same way, leaves its
 * values in `uniform_out`, and returns the state to run the work-items
 * from. The group function keeps both areas on its stack (16-byte
 * aligned): they are internal to the CPU code, no part of this interface
 * with the runtime. */
int32_t __hsacl_for_region(const void *kernarg, void *group_segment, char *context, uint32_t stride,
                           char *uniform_in, char *uniform_out, uint32_t uniform_size,
                           uint32_t same_end, uint32_t x_limit, int32_t skipped_end,
                           hsacl_region_fn region, int32_t state);
#define HSACL_REGIONS_DIVERGED INT32_MIN

struct hsacl_kernel {
  const char *name; /* the kernel's name; its symbol is name + ".kd" */
  hsacl_wrapper_fn entry;
  hsacl_items_fn items;          /* NULL when `group` is not */
  uint32_t kernarg_segment_size; /* the GPU code object's, hidden args included */
  uint32_t kernarg_segment_align;
  uint32_t group_segment_size;   /* .group_segment_fixed_size (kernel-scope __local) */
  uint32_t private_segment_size; /* .private_segment_fixed_size */
  int32_t global_offset_arg;     /* kernarg offset of hidden_global_offset_x, -1: none */
  uint32_t local_arg_count;      /* __local pointer arguments (dynamic_shared_pointer) */
  const uint32_t *local_args;    /* their kernarg offsets: 4-byte group segment offsets */
  hsacl_group_fn group;          /* NULL: item 0 on a fiber, then `items` or fibers */
  uint32_t context_stride;       /* context bytes per work-item, a multiple of 16 */
  uint32_t barrier_count;        /* barriers `group` was cut at; 0: the kernel reaches none */
};

/* Why __hsacl_run_groups stopped early (hsacl_group.status). */
enum hsacl_status {
  HSACL_OK = 0,
  HSACL_BARRIER_DIVERGENCE = 1, /* some work-items reached a barrier, others returned */
  HSACL_NO_STACK = 2,           /* the runtime had no stack for a work-item */
};

/* A run of work-groups of one dispatch, filled in by the runtime: the
 * group `group_id` and the group_count - 1 after it in linear order (x
 * fastest, as OpenCL C 2.0, 6.13.1, orders ids), run one after the other on
 * the calling core, so that a dispatch costs the call, the copy of its
 * geometry and the FP control save once per run rather than per group.
 * Each group's size is local_size, less at the grid's far edge. Sizes in
 * work-items. When a group fails, the run stops there: `status` says why
 * and `group_id` is that group's. */
struct hsacl_group {
  const struct hsacl_kernel *kernel; /* an entry of this instance's table */
  const void *kernarg;
  void *group_segment;
  uint32_t group_segment_size;
  uint32_t dims;              /* 1..3 */
  uint32_t global_size[3];    /* the grid */
  uint32_t local_size[3];     /* the enqueued work-group size */
  uint32_t group_id[3];       /* the run's first group (in), the failed one (out) */
  uint64_t group_count;       /* at least 1 */
  uint32_t num_groups[3];
  uint64_t global_offset[3];
  /* Stack for work-item `item` (0 .. items - 1), `size` bytes, 16-byte
   * aligned; NULL if there is none. Item 0's is asked first; the others
   * only when a work-item reaches a barrier. */
  void *(*stack)(void *ctx, uint32_t item, size_t *size);
  void *stack_ctx;
  /* kernel->context_stride bytes per work-item of a whole group, 64-byte
   * aligned, for a kernel with a group function (which runs on item 0's
   * stack). */
  char *context;
  uint32_t status; /* enum hsacl_status, set by __hsacl_run_groups */
};

typedef void (*hsacl_run_groups_fn)(struct hsacl_group *run);

#endif
