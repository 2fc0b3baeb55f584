/*
 * amd_loader_ext.c - the AMD loader extension (hsa_ven_amd_loader.h,
 * HSA_EXTENSION_AMD_LOADER 1.3): which executable and code object an
 * address belongs to, the loaded code objects of an executable and their
 * load base, size, delta, bytes and URI, readers over part of a file.
 * Statuses and argument checks follow ROCR-Runtime's
 * core/runtime/hsa_ven_amd_loader.cpp and loader/executable.cpp.
 *
 * Each loaded code object is one allocation holding all its PT_LOAD
 * segments (loader_code_object_load), so it has one segment descriptor.
 * Its URI is the "memory://" form ROCr gives code objects loaded from
 * memory (the process id is 1: there is one program).
 */
#define LOG_TAG "loader"
#include <hsa/hsa_ven_amd_loader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/executable_internal.h"
#include "hsa/loader/loaded_code_object.h"
#include "hsa/runtime.h"

/* ---- Finding things (under the loader's lock) ----------------------------- */

struct address_search {
  uint64_t address;
  hsa_executable_t found;
};

static bool contains_address(const struct loaded_code_object *lco, void *ctx) {
  struct address_search *s = ctx;
  uint64_t base = (uint64_t)(uintptr_t)lco->co->base;
  if (s->address >= base && s->address - base < lco->co->base_size) {
    s->found = lco->executable;
    return false;
  }
  return true;
}

/* The executable whose code object holds `address`, or {0}. */
static hsa_executable_t executable_at(const void *address) {
  struct address_search s = {(uint64_t)(uintptr_t)address, {0}};
  if (address) loaded_code_objects_each(contains_address, &s);
  return s.found;
}

/* What get_info answers from, copied under the lock. */
struct handle_search {
  const void *wanted;
  bool found;
  hsa_executable_t executable;
  hsa_agent_t agent;
  const void *elf;
  size_t elf_size, load_size;
  uint64_t load_base;
  int64_t delta;
};

static bool is_wanted(const struct loaded_code_object *lco, void *ctx) {
  struct handle_search *s = ctx;
  if (lco != s->wanted) return true;
  s->found = true;
  s->executable = lco->executable;
  s->agent = lco->agent;
  s->elf = lco->elf;
  s->elf_size = lco->elf_size;
  s->load_base = (uint64_t)(uintptr_t)lco->co->base;
  s->load_size = lco->co->base_size;
  s->delta = lco->co->delta;
  return false;
}

struct loaded_list {
  hsa_executable_t executable;
  hsa_loaded_code_object_t *handles;
  size_t count, capacity;
};

static bool collect_loaded(const struct loaded_code_object *lco, void *ctx) {
  struct loaded_list *l = ctx;
  if (lco->executable.handle == l->executable.handle) {
    if (l->count < l->capacity) l->handles[l->count].handle = (uint64_t)(uintptr_t)lco;
    l->count++;
  }
  return true;
}

struct descriptor_list {
  hsa_ven_amd_loader_segment_descriptor_t *out;
  size_t count, capacity;
};

static bool describe_segment(const struct loaded_code_object *lco, void *ctx) {
  struct descriptor_list *d = ctx;
  if (d->out && d->count < d->capacity)
    d->out[d->count] = (hsa_ven_amd_loader_segment_descriptor_t){
        .agent = lco->agent,
        .executable = lco->executable,
        .code_object_storage_type = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY,
        .code_object_storage_base = lco->elf,
        .code_object_storage_size = lco->elf_size,
        .code_object_storage_offset = lco->co->segment_count ? lco->co->segments[0].offset : 0,
        .segment_base = lco->co->base,
        .segment_size = lco->co->base_size,
    };
  d->count++;
  return true;
}

/* ---- API ------------------------------------------------------------------- */

hsa_status_t hsa_ven_amd_loader_query_host_address(const void *device_address,
                                                   const void **host_address) {
  RETURN_IF_NOT_INITIALIZED();
  if (!device_address || !host_address) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!executable_at(device_address).handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *host_address = device_address; /* one address space */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ven_amd_loader_query_segment_descriptors(
    hsa_ven_amd_loader_segment_descriptor_t *segment_descriptors, size_t *num_segment_descriptors) {
  RETURN_IF_NOT_INITIALIZED();
  if (!num_segment_descriptors || (*num_segment_descriptors == 0) != (segment_descriptors == NULL))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct descriptor_list d = {segment_descriptors, 0, *num_segment_descriptors};
  loaded_code_objects_each(describe_segment, &d);
  if (*num_segment_descriptors == 0) {
    *num_segment_descriptors = d.count;
    return HSA_STATUS_SUCCESS;
  }
  /* ROCr asks for exactly the count it gave. */
  return d.count == *num_segment_descriptors ? HSA_STATUS_SUCCESS
                                             : HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
}

hsa_status_t hsa_ven_amd_loader_query_executable(const void *device_address,
                                                 hsa_executable_t *executable) {
  RETURN_IF_NOT_INITIALIZED();
  if (!device_address || !executable) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_executable_t e = executable_at(device_address);
  if (!e.handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *executable = e;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t executable,
                             hsa_loaded_code_object_t loaded_code_object, void *data),
    void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!executable_is_valid(executable)) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  /* A snapshot, oldest first (load order, as ROCr), then the callbacks
   * outside the lock. */
  struct loaded_list l = {executable, NULL, 0, 0};
  loaded_code_objects_each(collect_loaded, &l);
  l.capacity = l.count;
  l.handles = calloc(l.capacity ? l.capacity : 1, sizeof *l.handles);
  if (!l.handles) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  l.count = 0;
  loaded_code_objects_each(collect_loaded, &l);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (size_t i = l.count < l.capacity ? l.count : l.capacity; i-- > 0 && st == HSA_STATUS_SUCCESS;)
    st = callback(executable, l.handles[i], data);
  free(l.handles);
  return st;
}

hsa_status_t hsa_ven_amd_loader_loaded_code_object_get_info(
    hsa_loaded_code_object_t loaded_code_object,
    hsa_ven_amd_loader_loaded_code_object_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct handle_search s = {.wanted = (const void *)(uintptr_t)loaded_code_object.handle};
  loaded_code_objects_each(is_wanted, &s);
  if (!s.found) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  const struct handle_search *l = &s;
  char uri[96];
  int uri_length = snprintf(uri, sizeof uri, "memory://1#offset=0x%llx&size=%zu",
                            (unsigned long long)(uintptr_t)l->elf, l->elf_size);
  switch (attribute) {
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
      *(hsa_executable_t *)value = l->executable;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
      *(uint32_t *)value = l->agent.handle ? HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT
                                           : HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:
      if (!l->agent.handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* a program object */
      *(hsa_agent_t *)value = l->agent;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
      *(uint32_t *)value = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
      *(uint64_t *)value = (uint64_t)(uintptr_t)l->elf;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
      *(uint64_t *)value = l->elf_size;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
      *(int64_t *)value = l->delta;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:
      *(uint64_t *)value = l->load_base;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:
      *(uint64_t *)value = l->load_size;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
      *(uint32_t *)value = (uint32_t)uri_length;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
      memcpy(value, uri, (size_t)uri_length); /* as ROCr: no terminating NUL */
      break;
    default: /* STORAGE_FILE too: every code object is kept in memory */
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
    hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *code_object_reader) {
  RETURN_IF_NOT_INITIALIZED();
  if (!code_object_reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0 || size == SIZE_MAX) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  return code_object_reader_create_from_file_range(file, offset, size, code_object_reader);
}

hsa_status_t hsa_ven_amd_loader_iterate_executables(
    hsa_status_t (*callback)(hsa_executable_t executable, void *data), void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return executables_iterate(callback, data);
}

/* The function table hsa_system_get_major_extension_table hands out. */
const hsa_ven_amd_loader_1_03_pfn_t amd_loader_extension_table = {
    hsa_ven_amd_loader_query_host_address,
    hsa_ven_amd_loader_query_segment_descriptors,
    hsa_ven_amd_loader_query_executable,
    hsa_ven_amd_loader_executable_iterate_loaded_code_objects,
    hsa_ven_amd_loader_loaded_code_object_get_info,
    hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size,
    hsa_ven_amd_loader_iterate_executables,
};
