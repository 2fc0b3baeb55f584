/*
 * hsa_ven_amd_loader.h - the AMD loader extension (HSA_EXTENSION_AMD_LOADER,
 * version 1.3), written by us with ROCr's names, types and values
 * (ROCR-Runtime inc/hsa_ven_amd_loader.h), so that programs that query it
 * (HIP's runtime, profilers, debuggers) compile unchanged. Get the table
 * with hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1,
 * sizeof(hsa_ven_amd_loader_1_03_pfn_t), &table), or call the functions.
 *
 * In hsa-metal's single address space a device address is also the host
 * address: query_host_address answers the same address for any address
 * inside a loaded code object's segments.
 */
#ifndef HSA_VEN_AMD_LOADER_H
#define HSA_VEN_AMD_LOADER_H

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host address of `device_address`, which must lie inside a loaded
 * code object; HSA_STATUS_ERROR_INVALID_ARGUMENT otherwise. */
hsa_status_t HSA_API hsa_ven_amd_loader_query_host_address(const void *device_address,
                                                           const void **host_address);

typedef enum {
  HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE = 0,
  HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE = 1,
  HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY = 2
} hsa_ven_amd_loader_code_object_storage_type_t;

typedef struct hsa_ven_amd_loader_segment_descriptor_s {
  hsa_agent_t agent;
  hsa_executable_t executable;
  hsa_ven_amd_loader_code_object_storage_type_t code_object_storage_type;
  const void *code_object_storage_base;
  size_t code_object_storage_size;
  size_t code_object_storage_offset;
  const void *segment_base;
  size_t segment_size;
} hsa_ven_amd_loader_segment_descriptor_t;

/* *num 0 and descriptors NULL: the count; else *num must equal the count
 * (HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS) and the descriptors are filled. */
hsa_status_t HSA_API hsa_ven_amd_loader_query_segment_descriptors(
    hsa_ven_amd_loader_segment_descriptor_t *segment_descriptors, size_t *num_segment_descriptors);

hsa_status_t HSA_API hsa_ven_amd_loader_query_executable(const void *device_address,
                                                         hsa_executable_t *executable);

hsa_status_t HSA_API hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t executable,
                             hsa_loaded_code_object_t loaded_code_object, void *data),
    void *data);

typedef enum {
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM = 1,
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT = 2
} hsa_ven_amd_loader_loaded_code_object_kind_t;

typedef enum hsa_ven_amd_loader_loaded_code_object_info_e {
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE = 1, /* hsa_executable_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND = 2,       /* uint32_t (kind above) */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT = 3,      /* hsa_agent_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE = 4,        /* uint32_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE = 5, /* uint64_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE = 6, /* uint64_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE = 7,        /* int */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA = 8,                      /* int64_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE = 9,                       /* uint64_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE = 10,                      /* uint64_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH = 11,                     /* uint32_t */
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI = 12, /* char[URI_LENGTH], no NUL */
} hsa_ven_amd_loader_loaded_code_object_info_t;

hsa_status_t HSA_API hsa_ven_amd_loader_loaded_code_object_get_info(
    hsa_loaded_code_object_t loaded_code_object,
    hsa_ven_amd_loader_loaded_code_object_info_t attribute, void *value);

hsa_status_t HSA_API hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
    hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *code_object_reader);

hsa_status_t HSA_API hsa_ven_amd_loader_iterate_executables(
    hsa_status_t (*callback)(hsa_executable_t executable, void *data), void *data);

#define hsa_ven_amd_loader 001003

/* The tables of each version: the previous version's fields, then the
 * functions it added (same layout as ROCr's hsa_ven_amd_loader.h). */
/* clang-format off */
#define HSA_VEN_AMD_LOADER_1_00_FIELDS                                                        \
  hsa_status_t (*hsa_ven_amd_loader_query_host_address)(const void *device_address,           \
                                                        const void **host_address);           \
  hsa_status_t (*hsa_ven_amd_loader_query_segment_descriptors)(                               \
      hsa_ven_amd_loader_segment_descriptor_t *segment_descriptors,                           \
      size_t *num_segment_descriptors);                                                       \
  hsa_status_t (*hsa_ven_amd_loader_query_executable)(const void *device_address,             \
                                                      hsa_executable_t *executable);
#define HSA_VEN_AMD_LOADER_1_01_FIELDS                                                        \
  HSA_VEN_AMD_LOADER_1_00_FIELDS                                                              \
  hsa_status_t (*hsa_ven_amd_loader_executable_iterate_loaded_code_objects)(                  \
      hsa_executable_t executable,                                                            \
      hsa_status_t (*callback)(hsa_executable_t executable,                                   \
                               hsa_loaded_code_object_t loaded_code_object, void *data),      \
      void *data);                                                                            \
  hsa_status_t (*hsa_ven_amd_loader_loaded_code_object_get_info)(                             \
      hsa_loaded_code_object_t loaded_code_object,                                            \
      hsa_ven_amd_loader_loaded_code_object_info_t attribute, void *value);
#define HSA_VEN_AMD_LOADER_1_02_FIELDS                                                        \
  HSA_VEN_AMD_LOADER_1_01_FIELDS                                                              \
  hsa_status_t (*hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size)(    \
      hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *code_object_reader);
#define HSA_VEN_AMD_LOADER_1_03_FIELDS                                                        \
  HSA_VEN_AMD_LOADER_1_02_FIELDS                                                              \
  hsa_status_t (*hsa_ven_amd_loader_iterate_executables)(                                     \
      hsa_status_t (*callback)(hsa_executable_t executable, void *data), void *data);
/* clang-format on */

typedef struct hsa_ven_amd_loader_1_00_pfn_s {
  HSA_VEN_AMD_LOADER_1_00_FIELDS
} hsa_ven_amd_loader_1_00_pfn_t;

typedef struct hsa_ven_amd_loader_1_01_pfn_s {
  HSA_VEN_AMD_LOADER_1_01_FIELDS
} hsa_ven_amd_loader_1_01_pfn_t;

typedef struct hsa_ven_amd_loader_1_02_pfn_s {
  HSA_VEN_AMD_LOADER_1_02_FIELDS
} hsa_ven_amd_loader_1_02_pfn_t;

typedef struct hsa_ven_amd_loader_1_03_pfn_s {
  HSA_VEN_AMD_LOADER_1_03_FIELDS
} hsa_ven_amd_loader_1_03_pfn_t;

#ifdef __cplusplus
}
#endif

#endif /* HSA_VEN_AMD_LOADER_H */
