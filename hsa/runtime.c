/*
 * runtime.c - hsa_init / hsa_shut_down (reference counted), system
 * information, status strings and extension queries (HSA Runtime PRM 1.2,
 * 2.1-2.2).
 *
 * Bring-up order, read top to bottom in runtime_start():
 *   memory pools, the GPU driver (its model takes a core before the CPU
 *   agents take the spare ones), CPU agents, GPU agents.
 * Tear-down runs the other way after the last hsa_shut_down.
 */
#define LOG_TAG "hsa"
#include "hsa/runtime.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa_ven_amd_loader.h>

#include "hsa/agent.h"
#include "hsa/cl_program.h"
#include "hsa/executable_internal.h"
#include "hsa/isa.h"
#include "hsa/placement.h"
#include "lib/plat.h"
#include "lib/util.h"

struct runtime rt = {.lock = LOCK_INIT,
                     .signals = OBJECT_SET_INIT,
                     .signal_groups = OBJECT_SET_INIT,
                     .queues = OBJECT_SET_INIT,
                     .executables = OBJECT_SET_INIT,
                     .readers = OBJECT_SET_INIT,
                     .symbols = OBJECT_SET_INIT};

void *runtime_alloc_aligned(size_t size, size_t align) {
  /* C11 aligned_alloc wants the size to be a multiple of the alignment. */
  return aligned_alloc(align, ALIGN_UP(size, align));
}

static void runtime_stop(void) {
  async_handlers_fini();
  system_events_fini();
  async_copy_fini();
  executables_fini();
  code_objects_fini();
  cl_programs_fini();
  placement_queues_fini();
  queues_fini();
  placement_fini();
  for (uint32_t i = rt.agent_count; i-- > 0;) {
    rt.agents[i]->ops->shut_down(rt.agents[i]);
    rt.agents[i] = NULL;
  }
  rt.agent_count = 0;
  signals_fini();
  signal_groups_fini();
  memory_fini();
  gpu_driver_stop(); /* the GPU's local pool memory was given back above */
  isas_fini();       /* last: the agents pointed at them */
}

static hsa_status_t runtime_start(void) {
  isas_init();                              /* before the GPU agents pick theirs */
  hsa_status_t st = memory_init();          /* the system memory pools */
  if (st == HSA_STATUS_SUCCESS) st = gpu_driver_start();  /* the GPUs drivers/amdgpu finds */
  if (st == HSA_STATUS_SUCCESS) st = cpu_agents_create(); /* cores that run AQL */
  if (st == HSA_STATUS_SUCCESS) st = gpu_agents_create(); /* one per GPU */
  if (st == HSA_STATUS_SUCCESS) placement_init();         /* stands for them all */
  if (st != HSA_STATUS_SUCCESS) runtime_stop();
  return st;
}

/* Held across a whole hsa_init / hsa_shut_down, so that two threads never
 * bring the runtime up (or down) at the same time. */
static struct lock init_lock = LOCK_INIT;

/* ROCr (runtime.cpp Runtime::Acquire) counts hsa_init calls in an int and
 * answers REFCOUNT_OVERFLOW at INT32_MAX. */
hsa_status_t hsa_init(void) {
  lock_acquire(&init_lock);
  uint32_t count = atomic_load(&rt.refcount);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  const char *problem = plat_options_problem();
  if (problem) {
    log_error("hsa_init: %s", problem);
    st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  } else if (count >= INT32_MAX) {
    log_error("hsa_init: already initialised %u times, ROCr's limit", count);
    st = HSA_STATUS_ERROR_REFCOUNT_OVERFLOW;
  } else if (count == 0) {
    st = runtime_start();
    if (st == HSA_STATUS_SUCCESS) log_info("runtime up: %u agents", rt.agent_count);
  }
  if (st == HSA_STATUS_SUCCESS) atomic_store_explicit(&rt.refcount, count + 1, memory_order_release);
  lock_release(&init_lock);
  return st;
}

hsa_status_t hsa_shut_down(void) {
  lock_acquire(&init_lock);
  uint32_t count = atomic_load(&rt.refcount);
  if (count == 0) {
    lock_release(&init_lock);
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  }
  atomic_store_explicit(&rt.refcount, count - 1, memory_order_release);
  if (count == 1) runtime_stop();
  lock_release(&init_lock);
  return HSA_STATUS_SUCCESS;
}

/* ---- System information --------------------------------------------------- */

/* Extensions with a function table this runtime offers: the AMD loader
 * extension, version 1 (hsa_ven_amd_loader.h, minor versions 0..3). Images
 * and the finalizer are not offered. */
#define HSA_VEN_AMD_LOADER_MINOR 3 /* hsa_ven_amd_loader_1_03_pfn_t */

static bool extension_supported(uint16_t extension, uint16_t major) {
  return extension == HSA_EXTENSION_AMD_LOADER && major == 1;
}

bool extension_in_range(uint16_t extension) {
  return extension <= HSA_EXTENSION_STD_LAST ||
         (extension >= HSA_AMD_FIRST_EXTENSION && extension <= HSA_AMD_LAST_EXTENSION);
}

/* The process runs with XNACK on when its GPU agents do (ROCr reports the
 * mode it bound the driver to; the agents' ISAs carry it, isa.c). */
static bool xnack_enabled(void) {
  for (uint32_t i = 0; i < agent_count(); i++) {
    const struct agent *a = agent_at(i);
    if (a->isa && a->isa->xnack == LOADER_FEATURE_ON) return true;
  }
  return false;
}

hsa_status_t hsa_system_get_info(hsa_system_info_t attribute, void *value) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch ((int)attribute) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR: *(uint16_t *)value = 1; break;
    case HSA_SYSTEM_INFO_VERSION_MINOR: *(uint16_t *)value = 2; break;
    case HSA_SYSTEM_INFO_TIMESTAMP: *(uint64_t *)value = plat_now_ns(); break;
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
      *(uint64_t *)value = RUNTIME_TIMESTAMP_FREQUENCY_HZ;
      break;
    /* A wait may last forever (the timeout hint is just a hint). */
    case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT: *(uint64_t *)value = UINT64_MAX; break;
    case HSA_SYSTEM_INFO_ENDIANNESS: *(hsa_endianness_t *)value = HSA_ENDIANNESS_LITTLE; break;
    case HSA_SYSTEM_INFO_MACHINE_MODEL:
      *(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
      break;
    /* As ROCr's mask: the AMD profiler functions (hsa_ext_amd.h) are always
     * there; the loader extension is found by query, not in the mask. */
    case HSA_SYSTEM_INFO_EXTENSIONS: {
      uint8_t *mask = value;
      memset(mask, 0, 128);
      mask[HSA_EXTENSION_AMD_PROFILER / 8] |= (uint8_t)(1u << (HSA_EXTENSION_AMD_PROFILER % 8));
      break;
    }
    case HSA_AMD_SYSTEM_INFO_BUILD_VERSION: *(const char **)value = "hsa-metal 1.2"; break;
    /* Memory is shared by construction, but the SVM attribute API (ranges,
     * prefetch, migration) is not offered. */
    case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED: *(bool *)value = false; break;
    case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT: *(bool *)value = true; break;
    case HSA_AMD_SYSTEM_INFO_MWAITX_ENABLED: *(bool *)value = false; break;
    case HSA_AMD_SYSTEM_INFO_DMABUF_SUPPORTED: *(bool *)value = false; break;
    case HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED: *(bool *)value = false; break;
    case HSA_AMD_SYSTEM_INFO_XNACK_ENABLED: *(bool *)value = xnack_enabled(); break;
    case HSA_AMD_SYSTEM_INFO_EXT_VERSION_MAJOR:
      *(uint16_t *)value = HSA_AMD_INTERFACE_VERSION_MAJOR;
      break;
    case HSA_AMD_SYSTEM_INFO_EXT_VERSION_MINOR:
      *(uint16_t *)value = HSA_AMD_INTERFACE_VERSION_MINOR;
      break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

static const struct {
  uint16_t id;
  const char *name;
} extension_names[] = {
    {HSA_EXTENSION_FINALIZER, "HSA_EXTENSION_FINALIZER"},
    {HSA_EXTENSION_IMAGES, "HSA_EXTENSION_IMAGES"},
    {HSA_EXTENSION_PERFORMANCE_COUNTERS, "HSA_EXTENSION_PERFORMANCE_COUNTERS"},
    {HSA_EXTENSION_PROFILING_EVENTS, "HSA_EXTENSION_PROFILING_EVENTS"},
    {HSA_EXTENSION_AMD_PROFILER, "HSA_EXTENSION_AMD_PROFILER"},
    {HSA_EXTENSION_AMD_LOADER, "HSA_EXTENSION_AMD_LOADER"},
    {HSA_EXTENSION_AMD_AQLPROFILE, "HSA_EXTENSION_AMD_AQLPROFILE"},
    {HSA_EXTENSION_AMD_PC_SAMPLING, "HSA_EXTENSION_AMD_PC_SAMPLING"},
};

hsa_status_t hsa_extension_get_name(uint16_t extension, const char **name) {
  RETURN_IF_NOT_INITIALIZED();
  if (!name) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (size_t i = 0; i < countof(extension_names); i++)
    if (extension_names[i].id == extension) {
      *name = extension_names[i].name;
      return HSA_STATUS_SUCCESS;
    }
  *name = "HSA_EXTENSION_INVALID"; /* as ROCr */
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_system_extension_supported(uint16_t extension, uint16_t version_major,
                                            uint16_t version_minor, bool *result) {
  RETURN_IF_NOT_INITIALIZED();
  if (!extension_in_range(extension) || !result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = extension_supported(extension, version_major) &&
            version_minor <= HSA_VEN_AMD_LOADER_MINOR;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_major_extension_supported(uint16_t extension, uint16_t version_major,
                                                  uint16_t *version_minor, bool *result) {
  RETURN_IF_NOT_INITIALIZED();
  if (!version_minor || !result) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr's order */
  *result = extension_supported(extension, version_major);
  if (*result) *version_minor = HSA_VEN_AMD_LOADER_MINOR;
  return HSA_STATUS_SUCCESS;
}

/* ROCr (hsa.cpp hsa_system_get_major_extension_table): NULL table or zero
 * length is an invalid argument; an extension or major version it does not
 * offer is HSA_STATUS_ERROR; the table is copied up to table_length bytes. */
hsa_status_t hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
                                                  size_t table_length, void *table) {
  RETURN_IF_NOT_INITIALIZED();
  if (!table || table_length == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!extension_supported(extension, version_major)) return HSA_STATUS_ERROR;
  size_t n = sizeof amd_loader_extension_table;
  memcpy(table, &amd_loader_extension_table, table_length < n ? table_length : n);
  return HSA_STATUS_SUCCESS;
}

/* The deprecated form names a minor version: its table is that version's. */
hsa_status_t hsa_system_get_extension_table(uint16_t extension, uint16_t version_major,
                                            uint16_t version_minor, void *table) {
  static const size_t loader_table_size[] = {
      sizeof(hsa_ven_amd_loader_1_00_pfn_t), sizeof(hsa_ven_amd_loader_1_01_pfn_t),
      sizeof(hsa_ven_amd_loader_1_02_pfn_t), sizeof(hsa_ven_amd_loader_1_03_pfn_t)};
  size_t length = extension == HSA_EXTENSION_AMD_LOADER && version_minor <= HSA_VEN_AMD_LOADER_MINOR
                      ? loader_table_size[version_minor]
                      : 0;
  return hsa_system_get_major_extension_table(extension, version_major, length, table);
}

/* ---- Status strings (texts ours; meanings from PRM 2.1 and ROCr) ----------- */

static const char *status_text(hsa_status_t status) {
  switch ((int)status) {
    case HSA_STATUS_SUCCESS: return "HSA_STATUS_SUCCESS: the function succeeded";
    case HSA_STATUS_INFO_BREAK: return "HSA_STATUS_INFO_BREAK: a callback stopped the iteration";
    case HSA_STATUS_ERROR: return "HSA_STATUS_ERROR: generic error";
    case HSA_STATUS_ERROR_INVALID_ARGUMENT: return "HSA_STATUS_ERROR_INVALID_ARGUMENT: an argument is invalid";
    case HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: return "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: the queue cannot be created as requested";
    case HSA_STATUS_ERROR_INVALID_ALLOCATION: return "HSA_STATUS_ERROR_INVALID_ALLOCATION: invalid allocation or free";
    case HSA_STATUS_ERROR_INVALID_AGENT: return "HSA_STATUS_ERROR_INVALID_AGENT: the agent is invalid";
    case HSA_STATUS_ERROR_INVALID_REGION: return "HSA_STATUS_ERROR_INVALID_REGION: the region is invalid";
    case HSA_STATUS_ERROR_INVALID_SIGNAL: return "HSA_STATUS_ERROR_INVALID_SIGNAL: the signal is invalid";
    case HSA_STATUS_ERROR_INVALID_QUEUE: return "HSA_STATUS_ERROR_INVALID_QUEUE: the queue is invalid";
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES: return "HSA_STATUS_ERROR_OUT_OF_RESOURCES: out of resources";
    case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: return "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: malformed AQL packet";
    case HSA_STATUS_ERROR_RESOURCE_FREE: return "HSA_STATUS_ERROR_RESOURCE_FREE: a resource could not be freed";
    case HSA_STATUS_ERROR_NOT_INITIALIZED: return "HSA_STATUS_ERROR_NOT_INITIALIZED: the runtime is not initialized";
    case HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: return "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: too many hsa_init calls";
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: return "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: arguments do not fit together";
    case HSA_STATUS_ERROR_INVALID_INDEX: return "HSA_STATUS_ERROR_INVALID_INDEX: the index is invalid";
    case HSA_STATUS_ERROR_INVALID_ISA: return "HSA_STATUS_ERROR_INVALID_ISA: the ISA is invalid";
    case HSA_STATUS_ERROR_INVALID_ISA_NAME: return "HSA_STATUS_ERROR_INVALID_ISA_NAME: the ISA name is invalid";
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT: return "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: the code object is invalid";
    case HSA_STATUS_ERROR_INVALID_EXECUTABLE: return "HSA_STATUS_ERROR_INVALID_EXECUTABLE: the executable is invalid";
    case HSA_STATUS_ERROR_FROZEN_EXECUTABLE: return "HSA_STATUS_ERROR_FROZEN_EXECUTABLE: the executable is frozen";
    case HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: return "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: no symbol of that name";
    case HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: return "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: the variable is already defined";
    case HSA_STATUS_ERROR_VARIABLE_UNDEFINED: return "HSA_STATUS_ERROR_VARIABLE_UNDEFINED: the variable is undefined";
    case HSA_STATUS_ERROR_EXCEPTION: return "HSA_STATUS_ERROR_EXCEPTION: an HSAIL exception was raised";
    case HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: return "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: the code symbol is invalid";
    case HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: return "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: the executable symbol is invalid";
    case HSA_STATUS_ERROR_INVALID_FILE: return "HSA_STATUS_ERROR_INVALID_FILE: the file descriptor is invalid";
    case HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: return "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: the code object reader is invalid";
    case HSA_STATUS_ERROR_INVALID_CACHE: return "HSA_STATUS_ERROR_INVALID_CACHE: the cache is invalid";
    case HSA_STATUS_ERROR_INVALID_WAVEFRONT: return "HSA_STATUS_ERROR_INVALID_WAVEFRONT: the wavefront is invalid";
    case HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: return "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: the signal group is invalid";
    case HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: return "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: the runtime is in an invalid state";
    case HSA_STATUS_ERROR_FATAL: return "HSA_STATUS_ERROR_FATAL: fatal error";
    case HSA_STATUS_ERROR_INVALID_MEMORY_POOL: return "HSA_STATUS_ERROR_INVALID_MEMORY_POOL: the memory pool is invalid";
    case HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: return "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: memory access outside an aperture";
    case HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: return "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: illegal instruction";
    case HSA_STATUS_ERROR_MEMORY_FAULT: return "HSA_STATUS_ERROR_MEMORY_FAULT: memory fault";
    case HSA_STATUS_CU_MASK_REDUCED: return "HSA_STATUS_CU_MASK_REDUCED: the CU mask was reduced";
    case HSA_STATUS_ERROR_OUT_OF_REGISTERS: return "HSA_STATUS_ERROR_OUT_OF_REGISTERS: out of registers";
    case HSA_STATUS_ERROR_RESOURCE_BUSY: return "HSA_STATUS_ERROR_RESOURCE_BUSY: the resource is busy";
  }
  return NULL;
}

hsa_status_t hsa_status_string(hsa_status_t status, const char **status_string) {
  RETURN_IF_NOT_INITIALIZED(); /* PRM 2.1.1 */
  if (!status_string) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const char *text = status_text(status);
  if (!text) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *status_string = text;
  return HSA_STATUS_SUCCESS;
}
