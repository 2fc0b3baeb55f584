/*
 * cl_program.h - OpenCL C programs on a CPU agent: the CPU part of a
 * tools/hsacc file (cl/cpu_abi.h) loaded through
 * hsa_executable_load_agent_code_object for a CPU agent, and its kernels
 * dispatched by the agent's cores (hsa/cpu_agent_queue.c).
 *
 * A program is one instance of the shared object per core of the agent
 * (hsa/loader/x86_dso.h). Each kernel gets a descriptor that looks like an
 * HSA_CPU_KERNEL's (hsa/cpu_kernel.h) with its own magic and no `entry`:
 * the agent runs a C kernel's work-groups one call of `entry` each, an
 * OpenCL C kernel's a run at a time through cl_kernel_run_groups.
 */
#ifndef HSA_CL_PROGRAM_H
#define HSA_CL_PROGRAM_H

#include <stddef.h>

#include <hsa/hsa.h>
#include <hsa/hsa_cpu_kernel.h>

struct agent;
struct executable;
struct cl_program;

#define HSA_CL_KERNEL_MAGIC 0x314b4c4341534800ull /* "\0HSACLK1" */

/* Loads the CPU part of `data` (an offload bundle's
 * "host-x86_64-unknown-linux-gnu" entry, or a bare x86-64 shared object)
 * for CPU agent `agent` and adds its kernels ("name.kd") and program-scope
 * variables to exec as that agent's symbols. */
hsa_status_t cl_program_load(struct executable *exec, const struct agent *agent, const void *data,
                             size_t size, struct cl_program **out);
void cl_program_unload(struct cl_program *program);

/* Where the kernels' output goes: the built-in library's printf (and the
 * puts and putchar LLVM makes of some printf calls) hands each whole output
 * to the runtime's hook __hsa_cpu_write, which passes it on to `fn`, one
 * call at a time across all cores. By default (fn NULL) the C library's
 * stdout, flushed after each: the console on the image. Returns the
 * previous one. */
typedef void (*cl_output_fn)(const char *s, size_t n);
cl_output_fn cl_program_set_output(cl_output_fn fn);

/* Frees what unloaded programs left for the next ones (runtime shutdown). */
void cl_programs_fini(void);

/* The descriptor of a loaded OpenCL C kernel at kernel_object, or NULL. */
const hsa_cpu_kernel_descriptor_t *cl_kernel_from_object(uint64_t kernel_object);

/* Whether `kernel` (from cl_kernel_from_object) can run the dispatch of
 * packet `p` on a CPU agent. */
hsa_status_t cl_kernel_check_dispatch(const hsa_cpu_kernel_descriptor_t *kernel,
                                      const hsa_kernel_dispatch_packet_t *p,
                                      uint32_t group_segment_limit);

/* Runs `count` work-groups of an OpenCL C kernel's dispatch on core
 * d->core: group d->workgroup_id and those after it in linear order (x
 * fastest) of a grid of groups[3] groups, in one call of the CPU code
 * (cl/cpu_abi.h, __hsacl_run_groups). A group that fails stops the run,
 * logs its id and leaves its status for cl_kernel_take_error. */
void cl_kernel_run_groups(const hsa_cpu_dispatch_t *d, uint64_t count, const uint32_t groups[3]);

/* hsa_kernarg_fill_hidden for an OpenCL C kernel on a CPU agent: of the
 * GPU's hidden arguments the CPU reads only the global offsets
 * (hidden_global_offset_x/y/z), written 0 as for the GPU. */
hsa_status_t cl_kernel_fill_hidden(const hsa_cpu_kernel_descriptor_t *kernel, void *kernarg,
                                   size_t kernarg_size);

/* The first failure of a work-group of the kernel's last dispatch
 * (HSA_STATUS_SUCCESS if none), cleared. */
/* Whether tools/hsacc cut the kernel at its work-group barriers (a group
 * function, cl/cpu_abi.h): its work-items run without a fiber each. */
bool cl_kernel_is_cut_at_barriers(const hsa_cpu_kernel_descriptor_t *kernel);

hsa_status_t cl_kernel_take_error(const hsa_cpu_kernel_descriptor_t *kernel);

#endif
