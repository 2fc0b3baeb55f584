/*
 * executable_internal.h - the seam between executables (hsa/executable.c,
 * which owns the hsa_executable_t and hsa_code_object_reader_t objects,
 * and hsa/executable_symbol.c, which owns hsa_executable_symbol_t) and the
 * code object loader (hsa/loader/, which understands AMDGPU ELF code
 * objects).
 *
 * Flow of hsa_executable_load_agent_code_object(exec, agent, reader):
 *   1. executable.c checks the handles and that exec is not frozen, then
 *      calls loader_load(exec, agent, reader bytes, options, &lco).
 *   2. The loader validates the code object against agent_isa_name(agent)
 *      (agent.h), places its segments in memory every agent can reach
 *      (plat_dma_alloc), applies relocations (resolving external variables
 *      with executable_lookup_variable), and reports every kernel and
 *      variable it defines with executable_add_symbols(). It returns an
 *      hsa_status_t from hsa.h: HSA_STATUS_ERROR_INVALID_CODE_OBJECT for a
 *      malformed object, HSA_STATUS_ERROR_INVALID_ISA / _INCOMPATIBLE_ARGUMENTS
 *      for a wrong ISA, HSA_STATUS_ERROR_VARIABLE_UNDEFINED for an
 *      unresolved external, ..., after logging one line naming the problem,
 *      and having freed whatever it placed.
 *   3. On success executable.c records lco; hsa_executable_destroy calls
 *      loader_unload(lco) for each, after dropping the symbols.
 *
 * CPU agents need no loader: their kernels are C functions linked into the
 * program (HSA_CPU_KERNEL, <hsa/hsa_cpu_kernel.h>); executable.c adds them
 * as symbols of each CPU agent from that table (cpu_kernel.c) and
 * executable_symbol.c answers the queries.
 */
#ifndef HSA_EXECUTABLE_INTERNAL_H
#define HSA_EXECUTABLE_INTERNAL_H

#include <hsa/hsa.h>

struct agent;
struct executable;
struct loaded_code_object; /* the loader's own */

/* HSA Runtime PRM 1.2, 2.9.6: the kernarg segment is at least 16-byte aligned. */
#define MIN_KERNARG_ALIGNMENT 16

/* What the loader reports for one symbol; executable_add_symbols copies it. */
struct symbol_desc {
  const char *name; /* ELF name: "vadd.kd" for a kernel, "counter" for a variable */
  hsa_symbol_kind_t kind;
  hsa_symbol_linkage_t linkage;
  uint64_t address; /* kernel: kernel descriptor address (= kernel_object);
                       variable: its address; indirect function: its object */
  /* Kernels (from the code object's metadata / kernel descriptor). */
  uint32_t kernarg_segment_size;
  uint32_t kernarg_segment_alignment;
  uint32_t group_segment_size;
  uint32_t private_segment_size;
  bool dynamic_callstack;
  /* Variables. */
  hsa_variable_allocation_t allocation;
  hsa_variable_segment_t segment;
  uint32_t variable_alignment;
  uint64_t variable_size;
  bool is_const;
};

/* ---- Provided by the loader (hsa/loader/) -------------------------------- */

/* agent == NULL: hsa_executable_load_program_code_object (program
 * allocation only). `data` stays valid only during the call: copy what
 * must outlive it. */
hsa_status_t loader_load(struct executable *exec, const struct agent *agent, const void *data,
                         size_t size, const char *options, struct loaded_code_object **out);
/* Frees the segments of a loaded code object (executable destroy). */
void loader_unload(struct loaded_code_object *lco);
/* HSA_EXTENSION_AMD_LOADER's functions (hsa/loader/amd_loader_ext.c), a
 * hsa_ven_amd_loader_1_03_pfn_t (<hsa/hsa_ven_amd_loader.h>). */
extern const struct hsa_ven_amd_loader_1_03_pfn_s amd_loader_extension_table;

/* ---- Provided by executable_symbol.c, for the loader ------------------------- */

/* Adds the `count` symbols a code object loaded for `agent` (NULL: program
 * allocation) defines, all or none: on failure none stays and *failed is
 * the index of the one refused. HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED
 * if a symbol of that name is already defined for that agent (or program),
 * or twice in the batch; HSA_STATUS_ERROR_OUT_OF_RESOURCES when memory
 * runs out. */
hsa_status_t executable_add_symbols(struct executable *exec, const struct agent *agent,
                                    const struct symbol_desc *descs, uint32_t count,
                                    uint32_t *failed);

/* Address of a variable named `name` visible to `agent` in exec: one the
 * program defined (hsa_executable_*_variable_define) or a code object
 * loaded earlier defined. false if there is none. */
bool executable_lookup_variable(struct executable *exec, const struct agent *agent,
                                const char *name, uint64_t *address);

/* ---- For the AMD loader extension (hsa/loader/amd_loader_ext.c) ------------- */

/* Calls `callback` on every live executable (a snapshot: it may create or
 * destroy executables); stops at the first status other than success. */
hsa_status_t executables_iterate(hsa_status_t (*callback)(hsa_executable_t executable, void *data),
                                 void *data);
bool executable_is_valid(hsa_executable_t executable);
/* A code object reader over `size` bytes of `file` from `offset` (SIZE_MAX,
 * SIZE_MAX: the rest of the file from its current offset). */
hsa_status_t code_object_reader_create_from_file_range(hsa_file_t file, size_t offset, size_t size,
                                                       hsa_code_object_reader_t *reader);

#endif
