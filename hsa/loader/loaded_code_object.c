/*
 * loaded_code_object.c - loader_load/loader_unload for executables
 * (hsa/executable_internal.h): turns the bytes of a code object reader into
 * placed segments and HSA symbols.
 *
 * Segments come from plat_dma_alloc: memory every agent reaches in the
 * single address space. A clang offload bundle is accepted too: the entry
 * for the agent's ISA is loaded (a program code object, without an agent,
 * cannot choose one). Symbols follow ROCr's reporting: kernels by their
 * descriptor symbol "name.kd" with sizes from the metadata and descriptor,
 * kernarg alignment at least 16 (HSA Runtime PRM 1.2, 2.9.6
 * KERNARG_SEGMENT_ALIGNMENT); variables with agent allocation when loaded for
 * an agent.
 */
#include "hsa/loader/loaded_code_object.h"

#include <stdlib.h>
#include <string.h>

#include "hsa/agent.h"
#include "hsa/executable_internal.h"
#include "hsa/loader/bundle.h"
#include "hsa/runtime.h"
#include "lib/lock.h"
#include "lib/plat.h"

#define LOG_TAG "loader"

static void *segment_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  return plat_dma_alloc(size, align);
}

static void segment_free(void *ctx, void *ptr, size_t size) {
  (void)ctx;
  plat_dma_free(ptr, size);
}

static const struct loader_memory_ops segment_memory = {segment_alloc, segment_free, NULL};

struct resolve_ctx {
  struct executable *exec;
  const struct agent *agent;
};

static bool resolve_variable(void *ctx, const char *name, uint64_t *address) {
  struct resolve_ctx *r = ctx;
  return executable_lookup_variable(r->exec, r->agent, name, address);
}

static hsa_status_t hsa_status_of(enum loader_status st) {
  switch (st) {
    case LOADER_OK:
      return HSA_STATUS_SUCCESS;
    case LOADER_ERROR_INVALID_CODE_OBJECT:
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    case LOADER_ERROR_INCOMPATIBLE_ISA:
      return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
    case LOADER_ERROR_INVALID_ISA_NAME:
      return HSA_STATUS_ERROR_INVALID_ISA_NAME;
    case LOADER_ERROR_VARIABLE_UNDEFINED:
      return HSA_STATUS_ERROR_VARIABLE_UNDEFINED;
    case LOADER_ERROR_OUT_OF_MEMORY:
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  return HSA_STATUS_ERROR;
}

static struct symbol_desc describe(const struct loader_symbol *s, const struct agent *agent) {
  struct symbol_desc d = {
      .name = s->name,
      .linkage = s->program_linkage ? HSA_SYMBOL_LINKAGE_PROGRAM : HSA_SYMBOL_LINKAGE_MODULE,
      .address = s->address,
  };
  if (s->kind == LOADER_SYMBOL_KERNEL) {
    d.kind = HSA_SYMBOL_KIND_KERNEL;
    d.kernarg_segment_size = s->meta->kernarg_segment_size;
    d.kernarg_segment_alignment = s->meta->kernarg_segment_align > MIN_KERNARG_ALIGNMENT
                                      ? s->meta->kernarg_segment_align
                                      : MIN_KERNARG_ALIGNMENT;
    d.group_segment_size = s->kd.group_segment_fixed_size;
    d.private_segment_size = s->kd.private_segment_fixed_size;
    d.dynamic_callstack = (s->kd.kernel_code_properties & AMD_KD_USES_DYNAMIC_STACK) != 0;
  } else {
    d.kind = HSA_SYMBOL_KIND_VARIABLE;
    d.allocation = agent ? HSA_VARIABLE_ALLOCATION_AGENT : HSA_VARIABLE_ALLOCATION_PROGRAM;
    d.segment = s->is_const ? HSA_VARIABLE_SEGMENT_READONLY : HSA_VARIABLE_SEGMENT_GLOBAL;
    d.variable_alignment = s->alignment;
    d.variable_size = s->size;
    d.is_const = s->is_const;
  }
  return d;
}

static void loaded_code_object_free(struct loaded_code_object *lco) {
  loader_code_object_destroy(lco->co);
  free(lco->elf);
  free(lco);
}

hsa_status_t loader_load(struct executable *exec, const struct agent *agent, const void *data,
                         size_t size, const char *options, struct loaded_code_object **out) {
  (void)options; /* no loader options are defined */
  const char *isa_name = agent ? agent_isa_name(agent) : NULL;
  char why[256];
  *out = NULL;
  if (loader_bundle_is_bundle(data, size)) {
    if (!isa_name) {
      log_error("code object: an offload bundle needs an agent to choose its entry for");
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    enum loader_status st =
        loader_bundle_select(data, size, "offload bundle", isa_name, &data, &size, why, sizeof why);
    if (st != LOADER_OK) return hsa_status_of(st);
  }

  struct loaded_code_object *lco = calloc(1, sizeof *lco);
  void *elf = malloc(size); /* kept for the AMD loader extension's queries */
  if (!lco || !elf) {
    free(lco);
    free(elf);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  memcpy(elf, data, size);
  lco->elf = elf;
  lco->elf_size = size;
  lco->executable.handle = (uint64_t)(uintptr_t)exec;
  lco->agent = agent ? agent_handle(agent) : (hsa_agent_t){0};
  enum loader_status st =
      loader_code_object_parse(data, size, "code object", &lco->co, why, sizeof why);
  if (st == LOADER_OK && isa_name)
    st = loader_code_object_check_isa(lco->co, isa_name, why, sizeof why);
  struct resolve_ctx r = {exec, agent};
  if (st == LOADER_OK)
    st = loader_code_object_load(lco->co, &segment_memory, resolve_variable, &r, why, sizeof why);
  if (st != LOADER_OK) {
    loaded_code_object_free(lco);
    return hsa_status_of(st);
  }

  /* All symbols or none: a load that fails here leaves nothing behind. */
  uint32_t n = lco->co->symbol_count, failed = 0;
  struct symbol_desc *descs = calloc(n ? n : 1, sizeof *descs);
  hsa_status_t hs = descs ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  for (uint32_t i = 0; descs && i < n; i++) descs[i] = describe(&lco->co->symbols[i], agent);
  if (hs == HSA_STATUS_SUCCESS) hs = executable_add_symbols(exec, agent, descs, n, &failed);
  free(descs);
  if (hs != HSA_STATUS_SUCCESS) {
    log_error("code object: symbol %s: %s", n ? lco->co->symbols[failed].name : "-",
              hs == HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED ? "already defined in the executable"
                                                              : "cannot be added");
    loaded_code_object_free(lco);
    return hs;
  }
  lock_acquire(&rt.loaded.lock);
  lco->next = rt.loaded.list;
  rt.loaded.list = lco;
  lock_release(&rt.loaded.lock);
  *out = lco;
  return HSA_STATUS_SUCCESS;
}

void loader_unload(struct loaded_code_object *lco) {
  if (!lco) return;
  lock_acquire(&rt.loaded.lock);
  for (struct loaded_code_object **p = &rt.loaded.list; *p; p = &(*p)->next)
    if (*p == lco) {
      *p = lco->next;
      break;
    }
  lock_release(&rt.loaded.lock);
  loaded_code_object_free(lco);
}

void loaded_code_objects_each(bool (*fn)(const struct loaded_code_object *lco, void *ctx), void *ctx) {
  lock_acquire(&rt.loaded.lock);
  for (struct loaded_code_object *l = rt.loaded.list; l && fn(l, ctx); l = l->next) {
  }
  lock_release(&rt.loaded.lock);
}

bool loaded_kernel_with(uint64_t kernel_object,
                        void (*fn)(const struct loader_symbol *kernel, void *ctx), void *ctx) {
  bool found = false;
  lock_acquire(&rt.loaded.lock);
  for (struct loaded_code_object *l = rt.loaded.list; l && !found; l = l->next)
    for (uint32_t i = 0; i < l->co->symbol_count && !found; i++) {
      const struct loader_symbol *s = &l->co->symbols[i];
      if (s->kind == LOADER_SYMBOL_KERNEL && s->address == kernel_object) {
        fn(s, ctx);
        found = true;
      }
    }
  lock_release(&rt.loaded.lock);
  return found;
}
