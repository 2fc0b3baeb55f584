/* hidden_args.c - fill the hidden kernel arguments from a dispatch.
 * Meanings: AMDGPUUsage "Code Object V5 Metadata", kernel argument value
 * kinds: block count = whole work-groups per dimension, group size = the
 * packet's work-group size, remainder = size of the partial last work-group
 * (0 if none), grid dims = the packet's dimensionality. */
#include "hsa/loader/hidden_args.h"

#include <string.h>

#include "hsa/loader/report.h"

static void put_le(uint8_t *p, uint64_t value, uint32_t size) {
  memset(p, 0, size);
  for (uint32_t i = 0; i < size && i < 8; i++) p[i] = (uint8_t)(value >> (8 * i));
}

static uint64_t hidden_value(enum loader_arg_kind kind, const struct loader_dispatch *d) {
  switch (kind) {
    case LOADER_ARG_HIDDEN_BLOCK_COUNT_X:
    case LOADER_ARG_HIDDEN_BLOCK_COUNT_Y:
    case LOADER_ARG_HIDDEN_BLOCK_COUNT_Z: {
      int i = kind - LOADER_ARG_HIDDEN_BLOCK_COUNT_X;
      return d->grid_size[i] / d->workgroup_size[i];
    }
    case LOADER_ARG_HIDDEN_GROUP_SIZE_X:
    case LOADER_ARG_HIDDEN_GROUP_SIZE_Y:
    case LOADER_ARG_HIDDEN_GROUP_SIZE_Z:
      return d->workgroup_size[kind - LOADER_ARG_HIDDEN_GROUP_SIZE_X];
    case LOADER_ARG_HIDDEN_REMAINDER_X:
    case LOADER_ARG_HIDDEN_REMAINDER_Y:
    case LOADER_ARG_HIDDEN_REMAINDER_Z: {
      int i = kind - LOADER_ARG_HIDDEN_REMAINDER_X;
      return d->grid_size[i] % d->workgroup_size[i];
    }
    case LOADER_ARG_HIDDEN_GLOBAL_OFFSET_X:
    case LOADER_ARG_HIDDEN_GLOBAL_OFFSET_Y:
    case LOADER_ARG_HIDDEN_GLOBAL_OFFSET_Z:
      return d->global_offset[kind - LOADER_ARG_HIDDEN_GLOBAL_OFFSET_X];
    case LOADER_ARG_HIDDEN_GRID_DIMS:
      return d->dims;
    case LOADER_ARG_HIDDEN_DYNAMIC_LDS_SIZE:
      return d->dynamic_lds_size;
    case LOADER_ARG_HIDDEN_PRINTF_BUFFER:
      return d->printf_buffer;
    case LOADER_ARG_HIDDEN_HOSTCALL_BUFFER:
      return d->hostcall_buffer;
    case LOADER_ARG_HIDDEN_DEFAULT_QUEUE:
      return d->default_queue;
    case LOADER_ARG_HIDDEN_COMPLETION_ACTION:
      return d->completion_action;
    case LOADER_ARG_HIDDEN_MULTIGRID_SYNC_ARG:
      return d->multigrid_sync_arg;
    case LOADER_ARG_HIDDEN_HEAP_V1:
      return d->heap_v1;
    case LOADER_ARG_HIDDEN_QUEUE_PTR:
      return d->queue_ptr;
    case LOADER_ARG_HIDDEN_PRIVATE_BASE:
      return d->private_base;
    case LOADER_ARG_HIDDEN_SHARED_BASE:
      return d->shared_base;
    default:
      return 0; /* hidden_none and kinds unknown to us */
  }
}

enum loader_status loader_fill_hidden_args(const struct loader_kernel_meta *k,
                                           const struct loader_dispatch *d, void *kernarg,
                                           size_t kernarg_size, char *why, size_t why_size) {
  const char *name = k->name;
#define REFUSE(...) \
  loader_report(LOADER_ERROR_INVALID_CODE_OBJECT, name, why, why_size, __VA_ARGS__)
  if (d->dims < 1 || d->dims > 3)
    return REFUSE("dispatch has %u dimensions; 1, 2 or 3 are possible", d->dims);
  uint64_t flat = 1;
  for (uint32_t i = 0; i < 3; i++) {
    if (d->workgroup_size[i] == 0 || d->grid_size[i] == 0)
      return REFUSE("dispatch size %u x %u x %u, work-group %u x %u x %u: no dimension may be 0",
                    d->grid_size[0], d->grid_size[1], d->grid_size[2], d->workgroup_size[0],
                    d->workgroup_size[1], d->workgroup_size[2]);
    if (i >= d->dims && (d->workgroup_size[i] != 1 || d->grid_size[i] != 1))
      return REFUSE(
          "dispatch of %u dimensions has size %u and work-group %u in dimension %u; "
          "unused dimensions must be 1",
          d->dims, d->grid_size[i], d->workgroup_size[i], i);
    flat *= d->workgroup_size[i];
  }
  const uint32_t *reqd = k->reqd_workgroup_size;
  if (reqd[0] && (reqd[0] != d->workgroup_size[0] || reqd[1] != d->workgroup_size[1] ||
                  reqd[2] != d->workgroup_size[2]))
    return REFUSE(
        "work-group %u x %u x %u differs from the kernel's reqd_work_group_size "
        "%u x %u x %u",
        d->workgroup_size[0], d->workgroup_size[1], d->workgroup_size[2], reqd[0], reqd[1],
        reqd[2]);
  if (k->max_flat_workgroup_size && flat > k->max_flat_workgroup_size)
    return REFUSE("work-group of %llu work-items exceeds the kernel's maximum of %u",
                  (unsigned long long)flat, k->max_flat_workgroup_size);
  if (kernarg_size < k->kernarg_segment_size)
    return REFUSE("kernarg buffer of %zu bytes is smaller than the kernel's %u", kernarg_size,
                  k->kernarg_segment_size);
#undef REFUSE
  for (uint32_t i = 0; i < k->arg_count; i++) {
    const struct loader_kernel_arg *a = &k->args[i];
    if (!loader_arg_kind_is_hidden(a->kind) && a->kind != LOADER_ARG_UNKNOWN) continue;
    if (a->kind == LOADER_ARG_UNKNOWN && strncmp(a->kind_name, "hidden_", 7) != 0) continue;
    /* Metadata parsing checked offset + size <= kernarg_segment_size. */
    put_le((uint8_t *)kernarg + a->offset, hidden_value(a->kind, d), a->size);
  }
  return LOADER_OK;
}
