/*
 * loader.h - the AMDGPU code object loader: the internal API the executable
 * objects of the runtime (hsa/executable*.c) build on.
 *
 * A code object is an ELF64 shared object for EM_AMDGPU / ELFOSABI_AMDGPU_HSA,
 * code object v4, v5 or v6 (LLVM AMDGPUUsage "ELF Code Object"). Loading it
 * takes three steps:
 *
 *   loader_code_object_parse()    check every header, segment, section,
 *                                 symbol, note and relocation against the file
 *                                 bounds; decode the target (e_flags) and the
 *                                 NT_AMDGPU_METADATA note; list kernels and
 *                                 variables. Nothing is allocated for the GPU.
 *   loader_code_object_check_isa() may it run on this agent? (ROCr's rules)
 *   loader_code_object_load()     place the PT_LOAD segments in memory from the
 *                                 caller's allocator (memory the GPU reaches),
 *                                 apply the dynamic relocations, and give every
 *                                 symbol its final address.
 *
 * The loader is portable C (lib/plat.h and libc only): it runs in the image
 * and on the host. Every malformed input returns LOADER_ERROR_* and logs one
 * line (tag "loader") that names the file and what is wrong; the same line is
 * copied into the caller's `why` buffer when one is given.
 */
#ifndef HSA_LOADER_LOADER_H
#define HSA_LOADER_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hsa/amd_hsa_kernel_code.h>

#include "hsa/loader/target_id.h"
#include "hsa/loader/metadata.h"

enum loader_status {
  LOADER_OK = 0,
  LOADER_ERROR_INVALID_CODE_OBJECT, /* malformed ELF, note, metadata or relocation */
  LOADER_ERROR_INCOMPATIBLE_ISA,    /* built for another processor or feature set */
  LOADER_ERROR_INVALID_ISA_NAME,    /* the agent ISA name given is not a target ID */
  LOADER_ERROR_VARIABLE_UNDEFINED,  /* relocation against a symbol nobody defined */
  LOADER_ERROR_OUT_OF_MEMORY,
};

const char *loader_status_name(enum loader_status status);

enum loader_symbol_kind { LOADER_SYMBOL_KERNEL, LOADER_SYMBOL_VARIABLE };

struct loader_symbol {
  char *name; /* the ELF symbol name: "vadd.kd" for a kernel, as ROCr names it */
  enum loader_symbol_kind kind;
  uint64_t vaddr;   /* in the code object's own address space */
  uint64_t address; /* where it is once loaded (0 before) */
  uint64_t size;
  uint32_t alignment;
  bool program_linkage; /* global or weak binding (HSA_SYMBOL_LINKAGE_PROGRAM) */
  bool is_const;        /* variable in a read-only segment */
  /* Kernels only. */
  const struct loader_kernel_meta *meta; /* points into loader_code_object.metadata */
  amd_kernel_descriptor_t kd;            /* a copy of its 64 bytes (amd_hsa_kernel_code.h) */
};

struct loader_segment {
  uint64_t vaddr, memsz, offset, filesz;
  uint32_t flags; /* ELF PF_R/W/X */
};

struct loader_relocation {
  uint64_t vaddr; /* where to write */
  uint32_t type;  /* R_AMDGPU_* */
  int64_t addend;
  /* Symbol the value is relative to: defined here (sym_vaddr, or an absolute
   * value when sym_absolute), undefined (sym_name set: an external variable
   * the executable resolves), or none (RELATIVE64). */
  uint64_t sym_vaddr;
  bool sym_absolute;
  const char *sym_name; /* into the image's string table: valid until load */
};

/* Memory for segments. In the single address space any memory the agent's
 * pools hand out works; the pointer is also the GPU address. */
struct loader_memory_ops {
  void *(*alloc)(void *ctx, size_t size, size_t align); /* NULL when out of memory */
  void (*free)(void *ctx, void *ptr, size_t size);
  void *ctx;
};

/* Resolves an undefined symbol that a relocation refers to (a variable the
 * application defined with hsa_executable_*global_variable_define). */
typedef bool (*loader_resolve_fn)(void *ctx, const char *name, uint64_t *address);

struct loader_code_object {
  const char *source;   /* file name or "memory", for messages */
  const uint8_t *image; /* the caller's bytes; only used until load returns */
  size_t image_size;
  uint32_t version; /* code object version: 4, 5 or 6 */
  uint32_t e_flags;
  struct loader_isa isa;
  struct loader_metadata metadata;

  uint32_t segment_count;
  struct loader_segment *segments; /* sorted by vaddr, not overlapping */
  uint64_t span_start, span_end;   /* vaddr range the segments need */
  uint64_t segment_align;          /* largest p_align */

  uint32_t symbol_count;
  struct loader_symbol *symbols;
  uint32_t relocation_count;
  struct loader_relocation *relocations;

  /* After loading. */
  void *base;
  size_t base_size;
  int64_t delta; /* loaded address = vaddr + delta */
  struct loader_memory_ops mem;
};

/* Parses and checks `size` bytes. `source` names them in messages. On
 * success *out is a new object (free with loader_code_object_destroy). */
enum loader_status loader_code_object_parse(const void *image, size_t size, const char *source,
                                            struct loader_code_object **out, char *why,
                                            size_t why_size);

/* Checks the code object's target against an agent ISA given as a target ID
 * ("amdgcn-amd-amdhsa--gfx902:xnack-"), which names the state of every
 * feature the processor has (else LOADER_ERROR_INVALID_ISA_NAME). */
enum loader_status loader_code_object_check_isa(const struct loader_code_object *co,
                                                const char *agent_isa_name, char *why,
                                                size_t why_size);

/* Places the segments, applies relocations, sets symbol addresses. After it
 * returns (either way) the image bytes are no longer used. */
enum loader_status loader_code_object_load(struct loader_code_object *co,
                                           const struct loader_memory_ops *mem,
                                           loader_resolve_fn resolve, void *resolve_ctx, char *why,
                                           size_t why_size);

/* Frees the loaded segments (through the allocator given to load) and the
 * object. NULL is fine. */
void loader_code_object_destroy(struct loader_code_object *co);

const struct loader_symbol *loader_code_object_symbol(const struct loader_code_object *co,
                                                      const char *name);

#endif
