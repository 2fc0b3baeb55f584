/*
 * cpu_kernel.h - the program's CPU kernels and agent functions, as linked
 * into sections "hsa_cpu_kernels" and "hsa_cpu_agent_functions" by the
 * macros of <hsa/hsa_cpu_kernel.h>.
 */
#ifndef HSA_CPU_KERNEL_INTERNAL_H
#define HSA_CPU_KERNEL_INTERNAL_H

#include <hsa/hsa_cpu_kernel.h>
#include <stddef.h>

/* Runtime-internal agent-dispatch types (0x8000 and up). */
enum {
  CPU_AGENT_FN_MEMORY_COPY = 0x8000,      /* arg: dst, src, size */
  CPU_AGENT_FN_MEMORY_COPY_RECT = 0x8001, /* arg: struct rect_copy * (freed) */
};

size_t cpu_kernel_count(void);
const hsa_cpu_kernel_descriptor_t *cpu_kernel_at(size_t index);
/* By name; "name.kd" (the GPU symbol spelling) finds "name" too. */
const hsa_cpu_kernel_descriptor_t *cpu_kernel_find(const char *name);
/* The descriptor at kernel_object, or NULL if it is not one of ours. */
const hsa_cpu_kernel_descriptor_t *cpu_kernel_from_object(uint64_t kernel_object);
/* The runtime's own agent functions (memory_async.c) are a table, not
 * entries of the section: in the shared library a section of its own
 * would hide the program's (its __start_/__stop_ symbols would be the
 * library's), while the library's weak references to the section's bounds
 * find the program's when only the program has one. */
#define CPU_RUNTIME_AGENT_FUNCTIONS 2
extern const hsa_cpu_agent_function_t cpu_runtime_agent_functions[CPU_RUNTIME_AGENT_FUNCTIONS];
/* The runtime's function for `type`, else the program's, else NULL. */
const hsa_cpu_agent_function_t *cpu_agent_function_find(uint16_t type);

#endif
