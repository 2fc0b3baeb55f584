/*
 * executable_symbol.c - the symbols of executables (HSA Runtime PRM 1.2,
 * 2.9): what the loader and the program define, the look-ups by name (with
 * the CPU agents' "name.kd" spelling and the placement agent's kernels made
 * on first look-up), hsa_executable_symbol_get_info and the iterations.
 * The executables themselves are in executable.c.
 */
#define LOG_TAG "executable"
#include <stdlib.h>
#include <string.h>

#include "hsa/agent.h"
#include "hsa/cpu_kernel.h"
#include "hsa/executable_internal.h"
#include "hsa/executable_object.h"
#include "hsa/placement.h"
#include "hsa/runtime.h"
#include "lib/plat.h"

struct symbol {
  struct executable *exec;
  const struct agent *agent; /* NULL: program symbol */
  struct symbol_desc desc;   /* desc.name points to name_copy */
  char *name_copy;
  bool is_definition;
  struct symbol *next;
};

static struct symbol *symbol_from_handle(hsa_executable_symbol_t h) {
  struct symbol *s = (struct symbol *)(uintptr_t)h.handle;
  return object_set_contains(&rt.symbols, s) ? s : NULL;
}

static hsa_executable_symbol_t symbol_handle(const struct symbol *s) {
  hsa_executable_symbol_t h = {(uint64_t)(uintptr_t)s};
  return h;
}

/* ---- Symbols ---------------------------------------------------------------- */

static struct symbol *find_symbol(struct executable *e, const char *name,
                                  const struct agent *agent) {
  for (struct symbol *s = e->symbols; s; s = s->next)
    if (s->agent == agent && strcmp(s->desc.name, name) == 0) return s;
  return NULL;
}

hsa_status_t executable_add_symbol_locked(struct executable *e, const struct agent *agent,
                                          const struct symbol_desc *desc, bool is_definition) {
  if (!desc || !desc->name) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (find_symbol(e, desc->name, agent)) return HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
  struct symbol *s = calloc(1, sizeof *s);
  char *name = s ? malloc(strlen(desc->name) + 1) : NULL;
  if (!name || !object_set_insert(&rt.symbols, s)) {
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
    object_set_remove(&rt.symbols, s);
    if (placement_is_agent(s->agent)) placement_kernel_free(s->desc.address);
    free(s->name_copy);
    free(s);
  }
}

void executable_drop_symbols(struct executable *e) { remove_symbols_since_locked(e, NULL); }

void executable_symbols_fini(void) { object_set_free(&rt.symbols); }

hsa_status_t executable_add_symbols(struct executable *exec, const struct agent *agent,
                                    const struct symbol_desc *descs, uint32_t count,
                                    uint32_t *failed) {
  lock_acquire(&exec->lock);
  struct symbol *mark = exec->symbols;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (uint32_t i = 0; i < count && st == HSA_STATUS_SUCCESS; i++) {
    st = executable_add_symbol_locked(exec, agent, &descs[i], true);
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

/* ---- Look-ups and queries -------------------------------------------------- */

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
  if (executable_add_symbol_locked(e, pa, &d, true) != HSA_STATUS_SUCCESS) {
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
