/* metadata.c - NT_AMDGPU_METADATA (MessagePack) into struct loader_metadata.
 * Keys, types and which are required: AMDGPUUsage "Code Object V3 Metadata"
 * tables (metadata map, kernel map, kernel argument map) and the V4/V5
 * changes ("amdhsa.target", ".uses_dynamic_stack", the V5 hidden kinds). */
#include "hsa/loader/metadata.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/loader/msgpack.h"
#include "lib/util.h"

static const struct {
  enum loader_arg_kind kind;
  const char *name;
} arg_kinds[] = {
    {LOADER_ARG_BY_VALUE, "by_value"},
    {LOADER_ARG_GLOBAL_BUFFER, "global_buffer"},
    {LOADER_ARG_DYNAMIC_SHARED_POINTER, "dynamic_shared_pointer"},
    {LOADER_ARG_SAMPLER, "sampler"},
    {LOADER_ARG_IMAGE, "image"},
    {LOADER_ARG_PIPE, "pipe"},
    {LOADER_ARG_QUEUE, "queue"},
    {LOADER_ARG_HIDDEN_GLOBAL_OFFSET_X, "hidden_global_offset_x"},
    {LOADER_ARG_HIDDEN_GLOBAL_OFFSET_Y, "hidden_global_offset_y"},
    {LOADER_ARG_HIDDEN_GLOBAL_OFFSET_Z, "hidden_global_offset_z"},
    {LOADER_ARG_HIDDEN_NONE, "hidden_none"},
    {LOADER_ARG_HIDDEN_PRINTF_BUFFER, "hidden_printf_buffer"},
    {LOADER_ARG_HIDDEN_HOSTCALL_BUFFER, "hidden_hostcall_buffer"},
    {LOADER_ARG_HIDDEN_DEFAULT_QUEUE, "hidden_default_queue"},
    {LOADER_ARG_HIDDEN_COMPLETION_ACTION, "hidden_completion_action"},
    {LOADER_ARG_HIDDEN_MULTIGRID_SYNC_ARG, "hidden_multigrid_sync_arg"},
    {LOADER_ARG_HIDDEN_BLOCK_COUNT_X, "hidden_block_count_x"},
    {LOADER_ARG_HIDDEN_BLOCK_COUNT_Y, "hidden_block_count_y"},
    {LOADER_ARG_HIDDEN_BLOCK_COUNT_Z, "hidden_block_count_z"},
    {LOADER_ARG_HIDDEN_GROUP_SIZE_X, "hidden_group_size_x"},
    {LOADER_ARG_HIDDEN_GROUP_SIZE_Y, "hidden_group_size_y"},
    {LOADER_ARG_HIDDEN_GROUP_SIZE_Z, "hidden_group_size_z"},
    {LOADER_ARG_HIDDEN_REMAINDER_X, "hidden_remainder_x"},
    {LOADER_ARG_HIDDEN_REMAINDER_Y, "hidden_remainder_y"},
    {LOADER_ARG_HIDDEN_REMAINDER_Z, "hidden_remainder_z"},
    {LOADER_ARG_HIDDEN_GRID_DIMS, "hidden_grid_dims"},
    {LOADER_ARG_HIDDEN_HEAP_V1, "hidden_heap_v1"},
    {LOADER_ARG_HIDDEN_DYNAMIC_LDS_SIZE, "hidden_dynamic_lds_size"},
    {LOADER_ARG_HIDDEN_PRIVATE_BASE, "hidden_private_base"},
    {LOADER_ARG_HIDDEN_SHARED_BASE, "hidden_shared_base"},
    {LOADER_ARG_HIDDEN_QUEUE_PTR, "hidden_queue_ptr"},
};

const char *loader_arg_kind_name(enum loader_arg_kind kind) {
  for (size_t i = 0; i < countof(arg_kinds); i++)
    if (arg_kinds[i].kind == kind) return arg_kinds[i].name;
  return "unknown";
}

bool loader_arg_kind_is_hidden(enum loader_arg_kind kind) {
  return strncmp(loader_arg_kind_name(kind), "hidden_", 7) == 0;
}

static enum loader_arg_kind arg_kind_from_string(const char *s) {
  for (size_t i = 0; i < countof(arg_kinds); i++)
    if (strcmp(arg_kinds[i].name, s) == 0) return arg_kinds[i].kind;
  return LOADER_ARG_UNKNOWN;
}

/* ---- Parser state and helpers ------------------------------------------ */

struct parser {
  struct mp_reader r;
  char *why;
  size_t why_size;
  bool failed;
};

__attribute__((format(printf, 2, 3))) static bool parse_error(struct parser *ps, const char *fmt,
                                                              ...) {
  if (!ps->failed) { /* keep the first, most specific reason */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->why, ps->why_size, fmt, ap);
    va_end(ap);
  }
  ps->failed = true;
  return false;
}

static bool read_value(struct parser *ps, struct mp_value *v, const char *what) {
  if (!mp_read(&ps->r, v)) return parse_error(ps, "metadata: truncated or malformed at %s", what);
  return true;
}

static bool skip_value(struct parser *ps, const char *what) {
  if (!mp_skip(&ps->r)) return parse_error(ps, "metadata: truncated or malformed at %s", what);
  return true;
}

/* The key of a map entry, as a NUL-terminated copy in `key` (keys we know are
 * short; a longer one cannot match and is shortened for messages only). */
static bool read_key(struct parser *ps, char *key, size_t key_size, const char *map) {
  struct mp_value v;
  if (!read_value(ps, &v, map)) return false;
  if (v.type != MP_STR) return parse_error(ps, "metadata: %s has a key that is not a string", map);
  size_t n = v.str.len < key_size - 1 ? v.str.len : key_size - 1;
  memcpy(key, v.str.ptr, n);
  key[n] = '\0';
  if (n != v.str.len || memchr(key, '\0', n)) key[0] = '?'; /* matches no known key */
  return true;
}

static bool read_string(struct parser *ps, char **out, const char *what) {
  struct mp_value v;
  if (!read_value(ps, &v, what)) return false;
  if (v.type != MP_STR) return parse_error(ps, "metadata: %s is not a string", what);
  if (memchr(v.str.ptr, '\0', v.str.len))
    return parse_error(ps, "metadata: %s contains a NUL byte", what);
  char *s = malloc((size_t)v.str.len + 1);
  if (!s) return parse_error(ps, "metadata: out of memory at %s", what);
  memcpy(s, v.str.ptr, v.str.len);
  s[v.str.len] = '\0';
  free(*out); /* a repeated key: the last value wins */
  *out = s;
  return true;
}

static bool read_u32(struct parser *ps, uint32_t *out, const char *what) {
  struct mp_value v;
  if (!read_value(ps, &v, what)) return false;
  if (!mp_get_u32(&v, out))
    return parse_error(ps, "metadata: %s is not an integer in 0..4294967295", what);
  return true;
}

static bool read_bool(struct parser *ps, bool *out, const char *what) {
  struct mp_value v;
  if (!read_value(ps, &v, what)) return false;
  if (v.type != MP_BOOL) return parse_error(ps, "metadata: %s is not a boolean", what);
  *out = v.boolean;
  return true;
}

static bool read_header(struct parser *ps, enum mp_type type, uint32_t *count, const char *what) {
  struct mp_value v;
  if (!read_value(ps, &v, what)) return false;
  if (v.type != type)
    return parse_error(ps, "metadata: %s is not a %s", what, type == MP_MAP ? "map" : "sequence");
  *count = v.count;
  return true;
}

static bool read_u32_triple(struct parser *ps, uint32_t out[3], const char *what) {
  uint32_t n;
  if (!read_header(ps, MP_ARRAY, &n, what)) return false;
  if (n != 3) return parse_error(ps, "metadata: %s has %u integers, not 3", what, n);
  for (int i = 0; i < 3; i++)
    if (!read_u32(ps, &out[i], what)) return false;
  return true;
}

/* Grows *array (of `elem` bytes each) so that index `count` fits. */
static bool grow(struct parser *ps, void **array, uint32_t count, size_t elem, const char *what) {
  /* Capacity runs 4, 8, 16, ...: grow when `count` reaches it. */
  if (count != 0 && (count < 4 || (count & (count - 1)) != 0)) return true;
  size_t cap = count ? 2 * (size_t)count : 4;
  void *p = realloc(*array, cap * elem);
  if (!p) return parse_error(ps, "metadata: out of memory at %s", what);
  memset((char *)p + (size_t)count * elem, 0, (cap - count) * elem);
  *array = p;
  return true;
}


/* ---- Kernel argument map ------------------------------------------------ */

static bool parse_arg(struct parser *ps, struct loader_kernel_arg *arg, const char *where) {
  uint32_t n;
  if (!read_header(ps, MP_MAP, &n, where)) return false;
  bool has_offset = false, has_size = false;
  for (uint32_t i = 0; i < n; i++) {
    char key[32];
    if (!read_key(ps, key, sizeof key, where)) return false;
    bool ok;
    if (!strcmp(key, ".name"))
      ok = read_string(ps, &arg->name, ".args .name");
    else if (!strcmp(key, ".type_name"))
      ok = read_string(ps, &arg->type_name, ".args .type_name");
    else if (!strcmp(key, ".offset"))
      ok = has_offset = read_u32(ps, &arg->offset, ".args .offset");
    else if (!strcmp(key, ".size"))
      ok = has_size = read_u32(ps, &arg->size, ".args .size");
    else if (!strcmp(key, ".value_kind"))
      ok = read_string(ps, &arg->kind_name, ".args .value_kind");
    else if (!strcmp(key, ".address_space"))
      ok = read_string(ps, &arg->address_space, ".args .address_space");
    else if (!strcmp(key, ".pointee_align"))
      ok = read_u32(ps, &arg->pointee_align, ".args .pointee_align");
    else if (!strcmp(key, ".is_const"))
      ok = read_bool(ps, &arg->is_const, ".args .is_const");
    else if (!strcmp(key, ".is_restrict"))
      ok = read_bool(ps, &arg->is_restrict, ".args .is_restrict");
    else if (!strcmp(key, ".is_volatile"))
      ok = read_bool(ps, &arg->is_volatile, ".args .is_volatile");
    else
      ok = skip_value(ps, where);
    if (!ok) return false;
  }
  if (!has_offset || !has_size || !arg->kind_name)
    return parse_error(ps, "metadata: %s lacks a required .offset, .size or .value_kind", where);
  arg->kind = arg_kind_from_string(arg->kind_name);
  return true;
}

/* ---- Kernel map ---------------------------------------------------------- */

enum kernel_required {
  REQ_NAME = 1 << 0,
  REQ_SYMBOL = 1 << 1,
  REQ_KERNARG_SIZE = 1 << 2,
  REQ_GROUP_SIZE = 1 << 3,
  REQ_PRIVATE_SIZE = 1 << 4,
  REQ_KERNARG_ALIGN = 1 << 5,
  REQ_WAVEFRONT = 1 << 6,
  REQ_ALL = (1 << 7) - 1,
};

static bool parse_kernel_field(struct parser *ps, struct loader_kernel_meta *k, const char *key,
                               unsigned *seen) {
  static const struct {
    const char *key;
    size_t offset;
    unsigned required;
  } u32_keys[] = {
      {".kernarg_segment_size", offsetof(struct loader_kernel_meta, kernarg_segment_size),
       REQ_KERNARG_SIZE},
      {".kernarg_segment_align", offsetof(struct loader_kernel_meta, kernarg_segment_align),
       REQ_KERNARG_ALIGN},
      {".group_segment_fixed_size", offsetof(struct loader_kernel_meta, group_segment_fixed_size),
       REQ_GROUP_SIZE},
      {".private_segment_fixed_size",
       offsetof(struct loader_kernel_meta, private_segment_fixed_size), REQ_PRIVATE_SIZE},
      {".wavefront_size", offsetof(struct loader_kernel_meta, wavefront_size), REQ_WAVEFRONT},
      {".sgpr_count", offsetof(struct loader_kernel_meta, sgpr_count), 0},
      {".vgpr_count", offsetof(struct loader_kernel_meta, vgpr_count), 0},
      {".agpr_count", offsetof(struct loader_kernel_meta, agpr_count), 0},
      {".sgpr_spill_count", offsetof(struct loader_kernel_meta, sgpr_spill_count), 0},
      {".vgpr_spill_count", offsetof(struct loader_kernel_meta, vgpr_spill_count), 0},
      {".max_flat_workgroup_size", offsetof(struct loader_kernel_meta, max_flat_workgroup_size), 0},
  };
  for (size_t i = 0; i < countof(u32_keys); i++) {
    if (strcmp(key, u32_keys[i].key) != 0) continue;
    *seen |= u32_keys[i].required;
    return read_u32(ps, (uint32_t *)((char *)k + u32_keys[i].offset), key);
  }
  if (!strcmp(key, ".name")) {
    *seen |= REQ_NAME;
    return read_string(ps, &k->name, ".name");
  }
  if (!strcmp(key, ".symbol")) {
    *seen |= REQ_SYMBOL;
    return read_string(ps, &k->symbol, ".symbol");
  }
  if (!strcmp(key, ".language")) return read_string(ps, &k->language, ".language");
  if (!strcmp(key, ".reqd_workgroup_size"))
    return read_u32_triple(ps, k->reqd_workgroup_size, ".reqd_workgroup_size");
  if (!strcmp(key, ".workgroup_size_hint"))
    return read_u32_triple(ps, k->workgroup_size_hint, ".workgroup_size_hint");
  if (!strcmp(key, ".uses_dynamic_stack"))
    return read_bool(ps, &k->uses_dynamic_stack, ".uses_dynamic_stack");
  if (!strcmp(key, ".args")) {
    if (k->args) return parse_error(ps, "metadata: kernel has two .args sequences");
    uint32_t n;
    if (!read_header(ps, MP_ARRAY, &n, ".args")) return false;
    for (uint32_t i = 0; i < n; i++) {
      char where[48];
      snprintf(where, sizeof where, ".args[%u]", i);
      if (!grow(ps, (void **)&k->args, k->arg_count, sizeof *k->args, where)) return false;
      k->arg_count++;
      if (!parse_arg(ps, &k->args[i], where)) return false;
    }
    return true;
  }
  return skip_value(ps, key);
}

/* Facts the document requires of a kernel, checked once it is complete. */
static bool check_kernel(struct parser *ps, const struct loader_kernel_meta *k) {
  if (!IS_POW2(k->kernarg_segment_align))
    return parse_error(ps, "metadata: kernel %s: .kernarg_segment_align %u is not a power of 2",
                       k->name, k->kernarg_segment_align);
  if (k->wavefront_size != 32 && k->wavefront_size != 64)
    return parse_error(ps, "metadata: kernel %s: .wavefront_size %u is not 32 or 64", k->name,
                       k->wavefront_size);
  for (uint32_t i = 0; i < k->arg_count; i++) {
    const struct loader_kernel_arg *a = &k->args[i];
    if ((uint64_t)a->offset + a->size > k->kernarg_segment_size)
      return parse_error(ps,
                         "metadata: kernel %s: .args[%u] (%s) at offset %u size %u ends beyond "
                         ".kernarg_segment_size %u",
                         k->name, i, a->kind_name, a->offset, a->size, k->kernarg_segment_size);
  }
  return true;
}

static bool parse_kernel(struct parser *ps, struct loader_kernel_meta *k, uint32_t index) {
  char where[40];
  snprintf(where, sizeof where, "amdhsa.kernels[%u]", index);
  uint32_t n;
  if (!read_header(ps, MP_MAP, &n, where)) return false;
  unsigned seen = 0;
  for (uint32_t i = 0; i < n; i++) {
    char key[40];
    if (!read_key(ps, key, sizeof key, where)) return false;
    if (!parse_kernel_field(ps, k, key, &seen)) return false;
  }
  if (seen != REQ_ALL)
    return parse_error(ps,
                       "metadata: %s (%s) lacks a required key (.name, .symbol, segment sizes, "
                       ".kernarg_segment_align or .wavefront_size)",
                       where, k->name ? k->name : "unnamed");
  return check_kernel(ps, k);
}

/* ---- Top-level map ------------------------------------------------------- */

static bool parse_top(struct parser *ps, struct loader_metadata *md) {
  uint32_t n;
  if (!read_header(ps, MP_MAP, &n, "the top level")) return false;
  bool has_version = false, has_kernels = false;
  for (uint32_t i = 0; i < n; i++) {
    char key[32];
    if (!read_key(ps, key, sizeof key, "the top-level map")) return false;
    bool ok;
    if (!strcmp(key, "amdhsa.version")) {
      uint32_t count;
      ok = read_header(ps, MP_ARRAY, &count, key);
      if (ok && count != 2)
        ok = parse_error(ps, "metadata: amdhsa.version has %u integers, not 2", count);
      ok = ok && read_u32(ps, &md->version_major, key) && read_u32(ps, &md->version_minor, key);
      has_version = ok;
    } else if (!strcmp(key, "amdhsa.target")) {
      ok = read_string(ps, &md->target, key);
    } else if (!strcmp(key, "amdhsa.kernels")) {
      if (has_kernels) return parse_error(ps, "metadata: two amdhsa.kernels sequences");
      uint32_t count;
      ok = has_kernels = read_header(ps, MP_ARRAY, &count, key);
      for (uint32_t k = 0; ok && k < count; k++) {
        ok = grow(ps, (void **)&md->kernels, md->kernel_count, sizeof *md->kernels, key);
        if (ok) md->kernel_count++;
        ok = ok && parse_kernel(ps, &md->kernels[k], k);
      }
    } else if (!strcmp(key, "amdhsa.printf")) {
      if (md->printf_formats) return parse_error(ps, "metadata: two amdhsa.printf sequences");
      uint32_t count;
      ok = read_header(ps, MP_ARRAY, &count, key);
      for (uint32_t k = 0; ok && k < count; k++) {
        ok = grow(ps, (void **)&md->printf_formats, md->printf_count, sizeof(char *), key);
        if (ok) md->printf_count++;
        ok = ok && read_string(ps, &md->printf_formats[k], key);
      }
    } else {
      ok = skip_value(ps, key);
    }
    if (!ok) return false;
  }
  if (!has_version || !has_kernels)
    return parse_error(ps, "metadata: lacks the required %s",
                       has_version ? "amdhsa.kernels" : "amdhsa.version");
  if (md->version_major != 1)
    return parse_error(ps, "metadata: amdhsa.version %u.%u is not supported (major must be 1)",
                       md->version_major, md->version_minor);
  for (uint32_t a = 0; a < md->kernel_count; a++)
    for (uint32_t b = a + 1; b < md->kernel_count; b++)
      if (!strcmp(md->kernels[a].symbol, md->kernels[b].symbol))
        return parse_error(ps, "metadata: two kernels with .symbol %s", md->kernels[a].symbol);
  if (ps->r.p != ps->r.end)
    return parse_error(ps, "metadata: %zu bytes after the top-level map",
                       (size_t)(ps->r.end - ps->r.p));
  return true;
}

bool loader_metadata_parse(const void *data, size_t size, struct loader_metadata *md, char *why,
                           size_t why_size) {
  memset(md, 0, sizeof *md);
  struct parser ps = {.why = why, .why_size = why_size};
  mp_reader_init(&ps.r, data, size);
  if (parse_top(&ps, md)) return true;
  loader_metadata_free(md);
  return false;
}

void loader_metadata_free(struct loader_metadata *md) {
  for (uint32_t k = 0; k < md->kernel_count; k++) {
    struct loader_kernel_meta *km = &md->kernels[k];
    for (uint32_t a = 0; a < km->arg_count; a++) {
      free(km->args[a].name);
      free(km->args[a].type_name);
      free(km->args[a].kind_name);
      free(km->args[a].address_space);
    }
    free(km->args);
    free(km->name);
    free(km->symbol);
    free(km->language);
  }
  free(md->kernels);
  for (uint32_t i = 0; i < md->printf_count; i++) free(md->printf_formats[i]);
  free(md->printf_formats);
  free(md->target);
  memset(md, 0, sizeof *md);
}

const struct loader_kernel_meta *loader_metadata_kernel_by_symbol(const struct loader_metadata *md,
                                                                  const char *symbol) {
  for (uint32_t k = 0; k < md->kernel_count; k++)
    if (!strcmp(md->kernels[k].symbol, symbol)) return &md->kernels[k];
  return NULL;
}
