/*
 * metadata.h - the code object metadata (NT_AMDGPU_METADATA note).
 *
 * The note holds one MessagePack map (AMDGPUUsage "Code Object V3 Metadata",
 * with the V4 and V5 changes): "amdhsa.version", "amdhsa.target",
 * "amdhsa.kernels" (one map per kernel with its segment sizes, wavefront
 * size and ".args"), "amdhsa.printf". Keys not listed here are vendor
 * extensions and are skipped, as the document allows.
 */
#ifndef HSA_LOADER_METADATA_H
#define HSA_LOADER_METADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ".value_kind" of a kernel argument (AMDGPUUsage "AMDHSA Code Object V3
 * Kernel Argument Metadata Map" and the V5 additions). */
enum loader_arg_kind {
  LOADER_ARG_UNKNOWN, /* a kind this loader does not know: left as zero */
  LOADER_ARG_BY_VALUE,
  LOADER_ARG_GLOBAL_BUFFER,
  LOADER_ARG_DYNAMIC_SHARED_POINTER,
  LOADER_ARG_SAMPLER,
  LOADER_ARG_IMAGE,
  LOADER_ARG_PIPE,
  LOADER_ARG_QUEUE,
  LOADER_ARG_HIDDEN_GLOBAL_OFFSET_X,
  LOADER_ARG_HIDDEN_GLOBAL_OFFSET_Y,
  LOADER_ARG_HIDDEN_GLOBAL_OFFSET_Z,
  LOADER_ARG_HIDDEN_NONE,
  LOADER_ARG_HIDDEN_PRINTF_BUFFER,
  LOADER_ARG_HIDDEN_HOSTCALL_BUFFER,
  LOADER_ARG_HIDDEN_DEFAULT_QUEUE,
  LOADER_ARG_HIDDEN_COMPLETION_ACTION,
  LOADER_ARG_HIDDEN_MULTIGRID_SYNC_ARG,
  LOADER_ARG_HIDDEN_BLOCK_COUNT_X,
  LOADER_ARG_HIDDEN_BLOCK_COUNT_Y,
  LOADER_ARG_HIDDEN_BLOCK_COUNT_Z,
  LOADER_ARG_HIDDEN_GROUP_SIZE_X,
  LOADER_ARG_HIDDEN_GROUP_SIZE_Y,
  LOADER_ARG_HIDDEN_GROUP_SIZE_Z,
  LOADER_ARG_HIDDEN_REMAINDER_X,
  LOADER_ARG_HIDDEN_REMAINDER_Y,
  LOADER_ARG_HIDDEN_REMAINDER_Z,
  LOADER_ARG_HIDDEN_GRID_DIMS,
  LOADER_ARG_HIDDEN_HEAP_V1,
  LOADER_ARG_HIDDEN_DYNAMIC_LDS_SIZE,
  LOADER_ARG_HIDDEN_PRIVATE_BASE,
  LOADER_ARG_HIDDEN_SHARED_BASE,
  LOADER_ARG_HIDDEN_QUEUE_PTR,
};

/* The metadata spelling of a kind ("hidden_block_count_x"). */
const char *loader_arg_kind_name(enum loader_arg_kind kind);
/* True for the hidden_* kinds: set up by the runtime, not by the caller. */
bool loader_arg_kind_is_hidden(enum loader_arg_kind kind);

struct loader_kernel_arg {
  char *name;      /* ".name", NULL if absent */
  char *type_name; /* ".type_name", NULL if absent */
  uint32_t offset, size;
  enum loader_arg_kind kind;
  char *kind_name;     /* ".value_kind" as written (kept for unknown kinds) */
  char *address_space; /* ".address_space", NULL if absent */
  uint32_t pointee_align;
  bool is_const, is_restrict, is_volatile;
};

struct loader_kernel_meta {
  char *name;     /* ".name": the source name */
  char *symbol;   /* ".symbol": the kernel descriptor symbol, "<name>.kd" */
  char *language; /* NULL if absent */
  uint32_t kernarg_segment_size, kernarg_segment_align;
  uint32_t group_segment_fixed_size, private_segment_fixed_size;
  uint32_t wavefront_size;
  uint32_t sgpr_count, vgpr_count, agpr_count, sgpr_spill_count, vgpr_spill_count;
  uint32_t max_flat_workgroup_size;
  uint32_t reqd_workgroup_size[3]; /* 0,0,0 when absent */
  uint32_t workgroup_size_hint[3];
  bool uses_dynamic_stack;
  uint32_t arg_count;
  struct loader_kernel_arg *args;
};

struct loader_metadata {
  uint32_t version_major, version_minor; /* "amdhsa.version" */
  char *target;                          /* "amdhsa.target", NULL if absent */
  uint32_t kernel_count;
  struct loader_kernel_meta *kernels;
  uint32_t printf_count; /* "amdhsa.printf" format strings */
  char **printf_formats;
};

/* Parses the MessagePack bytes of an NT_AMDGPU_METADATA note into `md`
 * (every string copied; free with loader_metadata_free). On error returns
 * false and writes one line naming the key and the problem into `why`. */
bool loader_metadata_parse(const void *data, size_t size, struct loader_metadata *md, char *why,
                           size_t why_size);
void loader_metadata_free(struct loader_metadata *md);

const struct loader_kernel_meta *loader_metadata_kernel_by_symbol(const struct loader_metadata *md,
                                                                  const char *symbol);

#endif
