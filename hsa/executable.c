/*
 * executable.c - code object readers, executables and executable symbols
 * (HSA Runtime PRM 1.2, 2.9).
 *
 * GPU code objects go through the loader (executable_internal.h). CPU
 * kernels are linked into the program: every executable carries one kernel
 * symbol per (CPU agent, CPU kernel), so a program finds "vadd" (or
 * "vadd.kd") for a CPU agent exactly as it finds a GPU kernel.
 */
#define LOG_TAG "executable"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsa/agent.h"
#include "hsa/cl_program.h"
#include "hsa/cpu_kernel.h"
#include "hsa/executable_internal.h"
#include "hsa/placement.h"
#include "hsa/runtime.h"
#include "lib/plat.h"

struct code_object_reader {
  const void *data;
  size_t size;
  void *owned; /* the copy read from a file */
};

struct symbol {
  struct executable *exec;
  const struct agent *agent; /* NULL: program symbol */
  struct symbol_desc desc;   /* desc.name points to name_copy */
  char *name_copy;
  bool is_definition;
  struct symbol *next;
};

struct loaded_object {
  struct loaded_code_object *lco; /* a GPU code object, or */
  struct cl_program *cpu;         /* the CPU part of a tools/hsacc file */
  struct loaded_object *next;
};

struct executable {
  hsa_profile_t profile;
  hsa_default_float_rounding_mode_t rounding;
  hsa_executable_state_t state;
  struct lock lock;
  struct symbol *symbols; /* newest first */
  struct loaded_object *loaded;
};

static struct object_set symbols = OBJECT_SET_INIT;

struct executable_list {
  uint64_t *handles;
  size_t count, capacity;
};

static struct executable *executable_from_handle(hsa_executable_t h) {
  struct executable *e = (struct executable *)(uintptr_t)h.handle;
  return object_set_contains(&rt.executables, e) ? e : NULL;
}

static struct code_object_reader *reader_from_handle(hsa_code_object_reader_t h) {
  struct code_object_reader *r = (struct code_object_reader *)(uintptr_t)h.handle;
  return object_set_contains(&rt.readers, r) ? r : NULL;
}

static struct symbol *symbol_from_handle(hsa_executable_symbol_t h) {
  struct symbol *s = (struct symbol *)(uintptr_t)h.handle;
  return object_set_contains(&symbols, s) ? s : NULL;
}

static hsa_executable_symbol_t symbol_handle(const struct symbol *s) {
  hsa_executable_symbol_t h = {(uint64_t)(uintptr_t)s};
  return h;
}

/* ---- Code object readers ------------------------------------------------ */

hsa_status_t hsa_code_object_reader_create_from_memory(const void *code_object, size_t size,
                                                       hsa_code_object_reader_t *reader) {
  RETURN_IF_NOT_INITIALIZED();
  if (!code_object || size == 0 || !reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct code_object_reader *r = calloc(1, sizeof *r);
  if (!r) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  r->data = code_object; /* 2.9.1: the memory stays the program's until destroy */
  r->size = size;
  if (!object_set_insert(&rt.readers, r)) {
    free(r);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  reader->handle = (uint64_t)(uintptr_t)r;
  return HSA_STATUS_SUCCESS;
}

/* A reader over `size` bytes of a file from `offset` (SIZE_MAX: up to its
 * end), read into the reader's own copy (POSIX lseek and read). */
hsa_status_t code_object_reader_create_from_file_range(hsa_file_t file, size_t offset, size_t size,
                                                       hsa_code_object_reader_t *reader) {
  if (offset != SIZE_MAX && lseek(file, (off_t)offset, SEEK_SET) < 0) return HSA_STATUS_ERROR_INVALID_FILE;
  size_t cap = size != SIZE_MAX ? (size ? size : 1) : 1 << 16, len = 0;
  unsigned char *buf = malloc(cap);
  for (;;) {
    if (!buf) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    size_t want = (size != SIZE_MAX ? size : cap) - len;
    if (want == 0 && size != SIZE_MAX) break;
    ssize_t n = read(file, buf + len, want);
    if (n < 0) {
      free(buf);
      return HSA_STATUS_ERROR_INVALID_FILE;
    }
    if (n == 0) break;
    len += (size_t)n;
    if (len == cap && size == SIZE_MAX) {
      unsigned char *bigger = realloc(buf, cap *= 2);
      if (!bigger) free(buf);
      buf = bigger;
    }
  }
  if (len == 0 || (size != SIZE_MAX && len != size)) {
    free(buf);
    return len == 0 ? HSA_STATUS_ERROR_INVALID_CODE_OBJECT : HSA_STATUS_ERROR_INVALID_FILE;
  }
  hsa_status_t st = hsa_code_object_reader_create_from_memory(buf, len, reader);
  if (st != HSA_STATUS_SUCCESS) {
    free(buf);
    return st;
  }
  reader_from_handle(*reader)->owned = buf;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_create_from_file(hsa_file_t file,
                                                     hsa_code_object_reader_t *reader) {
  RETURN_IF_NOT_INITIALIZED();
  if (!reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* The whole file from the current offset. */
  return code_object_reader_create_from_file_range(file, SIZE_MAX, SIZE_MAX, reader);
}

hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t reader) {
  RETURN_IF_NOT_INITIALIZED();
  struct code_object_reader *r = (struct code_object_reader *)(uintptr_t)reader.handle;
  if (!object_set_remove(&rt.readers, r)) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  free(r->owned);
  free(r);
  return HSA_STATUS_SUCCESS;
}

/* ---- Symbols ---------------------------------------------------------------- */

static struct symbol *find_symbol(struct executable *e, const char *name,
                                  const struct agent *agent) {
  for (struct symbol *s = e->symbols; s; s = s->next)
    if (s->agent == agent && strcmp(s->desc.name, name) == 0) return s;
  return NULL;
}

/* Adds a symbol; the caller holds e->lock. */
static hsa_status_t add_symbol_locked(struct executable *e, const struct agent *agent,
                                      const struct symbol_desc *desc, bool is_definition) {
  if (!desc || !desc->name) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (find_symbol(e, desc->name, agent)) return HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
  struct symbol *s = calloc(1, sizeof *s);
  char *name = s ? malloc(strlen(desc->name) + 1) : NULL;
  if (!name || !object_set_insert(&symbols, s)) {
    free(name);
    free(s);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  strcpy(name, desc->name);
  s->exec = e;
  s->agent = agent;
  s->desc = *desc;
  s->desc.name = s->name_copy = name;
  s->is_definition = is_definition;
  s->next = e->symbols;
  e->symbols = s;
  return HSA_STATUS_SUCCESS;
}

/* Drops the symbols added after `mark` (the list is newest first). */
static void remove_symbols_since_locked(struct executable *e, struct symbol *mark) {
  while (e->symbols && e->symbols != mark) {
    struct symbol *s = e->symbols;
    e->symbols = s->next;
    object_set_remove(&symbols, s);
    if (placement_is_agent(s->agent)) placement_kernel_free(s->desc.address);
    free(s->name_copy);
    free(s);
  }
}

hsa_status_t executable_add_symbols(struct executable *exec, const struct agent *agent,
                                    const struct symbol_desc *descs, uint32_t count,
                                    uint32_t *failed) {
  lock_acquire(&exec->lock);
  struct symbol *mark = exec->symbols;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (uint32_t i = 0; i < count && st == HSA_STATUS_SUCCESS; i++) {
    st = add_symbol_locked(exec, agent, &descs[i], true);
    if (st != HSA_STATUS_SUCCESS) *failed = i;
  }
  if (st != HSA_STATUS_SUCCESS) remove_symbols_since_locked(exec, mark);
  lock_release(&exec->lock);
  return st;
}

bool executable_lookup_variable(struct executable *exec, const struct agent *agent,
                                const char *name, uint64_t *address) {
  /* Agent-allocated definitions first, then program ones. The loader calls
   * this while loading, when exec->lock is not held by us. */
  lock_acquire(&exec->lock);
  struct symbol *s = find_symbol(exec, name, agent);
  if (!s || s->desc.kind != HSA_SYMBOL_KIND_VARIABLE) s = find_symbol(exec, name, NULL);
  bool found = s && s->desc.kind == HSA_SYMBOL_KIND_VARIABLE;
  if (found) *address = s->desc.address;
  lock_release(&exec->lock);
  return found;
}

/* The CPU kernels, as kernel symbols of every CPU agent. */
static hsa_status_t add_cpu_kernels(struct executable *e) {
  for (uint32_t a = 0; a < agent_count(); a++) {
    struct agent *agent = agent_at(a);
    if (agent->device_type != HSA_DEVICE_TYPE_CPU) continue;
    for (size_t k = 0; k < cpu_kernel_count(); k++) {
      const hsa_cpu_kernel_descriptor_t *kd = cpu_kernel_at(k);
      struct symbol_desc d = {
          .name = kd->name,
          .kind = HSA_SYMBOL_KIND_KERNEL,
          .linkage = HSA_SYMBOL_LINKAGE_PROGRAM,
          .address = (uint64_t)(uintptr_t)kd,
          .kernarg_segment_size = kd->kernarg_segment_size,
          .kernarg_segment_alignment =
              kd->kernarg_segment_alignment > MIN_KERNARG_ALIGNMENT ? kd->kernarg_segment_alignment
                                                                    : MIN_KERNARG_ALIGNMENT,
          .group_segment_size = kd->group_segment_size,
          .private_segment_size = kd->private_segment_size,
      };
      hsa_status_t st = add_symbol_locked(e, agent, &d, true);
      if (st != HSA_STATUS_SUCCESS) {
        log_error("CPU kernel '%s' is defined twice", kd->name);
        return st;
      }
    }
  }
  return HSA_STATUS_SUCCESS;
}

/* ---- Executables --------------------------------------------------------------- */

static void executable_free(struct executable *e) {
  remove_symbols_since_locked(e, NULL);
  while (e->loaded) {
    struct loaded_object *l = e->loaded;
    e->loaded = l->next;
    if (l->cpu)
      cl_program_unload(l->cpu);
    else
      loader_unload(l->lco);
    free(l);
  }
  free(e);
}

hsa_status_t hsa_executable_create_alt(hsa_profile_t profile,
                                       hsa_default_float_rounding_mode_t rounding,
                                       const char *options, hsa_executable_t *executable) {
  RETURN_IF_NOT_INITIALIZED();
  (void)options; /* no vendor options are defined */
  if (!executable || (unsigned)profile > HSA_PROFILE_FULL ||
      (unsigned)rounding > HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct executable *e = calloc(1, sizeof *e);
  if (!e) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  e->profile = profile;
  e->rounding = rounding;
  e->state = HSA_EXECUTABLE_STATE_UNFROZEN;
  hsa_status_t st = add_cpu_kernels(e);
  if (st == HSA_STATUS_SUCCESS && !object_set_insert(&rt.executables, e))
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (st != HSA_STATUS_SUCCESS) {
    executable_free(e);
    return st;
  }
  executable->handle = (uint64_t)(uintptr_t)e;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create(hsa_profile_t profile, hsa_executable_state_t state,
                                   const char *options, hsa_executable_t *executable) {
  RETURN_IF_NOT_INITIALIZED();
  if ((unsigned)state > HSA_EXECUTABLE_STATE_FROZEN) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                              options, executable);
  if (st == HSA_STATUS_SUCCESS) executable_from_handle(*executable)->state = state;
  return st;
}

hsa_status_t hsa_executable_destroy(hsa_executable_t executable) {
  RETURN_IF_NOT_INITIALIZED();
  struct executable *e = (struct executable *)(uintptr_t)executable.handle;
  if (!object_set_remove(&rt.executables, e)) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  executable_free(e);
  return HSA_STATUS_SUCCESS;
}

static void collect_executable(void *obj, void *arg) {
  struct executable_list *list = arg;
  if (list->count < list->capacity) list->handles[list->count] = (uint64_t)(uintptr_t)obj;
  list->count++;
}

hsa_status_t executables_iterate(hsa_status_t (*callback)(hsa_executable_t executable, void *data),
                                 void *data) {
  /* A snapshot: the callback may create or destroy executables. */
  struct executable_list list = {0};
  for (;;) {
    list.capacity = object_set_count(&rt.executables) + 8;
    list.handles = malloc(list.capacity * sizeof *list.handles);
    if (!list.handles) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    list.count = 0;
    object_set_for_each(&rt.executables, collect_executable, &list);
    if (list.count <= list.capacity) break;
    free(list.handles);
  }
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (size_t i = 0; i < list.count && st == HSA_STATUS_SUCCESS; i++)
    if (object_set_contains(&rt.executables, (void *)(uintptr_t)list.handles[i]))
      st = callback((hsa_executable_t){list.handles[i]}, data);
  free(list.handles);
  return st;
}

bool executable_is_valid(hsa_executable_t executable) {
  return executable_from_handle(executable) != NULL;
}

void executables_fini(void) {
  struct executable *e;
  while ((e = object_set_pop(&rt.executables)) != NULL) executable_free(e);
  object_set_free(&rt.executables);
  struct code_object_reader *r;
  while ((r = object_set_pop(&rt.readers)) != NULL) {
    free(r->owned);
    free(r);
  }
  object_set_free(&rt.readers);
  object_set_free(&symbols);
}

/* ROCr's order: the executable, the reader, frozen, then the agent
 * (`for_agent`: an agent load, whose agent handle named no agent if NULL). */
static hsa_status_t load_code_object(hsa_executable_t executable, const struct agent *agent,
                                     bool for_agent, hsa_code_object_reader_t reader,
                                     const char *options, hsa_loaded_code_object_t *loaded) {
  struct executable *e = executable_from_handle(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  struct code_object_reader *r = reader_from_handle(reader);
  if (!r) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  if (e->state == HSA_EXECUTABLE_STATE_FROZEN) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  if (for_agent && !agent) return HSA_STATUS_ERROR_INVALID_AGENT;
  bool cpu = agent && agent->device_type == HSA_DEVICE_TYPE_CPU;
  if (agent && !cpu && !agent_isa_name(agent)) {
    log_error("load_agent_code_object: agent %u has no ISA", agent->node);
    return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  }
  struct loaded_object *l = calloc(1, sizeof *l);
  if (!l) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  /* A CPU agent takes the CPU part of a tools/hsacc file (cl_program.h). */
  hsa_status_t st = cpu ? cl_program_load(e, agent, r->data, r->size, &l->cpu)
                        : loader_load(e, agent, r->data, r->size, options, &l->lco);
  if (st != HSA_STATUS_SUCCESS) {
    free(l);
    return st;
  }
  lock_acquire(&e->lock);
  l->next = e->loaded;
  e->loaded = l;
  lock_release(&e->lock);
  /* The loader's object (the AMD loader extension knows GPU ones only). */
  if (loaded) loaded->handle = l->cpu ? (uint64_t)(uintptr_t)l->cpu : (uint64_t)(uintptr_t)l->lco;
  return HSA_STATUS_SUCCESS;
}

/* The placement agent (hsa_ext_placement.h): every real agent takes the
 * part of the file it can run; success if one did, else the first agent's
 * status. */
static hsa_status_t load_for_placement(hsa_executable_t executable, hsa_code_object_reader_t reader,
                                       const char *options, hsa_loaded_code_object_t *loaded) {
  hsa_status_t first = HSA_STATUS_ERROR_INVALID_AGENT;
  bool any = false;
  for (uint32_t i = 0; i < placement_agent_count(); i++) {
    hsa_loaded_code_object_t one;
    hsa_status_t st =
        load_code_object(executable, placement_agent_at(i), true, reader, options, &one);
    if (st == HSA_STATUS_SUCCESS) {
      if (!any && loaded) *loaded = one;
      any = true;
    } else if (i == 0) {
      first = st;
    }
    /* Handle errors are the same for every agent: stop at the first. */
    if (st == HSA_STATUS_ERROR_INVALID_EXECUTABLE || st == HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER ||
        st == HSA_STATUS_ERROR_FROZEN_EXECUTABLE || st == HSA_STATUS_ERROR_OUT_OF_RESOURCES)
      return st;
  }
  if (!any) log_error("load_agent_code_object: no agent behind the placement agent takes this file");
  return any ? HSA_STATUS_SUCCESS : first;
}

hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                   hsa_code_object_reader_t reader,
                                                   const char *options,
                                                   hsa_loaded_code_object_t *loaded) {
  RETURN_IF_NOT_INITIALIZED();
  struct agent *a = agent_from_handle(agent);
  if (placement_is_agent(a)) return load_for_placement(executable, reader, options, loaded);
  return load_code_object(executable, a, true, reader, options, loaded);
}

hsa_status_t hsa_executable_load_program_code_object(hsa_executable_t executable,
                                                     hsa_code_object_reader_t reader,
                                                     const char *options,
                                                     hsa_loaded_code_object_t *loaded) {
  RETURN_IF_NOT_INITIALIZED();
  return load_code_object(executable, NULL, false, reader, options, loaded);
}

hsa_status_t hsa_executable_freeze(hsa_executable_t executable, const char *options) {
  RETURN_IF_NOT_INITIALIZED();
  (void)options;
  struct executable *e = executable_from_handle(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (e->state == HSA_EXECUTABLE_STATE_FROZEN) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  e->state = HSA_EXECUTABLE_STATE_FROZEN;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute,
                                     void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct executable *e = executable_from_handle(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  switch (attribute) {
    case HSA_EXECUTABLE_INFO_PROFILE:
      *(hsa_profile_t *)value = e->profile;
      break;
    case HSA_EXECUTABLE_INFO_STATE:
      *(hsa_executable_state_t *)value = e->state;
      break;
    case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      *(hsa_default_float_rounding_mode_t *)value = e->rounding;
      break;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

/* ROCr's order: the name, the executable, frozen, then the agent (`for_agent`:
 * an agent definition, whose handle named no agent if `agent` is NULL). */
static hsa_status_t define_variable(hsa_executable_t executable, const struct agent *agent,
                                    bool for_agent, const char *name, void *address,
                                    bool is_const) {
  if (!name) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct executable *e = executable_from_handle(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (e->state == HSA_EXECUTABLE_STATE_FROZEN) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  if (for_agent && !agent) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!address) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct symbol_desc d = {
      .name = name,
      .kind = HSA_SYMBOL_KIND_VARIABLE,
      .linkage = HSA_SYMBOL_LINKAGE_PROGRAM,
      .address = (uint64_t)(uintptr_t)address,
      .allocation = agent ? HSA_VARIABLE_ALLOCATION_AGENT : HSA_VARIABLE_ALLOCATION_PROGRAM,
      .segment = is_const ? HSA_VARIABLE_SEGMENT_READONLY : HSA_VARIABLE_SEGMENT_GLOBAL,
      .is_const = is_const,
  };
  lock_acquire(&e->lock);
  /* Defined by the program, not by a code object: not a "definition". */
  hsa_status_t st = add_symbol_locked(e, agent, &d, false);
  lock_release(&e->lock);
  return st;
}

hsa_status_t hsa_executable_global_variable_define(hsa_executable_t executable,
                                                   const char *variable_name, void *address) {
  RETURN_IF_NOT_INITIALIZED();
  return define_variable(executable, NULL, false, variable_name, address, false);
}

hsa_status_t hsa_executable_agent_global_variable_define(hsa_executable_t executable,
                                                         hsa_agent_t agent,
                                                         const char *variable_name, void *address) {
  RETURN_IF_NOT_INITIALIZED();
  return define_variable(executable, agent_from_handle(agent), true, variable_name, address, false);
}

hsa_status_t hsa_executable_readonly_variable_define(hsa_executable_t executable, hsa_agent_t agent,
                                                     const char *variable_name, void *address) {
  RETURN_IF_NOT_INITIALIZED();
  return define_variable(executable, agent_from_handle(agent), true, variable_name, address, true);
}

hsa_status_t hsa_executable_validate_alt(hsa_executable_t executable, const char *options,
                                         uint32_t *result) {
  RETURN_IF_NOT_INITIALIZED();
  (void)options;
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: the pointer first */
  if (!executable_from_handle(executable)) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  *result = 0; /* the loader validated each code object when it loaded it */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_validate(hsa_executable_t executable, uint32_t *result) {
  return hsa_executable_validate_alt(executable, NULL, result);
}

static struct symbol *agent_symbol_locked(struct executable *e, const char *name,
                                          const struct agent *a) {
  struct symbol *s = find_symbol(e, name, a);
  if (!s && a && a->device_type == HSA_DEVICE_TYPE_CPU) {
    /* CPU kernels answer to the GPU spelling "name.kd" too. */
    const hsa_cpu_kernel_descriptor_t *kd = cpu_kernel_find(name);
    if (kd) s = find_symbol(e, kd->name, a);
  }
  return s;
}

/* A kernel for the placement agent: made on the first look-up from the
 * kernels of that name the real agents have (hsa_ext_placement.h). */
static struct symbol *placement_symbol_locked(struct executable *e, const char *name,
                                              const struct agent *pa) {
  struct symbol *s = find_symbol(e, name, pa);
  if (s) return s;
  uint64_t objects[PL_MAX_AGENTS] = {0};
  struct symbol_desc d = {.name = name, .kind = HSA_SYMBOL_KIND_KERNEL,
                          .linkage = HSA_SYMBOL_LINKAGE_PROGRAM,
                          .kernarg_segment_alignment = MIN_KERNARG_ALIGNMENT};
  bool any = false;
  for (uint32_t i = 0; i < placement_agent_count() && i < PL_MAX_AGENTS; i++) {
    const struct symbol *k = agent_symbol_locked(e, name, placement_agent_at(i));
    if (!k || k->desc.kind != HSA_SYMBOL_KIND_KERNEL) continue;
    const struct symbol_desc *kd = &k->desc;
    objects[i] = kd->address;
    any = true;
#define TAKE_MAX(field) \
  if (kd->field > d.field) d.field = kd->field
    TAKE_MAX(kernarg_segment_size);
    TAKE_MAX(kernarg_segment_alignment);
    TAKE_MAX(group_segment_size);
    TAKE_MAX(private_segment_size);
#undef TAKE_MAX
    d.dynamic_callstack |= kd->dynamic_callstack;
  }
  if (!any) return NULL;
  d.address = placement_kernel_create(name, objects);
  if (!d.address) return NULL;
  if (add_symbol_locked(e, pa, &d, true) != HSA_STATUS_SUCCESS) {
    placement_kernel_free(d.address);
    return NULL;
  }
  return e->symbols; /* newest first */
}

hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t executable, const char *name,
                                               const hsa_agent_t *agent,
                                               hsa_executable_symbol_t *symbol) {
  RETURN_IF_NOT_INITIALIZED();
  if (!name || !symbol) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr's order */
  struct executable *e = executable_from_handle(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  /* ROCr looks the name up for whatever agent it is given: a handle that
   * names no agent has no symbols. */
  const struct agent *a = NULL;
  if (agent && !(a = agent_from_handle(*agent))) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  lock_acquire(&e->lock);
  struct symbol *s = placement_is_agent(a) ? placement_symbol_locked(e, name, a)
                                           : agent_symbol_locked(e, name, a);
  if (!s && a) s = find_symbol(e, name, NULL); /* program variables */
  lock_release(&e->lock);
  if (!s) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  *symbol = symbol_handle(s);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_get_symbol(hsa_executable_t executable, const char *module_name,
                                       const char *symbol_name, hsa_agent_t agent,
                                       int32_t call_convention, hsa_executable_symbol_t *symbol) {
  (void)module_name; /* module names belong to HSAIL, which has none here */
  (void)call_convention;
  return hsa_executable_get_symbol_by_name(executable, symbol_name, &agent, symbol);
}

static void copy_string(void *value, const char *s) { memcpy(value, s, strlen(s)); }

hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t handle,
                                            hsa_executable_symbol_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: the pointer first */
  struct symbol *s = symbol_from_handle(handle);
  if (!s) return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
  const struct symbol_desc *d = &s->desc;
  bool kernel = d->kind == HSA_SYMBOL_KIND_KERNEL, variable = d->kind == HSA_SYMBOL_KIND_VARIABLE;
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
      *(hsa_symbol_kind_t *)value = d->kind;
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
      *(uint32_t *)value = (uint32_t)strlen(d->name);
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
      copy_string(value, d->name);
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
      *(uint32_t *)value = 0;
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
      if (!s->agent) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* a program symbol */
      *(hsa_agent_t *)value = agent_handle(s->agent);
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:
      *(hsa_symbol_linkage_t *)value = d->linkage;
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:
      *(bool *)value = s->is_definition;
      return HSA_STATUS_SUCCESS;
    default:
      break;
  }
  if (variable) switch (attribute) {
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
        *(uint64_t *)value = d->address;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
        *(hsa_variable_allocation_t *)value = d->allocation;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
        *(hsa_variable_segment_t *)value = d->segment;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
        *(uint32_t *)value = d->variable_alignment;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
        *(uint32_t *)value = (uint32_t)d->variable_size;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST:
        *(bool *)value = d->is_const;
        return HSA_STATUS_SUCCESS;
      default:
        break;
    }
  if (kernel) switch (attribute) {
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
        *(uint64_t *)value = d->address;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
        *(uint32_t *)value = d->kernarg_segment_size;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
        *(uint32_t *)value = d->kernarg_segment_alignment;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
        *(uint32_t *)value = d->group_segment_size;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
        *(uint32_t *)value = d->private_segment_size;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
        *(bool *)value = d->dynamic_callstack;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
        *(uint32_t *)value = 0;
        return HSA_STATUS_SUCCESS;
      default:
        break;
    }
  if (d->kind == HSA_SYMBOL_KIND_INDIRECT_FUNCTION) switch (attribute) {
      case HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_OBJECT:
        *(uint64_t *)value = d->address;
        return HSA_STATUS_SUCCESS;
      case HSA_EXECUTABLE_SYMBOL_INFO_INDIRECT_FUNCTION_CALL_CONVENTION:
        *(uint32_t *)value = 0;
        return HSA_STATUS_SUCCESS;
      default:
        break;
    }
  /* Attributes of another kind of symbol, or unknown ones. */
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

/* Iteration over a snapshot of handles, so callbacks may call back in. */
typedef bool (*symbol_filter_fn)(const struct symbol *s, const struct agent *agent);

static hsa_status_t iterate(struct executable *e, symbol_filter_fn keep, const struct agent *agent,
                            hsa_status_t (*visit)(struct executable *, const struct symbol *,
                                                  void *),
                            void *data) {
  lock_acquire(&e->lock);
  size_t n = 0;
  for (struct symbol *s = e->symbols; s; s = s->next) n += keep(s, agent);
  struct symbol **list = malloc((n ? n : 1) * sizeof *list);
  size_t i = n;
  if (list)
    for (struct symbol *s = e->symbols; s; s = s->next)
      if (keep(s, agent)) list[--i] = s; /* oldest first */
  lock_release(&e->lock);
  if (!list) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (i = 0; i < n && st == HSA_STATUS_SUCCESS; i++) st = visit(e, list[i], data);
  free(list);
  return st;
}

static bool keep_all(const struct symbol *s, const struct agent *a) {
  return (void)s, (void)a, true;
}
static bool keep_agent(const struct symbol *s, const struct agent *a) { return s->agent == a; }
static bool keep_program(const struct symbol *s, const struct agent *a) {
  return (void)a, s->agent == NULL;
}

struct visit_ctx {
  hsa_status_t (*exec_cb)(hsa_executable_t, hsa_executable_symbol_t, void *);
  hsa_status_t (*agent_cb)(hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void *);
  void *data;
};

static hsa_status_t visit_symbol(struct executable *e, const struct symbol *s, void *arg) {
  struct visit_ctx *c = arg;
  hsa_executable_t eh = {(uint64_t)(uintptr_t)e};
  if (c->agent_cb) return c->agent_cb(eh, agent_handle(s->agent), symbol_handle(s), c->data);
  return c->exec_cb(eh, symbol_handle(s), c->data);
}

/* ROCr's order: the callback, the agent (when iterating an agent's
 * symbols; NULL here if its handle named none), then the executable. */
static hsa_status_t iterate_api(hsa_executable_t executable, symbol_filter_fn keep,
                                const struct agent *agent, struct visit_ctx *c) {
  if (!c->exec_cb && !c->agent_cb) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (keep == keep_agent && !agent) return HSA_STATUS_ERROR_INVALID_AGENT;
  struct executable *e = executable_from_handle(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  return iterate(e, keep, agent, visit_symbol, c);
}

hsa_status_t hsa_executable_iterate_symbols(hsa_executable_t executable,
                                            hsa_status_t (*callback)(hsa_executable_t exec,
                                                                     hsa_executable_symbol_t symbol,
                                                                     void *data),
                                            void *data) {
  RETURN_IF_NOT_INITIALIZED();
  struct visit_ctx c = {callback, NULL, data};
  return iterate_api(executable, keep_all, NULL, &c);
}

hsa_status_t hsa_executable_iterate_agent_symbols(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_agent_t agent,
                             hsa_executable_symbol_t symbol, void *data),
    void *data) {
  RETURN_IF_NOT_INITIALIZED();
  struct visit_ctx c = {NULL, callback, data};
  return iterate_api(executable, keep_agent, agent_from_handle(agent), &c);
}

hsa_status_t hsa_executable_iterate_program_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_executable_symbol_t symbol, void *data),
    void *data) {
  RETURN_IF_NOT_INITIALIZED();
  struct visit_ctx c = {callback, NULL, data};
  return iterate_api(executable, keep_program, NULL, &c);
}
