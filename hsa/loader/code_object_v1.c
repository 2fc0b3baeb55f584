/*
 * code_object_v1.c - the deprecated HSA 1.0 code object API (HSA Runtime
 * PRM 1.2, appendix "Deprecated"; ROCr keeps it), which LLVM's older
 * offload plugins use: hsa_code_object_deserialize() on the bytes of an
 * AMDGPU code object, then hsa_executable_load_code_object().
 *
 * A hsa_code_object_t is a private copy of the bytes, checked by the loader
 * at deserialize time; its code symbols are the loader's symbols. Loading
 * goes through a code object reader and hsa_executable_load_agent_code_object,
 * so both paths share every check. Attribute answers follow ROCR-Runtime
 * libamdhsacode AmdHsaCode::GetInfo (a "<major>.<minor>" version string,
 * type PROGRAM, large machine model).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/executable_internal.h"
#include "hsa/loader/bundle.h"
#include "hsa/loader/loader.h"
#include "hsa/object_set.h"
#include "hsa/runtime.h"
#include "lib/plat.h"

#define LOG_TAG "loader"

struct code_object_v1 {
  void *bytes;
  size_t size;
  struct loader_code_object *co; /* parsed, never placed */
};

static struct code_object_v1 *code_object_from_handle(hsa_code_object_t h) {
  struct code_object_v1 *c = (struct code_object_v1 *)(uintptr_t)h.handle;
  return object_set_contains(&rt.code_objects, c) ? c : NULL;
}

/* A code symbol handle is the address of a struct loader_symbol in a live
 * code object's symbol array. */
struct symbol_search {
  uintptr_t wanted;
  const struct loader_symbol *found;
};

static void search_code_object(void *obj, void *arg) {
  const struct code_object_v1 *c = obj;
  struct symbol_search *s = arg;
  uintptr_t first = (uintptr_t)c->co->symbols;
  uintptr_t end = first + c->co->symbol_count * sizeof *c->co->symbols;
  if (s->wanted >= first && s->wanted < end && (s->wanted - first) % sizeof *c->co->symbols == 0)
    s->found = (const struct loader_symbol *)s->wanted;
}

static const struct loader_symbol *symbol_from_handle(hsa_code_symbol_t h) {
  struct symbol_search s = {(uintptr_t)h.handle, NULL};
  object_set_for_each(&rt.code_objects, search_code_object, &s);
  return s.found;
}

static hsa_code_symbol_t symbol_handle(const struct loader_symbol *s) {
  hsa_code_symbol_t h = {(uint64_t)(uintptr_t)s};
  return h;
}

hsa_status_t hsa_code_object_serialize(hsa_code_object_t code_object,
                                       hsa_status_t (*alloc)(size_t, hsa_callback_data_t, void **),
                                       hsa_callback_data_t data, const char *options,
                                       void **serialized, size_t *size) {
  RETURN_IF_NOT_INITIALIZED();
  (void)options;
  if (!alloc || !serialized || !size) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr's order */
  struct code_object_v1 *c = code_object_from_handle(code_object);
  if (!c) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  hsa_status_t st = alloc(c->size, data, serialized);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (!*serialized) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  memcpy(*serialized, c->bytes, c->size);
  *size = c->size;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_deserialize(void *serialized, size_t size, const char *options,
                                         hsa_code_object_t *code_object) {
  RETURN_IF_NOT_INITIALIZED();
  (void)options;
  if (!serialized || size == 0 || !code_object) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (loader_bundle_is_bundle(serialized, size)) {
    log_error(
        "hsa_code_object_deserialize: an offload bundle has no single code object; load "
        "it through a code object reader for an agent");
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  struct code_object_v1 *c = calloc(1, sizeof *c);
  if (c) c->bytes = malloc(size);
  if (!c || !c->bytes) {
    free(c);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  memcpy(c->bytes, serialized, size); /* the caller may free its buffer */
  c->size = size;
  enum loader_status st =
      loader_code_object_parse(c->bytes, size, "deserialized code object", &c->co, NULL, 0);
  if (st != LOADER_OK || !object_set_insert(&rt.code_objects, c)) {
    loader_code_object_destroy(c->co);
    free(c->bytes);
    free(c);
    return st == LOADER_OK                    ? HSA_STATUS_ERROR_OUT_OF_RESOURCES
           : st == LOADER_ERROR_OUT_OF_MEMORY ? HSA_STATUS_ERROR_OUT_OF_RESOURCES
                                              : HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  code_object->handle = (uint64_t)(uintptr_t)c;
  return HSA_STATUS_SUCCESS;
}

static void code_object_free(struct code_object_v1 *c) {
  loader_code_object_destroy(c->co);
  free(c->bytes);
  free(c);
}

hsa_status_t hsa_code_object_destroy(hsa_code_object_t code_object) {
  RETURN_IF_NOT_INITIALIZED();
  struct code_object_v1 *c = code_object_from_handle(code_object);
  if (!c || !object_set_remove(&rt.code_objects, c)) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  code_object_free(c);
  return HSA_STATUS_SUCCESS;
}

void code_objects_fini(void) {
  struct code_object_v1 *c;
  while ((c = object_set_pop(&rt.code_objects)) != NULL) code_object_free(c);
  object_set_free(&rt.code_objects);
}

hsa_status_t hsa_code_object_get_info(hsa_code_object_t code_object,
                                      hsa_code_object_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct code_object_v1 *c = code_object_from_handle(code_object);
  if (!c) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  switch (attribute) {
    case HSA_CODE_OBJECT_INFO_VERSION: /* char[64] */
      memset(value, 0, 64);
      snprintf(value, 64, "%u.0", c->co->version);
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_OBJECT_INFO_TYPE:
      *(hsa_code_object_type_t *)value = HSA_CODE_OBJECT_TYPE_PROGRAM;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_OBJECT_INFO_ISA: {
      char name[64];
      loader_isa_name(&c->co->isa, name, sizeof name);
      return hsa_isa_from_name(name, (hsa_isa_t *)value);
    }
    case HSA_CODE_OBJECT_INFO_MACHINE_MODEL:
      *(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE; /* ELF64 */
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_OBJECT_INFO_PROFILE:
      *(hsa_profile_t *)value = HSA_PROFILE_FULL; /* v3+ objects carry no profile note */
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_OBJECT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      *(hsa_default_float_rounding_mode_t *)value = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
      return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                             hsa_code_object_t code_object, const char *options) {
  RETURN_IF_NOT_INITIALIZED();
  /* ROCr's order: the executable, then the code object. */
  if (!executable_is_valid(executable)) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  struct code_object_v1 *c = code_object_from_handle(code_object);
  if (!c) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  hsa_code_object_reader_t reader;
  hsa_status_t st = hsa_code_object_reader_create_from_memory(c->bytes, c->size, &reader);
  if (st != HSA_STATUS_SUCCESS) return st;
  st = hsa_executable_load_agent_code_object(executable, agent, reader, options, NULL);
  hsa_code_object_reader_destroy(reader); /* the load keeps what it needs */
  return st;
}

hsa_status_t hsa_code_object_get_symbol_from_name(hsa_code_object_t code_object,
                                                  const char *module_name, const char *symbol_name,
                                                  hsa_code_symbol_t *symbol) {
  RETURN_IF_NOT_INITIALIZED();
  (void)module_name; /* module names belong to HSAIL; code objects have none */
  if (!symbol_name || !symbol) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct code_object_v1 *c = code_object_from_handle(code_object);
  if (!c) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  const struct loader_symbol *s = loader_code_object_symbol(c->co, symbol_name);
  if (!s) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  *symbol = symbol_handle(s);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_get_symbol(hsa_code_object_t code_object, const char *symbol_name,
                                        hsa_code_symbol_t *symbol) {
  return hsa_code_object_get_symbol_from_name(code_object, NULL, symbol_name, symbol);
}

hsa_status_t hsa_code_symbol_get_info(hsa_code_symbol_t code_symbol,
                                      hsa_code_symbol_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct loader_symbol *s = symbol_from_handle(code_symbol);
  if (!s) return HSA_STATUS_ERROR_INVALID_CODE_SYMBOL;
  bool kernel = s->kind == LOADER_SYMBOL_KERNEL;
  switch (attribute) {
    case HSA_CODE_SYMBOL_INFO_TYPE:
      *(hsa_symbol_kind_t *)value = kernel ? HSA_SYMBOL_KIND_KERNEL : HSA_SYMBOL_KIND_VARIABLE;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_NAME_LENGTH:
      *(uint32_t *)value = (uint32_t)strlen(s->name);
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_NAME:
      memcpy(value, s->name, strlen(s->name));
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_MODULE_NAME_LENGTH:
      *(uint32_t *)value = 0;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_MODULE_NAME:
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_LINKAGE:
      *(hsa_symbol_linkage_t *)value =
          s->program_linkage ? HSA_SYMBOL_LINKAGE_PROGRAM : HSA_SYMBOL_LINKAGE_MODULE;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_IS_DEFINITION:
      *(bool *)value = true;
      return HSA_STATUS_SUCCESS;
    default:
      break;
  }
  if (!kernel) switch (attribute) {
      case HSA_CODE_SYMBOL_INFO_VARIABLE_ALLOCATION:
        *(hsa_variable_allocation_t *)value = HSA_VARIABLE_ALLOCATION_AGENT;
        return HSA_STATUS_SUCCESS;
      case HSA_CODE_SYMBOL_INFO_VARIABLE_SEGMENT:
        *(hsa_variable_segment_t *)value =
            s->is_const ? HSA_VARIABLE_SEGMENT_READONLY : HSA_VARIABLE_SEGMENT_GLOBAL;
        return HSA_STATUS_SUCCESS;
      case HSA_CODE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
        *(uint32_t *)value = s->alignment;
        return HSA_STATUS_SUCCESS;
      case HSA_CODE_SYMBOL_INFO_VARIABLE_SIZE:
        *(uint32_t *)value = (uint32_t)s->size;
        return HSA_STATUS_SUCCESS;
      case HSA_CODE_SYMBOL_INFO_VARIABLE_IS_CONST:
        *(bool *)value = s->is_const;
        return HSA_STATUS_SUCCESS;
      default:
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
  switch (attribute) {
    case HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      *(uint32_t *)value = s->meta->kernarg_segment_size;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
      *(uint32_t *)value = s->meta->kernarg_segment_align > MIN_KERNARG_ALIGNMENT
                               ? s->meta->kernarg_segment_align
                               : MIN_KERNARG_ALIGNMENT;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      *(uint32_t *)value = s->kd.group_segment_fixed_size;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      *(uint32_t *)value = s->kd.private_segment_fixed_size;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
      *(bool *)value = (s->kd.kernel_code_properties & AMD_KD_USES_DYNAMIC_STACK) != 0;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
      *(uint32_t *)value = 0;
      return HSA_STATUS_SUCCESS;
    case HSA_CODE_SYMBOL_INFO_KERNEL_WAVEFRONT_SIZE:
      *(uint32_t *)value = s->meta->wavefront_size;
      return HSA_STATUS_SUCCESS;
    default:
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_code_object_iterate_symbols(hsa_code_object_t code_object,
                                             hsa_status_t (*callback)(hsa_code_object_t code_object,
                                                                      hsa_code_symbol_t symbol,
                                                                      void *data),
                                             void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct code_object_v1 *c = code_object_from_handle(code_object);
  if (!c) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  for (uint32_t i = 0; i < c->co->symbol_count; i++) {
    hsa_status_t st = callback(code_object, symbol_handle(&c->co->symbols[i]), data);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}
