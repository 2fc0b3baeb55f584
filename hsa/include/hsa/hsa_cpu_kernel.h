/*
 * hsa_cpu_kernel.h - kernels and agent functions for hsa-metal's CPU
 * agents (an hsa-metal extension; not part of ROCr).
 *
 * A CPU agent is a group of cores that run AQL packets from its queues.
 * Its kernels are C functions linked into the program:
 *
 *   struct vadd_args { const float *a, *b; float *c; };
 *   HSA_CPU_KERNEL(vadd, sizeof(struct vadd_args)) {
 *     const struct vadd_args *args = hsa_dispatch->kernarg;
 *     for (uint32_t i = 0; i < hsa_dispatch->item_count[0]; i++) {
 *       uint32_t x = hsa_dispatch->global_offset[0] + i;
 *       args->c[x] = args->a[x] + args->b[x];
 *     }
 *   }
 *
 * and found by name through the executable and symbol API, exactly like a
 * GPU kernel: hsa_executable_get_symbol_by_name(exec, "vadd", &cpu_agent,
 * &sym) (the GPU spelling "vadd.kd" works too), then
 * HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT / _KERNARG_SEGMENT_SIZE / ...
 * A program's dispatch code (fill an hsa_kernel_dispatch_packet_t, ring the
 * doorbell, wait on the completion signal) is the same for both kinds of
 * agent. CPU kernels are part of every executable for every CPU agent: a
 * GPU code object is loaded for the GPU agent only.
 *
 * CPU kernel ABI
 * --------------
 * The function runs once per work-group, on one of the agent's cores, and
 * loops over the work-group's work-items itself (a core runs a work-group's
 * items one after the other, so a kernel cannot use work-group barriers).
 * It receives `const hsa_cpu_dispatch_t *hsa_dispatch`:
 *   kernarg          the packet's kernarg_address
 *   grid_size[3]     the packet's grid size, work-items (unused dims: 1)
 *   workgroup_size[3] the packet's work-group size
 *   workgroup_id[3]  this work-group's id
 *   item_count[3]    work-items in this group: workgroup_size, less at the
 *                    grid's far edge (partial work-groups)
 *   global_offset[3] workgroup_id * workgroup_size: the global id of item 0
 *   dimensions       1..3 (packet setup)
 *   group_segment    group_segment_size bytes (packet's dynamic size plus
 *                    the kernel's static size) private to this work-group
 *                    while it runs, uninitialised
 *   core             index of the core (0..compute units-1)
 *   packet           the dispatch packet (read-only)
 * The private segment is the core's stack. Work-groups of one dispatch run
 * in parallel on the agent's cores, in no defined order. The completion
 * signal is decremented after every work-group has returned (with a
 * system-scope release if the packet asks for one).
 *
 * Agent dispatch packets (HSA_PACKET_TYPE_AGENT_DISPATCH) call a function
 * declared with HSA_CPU_AGENT_FUNCTION(type, name): the packet's `type`
 * field selects it; it receives the packet's arg[4] and return_address.
 * Types 0x8000 and up are reserved for the runtime.
 */
#ifndef HSA_CPU_KERNEL_H
#define HSA_CPU_KERNEL_H

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hsa_cpu_dispatch_s {
  void *kernarg;
  uint32_t grid_size[3];
  uint32_t workgroup_size[3];
  uint32_t workgroup_id[3];
  uint32_t item_count[3];
  uint32_t global_offset[3];
  uint32_t dimensions;
  void *group_segment;
  uint32_t group_segment_size;
  uint32_t core;
  const hsa_kernel_dispatch_packet_t *packet;
} hsa_cpu_dispatch_t;

typedef void (*hsa_cpu_kernel_fn_t)(const hsa_cpu_dispatch_t *hsa_dispatch);

/* The kernel object of a CPU kernel is the address of this descriptor. */
#define HSA_CPU_KERNEL_MAGIC 0x314b555043415348ull /* "HSACPUK1" */

typedef struct __attribute__((aligned(64))) hsa_cpu_kernel_descriptor_s {
  uint64_t magic;
  hsa_cpu_kernel_fn_t entry;
  const char *name;
  uint32_t kernarg_segment_size;
  uint32_t kernarg_segment_alignment;
  uint32_t group_segment_size; /* static: added to the packet's dynamic size */
  uint32_t private_segment_size;
} hsa_cpu_kernel_descriptor_t;

/* Declares a CPU kernel `name` taking `kernarg_size` bytes of kernel
 * arguments, and starts its body. */
#define HSA_CPU_KERNEL(name, kernarg_size) HSA_CPU_KERNEL_EX(name, kernarg_size, 16, 0)

/* Same, with the kernarg alignment and a static group segment size. */
#define HSA_CPU_KERNEL_EX(name, kernarg_size, kernarg_align, group_size)                   \
  static void hsa_cpu_kernel_fn_##name(const hsa_cpu_dispatch_t *hsa_dispatch);             \
  __attribute__((used, section("hsa_cpu_kernels"))) const hsa_cpu_kernel_descriptor_t       \
      hsa_cpu_kernel_##name = {HSA_CPU_KERNEL_MAGIC, hsa_cpu_kernel_fn_##name, #name,       \
                               (uint32_t)(kernarg_size), (kernarg_align), (group_size), 0}; \
  static void hsa_cpu_kernel_fn_##name(const hsa_cpu_dispatch_t *hsa_dispatch)

typedef void (*hsa_cpu_agent_fn_t)(const uint64_t arg[4], void *return_address);

typedef struct __attribute__((aligned(32))) hsa_cpu_agent_function_s {
  uint16_t type;
  hsa_cpu_agent_fn_t fn;
  const char *name;
} hsa_cpu_agent_function_t;

#define HSA_CPU_AGENT_FUNCTION(type_, name)                                                   \
  static void hsa_cpu_agent_fn_##name(const uint64_t arg[4], void *return_address);          \
  __attribute__((used, section("hsa_cpu_agent_functions"))) const hsa_cpu_agent_function_t   \
      hsa_cpu_agent_function_##name = {(type_), hsa_cpu_agent_fn_##name, #name};             \
  static void hsa_cpu_agent_fn_##name(const uint64_t arg[4], void *return_address)

#ifdef __cplusplus
}
#endif

#ifndef __cplusplus
_Static_assert(sizeof(hsa_cpu_kernel_descriptor_t) == 64, "descriptors are packed in a section");
_Static_assert(sizeof(hsa_cpu_agent_function_t) == 32, "functions are packed in a section");
#endif

#endif /* HSA_CPU_KERNEL_H */
