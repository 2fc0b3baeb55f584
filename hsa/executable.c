/*
 * executable.c - code object readers and executables: create, load,
 * freeze, define variables, destroy (HSA Runtime PRM 1.2, 2.9); their
 * symbols and the symbol queries are in executable_symbol.c.
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
#include "hsa/executable_object.h"
#include "hsa/placement.h"
#include "hsa/runtime.h"
#include "lib/plat.h"

struct code_object_reader {
  const void *data;
  size_t size;
  void *owned; /* the copy read from a file */
};

struct loaded_object {
  struct loaded_code_object *lco; /* a GPU code object, or */
  struct cl_program *cpu;         /* the CPU part of a tools/hsacc file */
  struct loaded_object *next;
};

struct executable_list {
  uint64_t *handles;
  size_t count, capacity;
};


struct executable *executable_from_handle(hsa_executable_t h) {
  struct executable *e = (struct executable *)(uintptr_t)h.handle;
  return object_set_contains(&rt.executables, e) ? e : NULL;
}

static struct code_object_reader *reader_from_handle(hsa_code_object_reader_t h) {
  struct code_object_reader *r = (struct code_object_reader *)(uintptr_t)h.handle;
  return object_set_contains(&rt.readers, r) ? r : NULL;
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
      hsa_status_t st = executable_add_symbol_locked(e, agent, &d, true);
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
  executable_drop_symbols(e);
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
  executable_symbols_fini();
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
  hsa_status_t st = executable_add_symbol_locked(e, agent, &d, false);
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
