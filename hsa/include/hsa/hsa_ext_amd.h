/*
 * hsa_ext_amd.h - the AMD extension of the HSA runtime, interface 1.6,
 * written for hsa-metal with the names, types, layouts and enumerator values
 * of ROCm's ROCR-Runtime src/inc/hsa_ext_amd.h (2024), so that programs
 * written for ROCr (rocminfo-like tools, HIP-style runtimes) compile
 * unchanged.
 *
 * What this runtime is: one address space, one process, ring 0. Every
 * memory pool is reachable from every agent; there is no other process to
 * share memory or signals with. The functions for features that cannot
 * exist here (IPC, dma-buf, interop, virtual memory management, SPM, SVM
 * attributes) are declared and answer HSA_STATUS_ERROR with one log line;
 * hsa_system_get_info reports those features as absent.
 */
#ifndef HSA_RUNTIME_EXT_AMD_H_
#define HSA_RUNTIME_EXT_AMD_H_

#include "hsa.h"
#include "hsa_ext_image.h"

#define HSA_AMD_INTERFACE_VERSION_MAJOR 1
#define HSA_AMD_INTERFACE_VERSION_MINOR 6

#ifdef __cplusplus
extern "C" {
#endif

/* Bit `bit` of a little-endian bit mask such as HSA_SYSTEM_INFO_EXTENSIONS. */
static __inline__ __attribute__((always_inline)) void hsa_flag_set64(uint8_t *value, uint32_t bit) {
  value[bit / 8] |= (uint8_t)(1u << (bit % 8));
}
static __inline__ __attribute__((always_inline)) bool hsa_flag_isset64(uint8_t *value,
                                                                        uint32_t bit) {
  return (value[bit / 8] & (1u << (bit % 8))) != 0;
}

typedef uint32_t hsa_signal_condition32_t;

/* ---- Vendor-specific AQL packets ----------------------------------------- */

typedef enum {
  HSA_AMD_PACKET_TYPE_BARRIER_VALUE = 2,
  HSA_AMD_PACKET_TYPE_AIE_ERT = 3
} hsa_amd_packet_type_t;
typedef uint8_t hsa_amd_packet_type8_t;

/* header.header's type field is HSA_PACKET_TYPE_VENDOR_SPECIFIC. */
typedef struct hsa_amd_packet_header_s {
  uint16_t header;
  hsa_amd_packet_type8_t AmdFormat;
  uint8_t reserved;
} hsa_amd_vendor_packet_header_t;

/* Waits until (load(signal) & mask) satisfies `cond` against `value`. */
typedef struct hsa_amd_barrier_value_packet_s {
  hsa_amd_vendor_packet_header_t header;
  uint32_t reserved0;
  hsa_signal_t signal;
  hsa_signal_value_t value;
  hsa_signal_value_t mask;
  hsa_signal_condition32_t cond;
  uint32_t reserved1;
  uint64_t reserved2;
  uint64_t reserved3;
  hsa_signal_t completion_signal;
} hsa_amd_barrier_value_packet_t;

/* ---- Status codes and agent attributes ------------------------------------ */

enum {
  HSA_STATUS_ERROR_INVALID_MEMORY_POOL = 40,
  HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION = 41,
  HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION = 42,
  HSA_STATUS_ERROR_MEMORY_FAULT = 43,
  HSA_STATUS_CU_MASK_REDUCED = 44,
  HSA_STATUS_ERROR_OUT_OF_REGISTERS = 45,
  HSA_STATUS_ERROR_RESOURCE_BUSY = 46,
};

typedef enum {
  HSA_IOMMU_SUPPORT_NONE = 0,
  HSA_IOMMU_SUPPORT_V2 = 1,
} hsa_amd_iommu_version_t;

typedef enum hsa_amd_agent_info_s {
  HSA_AMD_AGENT_INFO_CHIP_ID = 0xA000,                 /* uint32_t */
  HSA_AMD_AGENT_INFO_CACHELINE_SIZE = 0xA001,          /* uint32_t */
  HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT = 0xA002,      /* uint32_t */
  HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY = 0xA003,     /* uint32_t, MHz */
  HSA_AMD_AGENT_INFO_DRIVER_NODE_ID = 0xA004,          /* uint32_t */
  HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS = 0xA005, /* uint32_t */
  HSA_AMD_AGENT_INFO_BDFID = 0xA006,                   /* uint32_t */
  HSA_AMD_AGENT_INFO_MEMORY_WIDTH = 0xA007,            /* uint32_t */
  HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY = 0xA008,    /* uint32_t */
  HSA_AMD_AGENT_INFO_PRODUCT_NAME = 0xA009,            /* char[64] */
  HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU = 0xA00A,        /* uint32_t */
  HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU = 0xA00B,        /* uint32_t */
  HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES = 0xA00C,      /* uint32_t */
  HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE = 0xA00D, /* uint32_t */
  HSA_AMD_AGENT_INFO_HDP_FLUSH = 0xA00E,               /* hsa_amd_hdp_flush_t */
  HSA_AMD_AGENT_INFO_DOMAIN = 0xA00F,                  /* uint32_t */
  HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES = 0xA010,      /* bool */
  HSA_AMD_AGENT_INFO_UUID = 0xA011,                    /* char[21] */
  HSA_AMD_AGENT_INFO_ASIC_REVISION = 0xA012,           /* uint32_t */
  HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS = 0xA013,  /* bool */
  HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT = 0xA014, /* uint32_t */
  HSA_AMD_AGENT_INFO_MEMORY_AVAIL = 0xA015,            /* uint64_t */
  HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY = 0xA016,     /* uint64_t */
  HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID = 0xA107,          /* uint32_t */
  HSA_AMD_AGENT_INFO_UCODE_VERSION = 0xA108,           /* uint32_t */
  HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION = 0xA109,      /* uint32_t */
  HSA_AMD_AGENT_INFO_NUM_SDMA_ENG = 0xA10A,            /* uint32_t */
  HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG = 0xA10B,       /* uint32_t */
  HSA_AMD_AGENT_INFO_IOMMU_SUPPORT = 0xA110,           /* hsa_amd_iommu_version_t */
  HSA_AMD_AGENT_INFO_NUM_XCC = 0xA111,                 /* uint32_t */
  HSA_AMD_AGENT_INFO_DRIVER_UID = 0xA112,              /* uint32_t */
  HSA_AMD_AGENT_INFO_NEAREST_CPU = 0xA113,             /* hsa_agent_t */
  HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES = 0xA114,       /* uint8_t[8] bit mask */
  HSA_AMD_AGENT_INFO_AQL_EXTENSIONS = 0xA115           /* uint8_t[8] bit mask */
} hsa_amd_agent_info_t;

typedef enum hsa_amd_agent_memory_properties_s {
  HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU = (1 << 0),
} hsa_amd_agent_memory_properties_t;

typedef enum hsa_amd_sdma_engine_id {
  HSA_AMD_SDMA_ENGINE_0 = 0x1,
  HSA_AMD_SDMA_ENGINE_1 = 0x2,
  HSA_AMD_SDMA_ENGINE_2 = 0x4,
  HSA_AMD_SDMA_ENGINE_3 = 0x8,
  HSA_AMD_SDMA_ENGINE_4 = 0x10,
  HSA_AMD_SDMA_ENGINE_5 = 0x20,
  HSA_AMD_SDMA_ENGINE_6 = 0x40,
  HSA_AMD_SDMA_ENGINE_7 = 0x80,
  HSA_AMD_SDMA_ENGINE_8 = 0x100,
  HSA_AMD_SDMA_ENGINE_9 = 0x200,
  HSA_AMD_SDMA_ENGINE_10 = 0x400,
  HSA_AMD_SDMA_ENGINE_11 = 0x800,
  HSA_AMD_SDMA_ENGINE_12 = 0x1000,
  HSA_AMD_SDMA_ENGINE_13 = 0x2000,
  HSA_AMD_SDMA_ENGINE_14 = 0x4000,
  HSA_AMD_SDMA_ENGINE_15 = 0x8000
} hsa_amd_sdma_engine_id_t;

typedef struct hsa_amd_hdp_flush_s {
  uint32_t *HDP_MEM_FLUSH_CNTL;
  uint32_t *HDP_REG_FLUSH_CNTL;
} hsa_amd_hdp_flush_t;

typedef enum hsa_amd_region_info_s {
  HSA_AMD_REGION_INFO_HOST_ACCESSIBLE = 0xA000, /* bool */
  HSA_AMD_REGION_INFO_BASE = 0xA001,            /* void * */
  HSA_AMD_REGION_INFO_BUS_WIDTH = 0xA002,       /* uint32_t */
  HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY = 0xA003, /* uint32_t */
} hsa_amd_region_info_t;

typedef enum hsa_amd_coherency_type_s {
  HSA_AMD_COHERENCY_TYPE_COHERENT = 0,
  HSA_AMD_COHERENCY_TYPE_NONCOHERENT = 1
} hsa_amd_coherency_type_t;

hsa_status_t HSA_API hsa_amd_coherency_get_type(hsa_agent_t agent,
                                                hsa_amd_coherency_type_t *type);
hsa_status_t HSA_API hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type);

/* ---- Profiling (timestamps in HSA_SYSTEM_INFO_TIMESTAMP ticks) ------------ */

typedef struct hsa_amd_profiling_dispatch_time_s {
  uint64_t start;
  uint64_t end;
} hsa_amd_profiling_dispatch_time_t;

typedef struct hsa_amd_profiling_async_copy_time_s {
  uint64_t start;
  uint64_t end;
} hsa_amd_profiling_async_copy_time_t;

hsa_status_t HSA_API hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable);
hsa_status_t HSA_API hsa_amd_profiling_async_copy_enable(bool enable);
hsa_status_t HSA_API hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                         hsa_amd_profiling_dispatch_time_t *time);
hsa_status_t HSA_API hsa_amd_profiling_get_async_copy_time(
    hsa_signal_t signal, hsa_amd_profiling_async_copy_time_t *time);
hsa_status_t HSA_API hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent,
                                                                     uint64_t agent_tick,
                                                                     uint64_t *system_tick);

/* ---- Signals --------------------------------------------------------------- */

typedef enum {
  HSA_AMD_SIGNAL_AMD_GPU_ONLY = 1,
  HSA_AMD_SIGNAL_IPC = 2,
} hsa_amd_signal_attribute_t;

hsa_status_t HSA_API hsa_amd_signal_create(hsa_signal_value_t initial_value,
                                           uint32_t num_consumers, const hsa_agent_t *consumers,
                                           uint64_t attributes, hsa_signal_t *signal);
hsa_status_t hsa_amd_signal_value_pointer(hsa_signal_t signal,
                                          volatile hsa_signal_value_t **value_ptr);

/* Called once the condition holds; returning true keeps the handler. */
typedef bool (*hsa_amd_signal_handler)(hsa_signal_value_t value, void *arg);

hsa_status_t HSA_API hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                                  hsa_signal_value_t value,
                                                  hsa_amd_signal_handler handler, void *arg);
/* Index of a signal whose condition holds, or signal_count on timeout. */
uint32_t HSA_API hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t *signals,
                                         hsa_signal_condition_t *conds, hsa_signal_value_t *values,
                                         uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                         hsa_signal_value_t *satisfying_value);
hsa_status_t HSA_API hsa_amd_async_function(void (*callback)(void *arg), void *arg);

/* ---- Images ------------------------------------------------------------------ */

typedef struct hsa_amd_image_descriptor_s {
  uint32_t version;
  uint32_t deviceID;
  uint32_t data[1];
} hsa_amd_image_descriptor_t;

hsa_status_t HSA_API hsa_amd_image_create(hsa_agent_t agent,
                                          const hsa_ext_image_descriptor_t *image_descriptor,
                                          const hsa_amd_image_descriptor_t *image_layout,
                                          const void *image_data,
                                          hsa_access_permission_t access_permission,
                                          hsa_ext_image_t *image);
hsa_status_t HSA_API hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute,
                                                    void *value);

/* ---- Queues ------------------------------------------------------------------ */

/* For a CPU agent a "CU" is one of its cores (HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT). */
hsa_status_t HSA_API hsa_amd_queue_cu_set_mask(const hsa_queue_t *queue,
                                               uint32_t num_cu_mask_count, const uint32_t *cu_mask);
hsa_status_t HSA_API hsa_amd_queue_cu_get_mask(const hsa_queue_t *queue,
                                               uint32_t num_cu_mask_count, uint32_t *cu_mask);

typedef enum hsa_amd_queue_priority_s {
  HSA_AMD_QUEUE_PRIORITY_LOW = 0,
  HSA_AMD_QUEUE_PRIORITY_NORMAL = 1,
  HSA_AMD_QUEUE_PRIORITY_HIGH = 2,
} hsa_amd_queue_priority_t;

hsa_status_t HSA_API hsa_amd_queue_set_priority(hsa_queue_t *queue,
                                                hsa_amd_queue_priority_t priority);

typedef enum {
  HSA_AMD_QUEUE_INFO_AGENT,       /* hsa_agent_t */
  HSA_AMD_QUEUE_INFO_DOORBELL_ID, /* uint64_t */
} hsa_queue_info_attribute_t;

hsa_status_t hsa_amd_queue_get_info(hsa_queue_t *queue, hsa_queue_info_attribute_t attribute,
                                    void *value);

/* ---- Memory pools --------------------------------------------------------- */

typedef enum {
  HSA_AMD_SEGMENT_GLOBAL = 0,
  HSA_AMD_SEGMENT_READONLY = 1,
  HSA_AMD_SEGMENT_PRIVATE = 2,
  HSA_AMD_SEGMENT_GROUP = 3,
} hsa_amd_segment_t;

typedef struct hsa_amd_memory_pool_s {
  uint64_t handle;
} hsa_amd_memory_pool_t;

typedef enum hsa_amd_memory_pool_global_flag_s {
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT = 1,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED = 2,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED = 4,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED = 8,
} hsa_amd_memory_pool_global_flag_t;

typedef enum hsa_amd_memory_pool_location_s {
  HSA_AMD_MEMORY_POOL_LOCATION_CPU = 0,
  HSA_AMD_MEMORY_POOL_LOCATION_GPU = 1
} hsa_amd_memory_pool_location_t;

typedef enum {
  HSA_AMD_MEMORY_POOL_INFO_SEGMENT = 0,                  /* hsa_amd_segment_t */
  HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS = 1,             /* uint32_t */
  HSA_AMD_MEMORY_POOL_INFO_SIZE = 2,                     /* size_t */
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED = 5,    /* bool */
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE = 6,    /* size_t */
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT = 7,  /* size_t */
  HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL = 15,       /* bool */
  HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE = 16,          /* size_t */
  HSA_AMD_MEMORY_POOL_INFO_LOCATION = 17,                /* hsa_amd_memory_pool_location_t */
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE = 18, /* size_t */
} hsa_amd_memory_pool_info_t;

typedef enum hsa_amd_memory_pool_flag_s {
  HSA_AMD_MEMORY_POOL_STANDARD_FLAG = 0,
  HSA_AMD_MEMORY_POOL_PCIE_FLAG = (1 << 0),
  HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG = (1 << 1),
  HSA_AMD_MEMORY_POOL_EXECUTABLE_FLAG = (1 << 2),
} hsa_amd_memory_pool_flag_t;

hsa_status_t HSA_API hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                                                  hsa_amd_memory_pool_info_t attribute,
                                                  void *value);
hsa_status_t HSA_API hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool, void *data),
    void *data);
hsa_status_t HSA_API hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size,
                                                  uint32_t flags, void **ptr);
hsa_status_t HSA_API hsa_amd_memory_pool_free(void *ptr);

/* Copies after every dependency signal reached 0; completion_signal is
 * decremented by one when the copy is done. */
hsa_status_t HSA_API hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                                               hsa_agent_t src_agent, size_t size,
                                               uint32_t num_dep_signals,
                                               const hsa_signal_t *dep_signals,
                                               hsa_signal_t completion_signal);
hsa_status_t HSA_API hsa_amd_memory_async_copy_on_engine(
    void *dst, hsa_agent_t dst_agent, const void *src, hsa_agent_t src_agent, size_t size,
    uint32_t num_dep_signals, const hsa_signal_t *dep_signals, hsa_signal_t completion_signal,
    hsa_amd_sdma_engine_id_t engine_id, bool force_copy_on_sdma);
hsa_status_t HSA_API hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent,
                                                       hsa_agent_t src_agent,
                                                       uint32_t *engine_ids_mask);

typedef struct hsa_pitched_ptr_s {
  void *base;
  size_t pitch;
  size_t slice;
} hsa_pitched_ptr_t;

typedef enum {
  hsaHostToHost = 0,
  hsaHostToDevice = 1,
  hsaDeviceToHost = 2,
  hsaDeviceToDevice = 3
} hsa_amd_copy_direction_t;

hsa_status_t HSA_API hsa_amd_memory_async_copy_rect(
    const hsa_pitched_ptr_t *dst, const hsa_dim3_t *dst_offset, const hsa_pitched_ptr_t *src,
    const hsa_dim3_t *src_offset, const hsa_dim3_t *range, hsa_agent_t copy_agent,
    hsa_amd_copy_direction_t dir, uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
    hsa_signal_t completion_signal);

typedef enum {
  HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED = 0,
  HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT = 1,
  HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT = 2
} hsa_amd_memory_pool_access_t;

typedef enum {
  HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT = 0,
  HSA_AMD_LINK_INFO_TYPE_QPI = 1,
  HSA_AMD_LINK_INFO_TYPE_PCIE = 2,
  HSA_AMD_LINK_INFO_TYPE_INFINBAND = 3,
  HSA_AMD_LINK_INFO_TYPE_XGMI = 4
} hsa_amd_link_info_type_t;

typedef struct hsa_amd_memory_pool_link_info_s {
  uint32_t min_latency;
  uint32_t max_latency;
  uint32_t min_bandwidth;
  uint32_t max_bandwidth;
  bool atomic_support_32bit;
  bool atomic_support_64bit;
  bool coherent_support;
  hsa_amd_link_info_type_t link_type;
  uint32_t numa_distance;
} hsa_amd_memory_pool_link_info_t;

typedef enum {
  HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS = 0,        /* hsa_amd_memory_pool_access_t */
  HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS = 1, /* uint32_t */
  HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO = 2      /* hsa_amd_memory_pool_link_info_t[hops] */
} hsa_amd_agent_memory_pool_info_t;

hsa_status_t HSA_API hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent,
                                                        hsa_amd_memory_pool_t memory_pool,
                                                        hsa_amd_agent_memory_pool_info_t attribute,
                                                        void *value);
hsa_status_t HSA_API hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t *agents,
                                                 const uint32_t *flags, const void *ptr);
hsa_status_t HSA_API hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool,
                                                     hsa_amd_memory_pool_t dst_memory_pool,
                                                     bool *result);
hsa_status_t HSA_API hsa_amd_memory_migrate(const void *ptr, hsa_amd_memory_pool_t memory_pool,
                                            uint32_t flags);
hsa_status_t HSA_API hsa_amd_memory_lock(void *host_ptr, size_t size, hsa_agent_t *agents,
                                         int num_agent, void **agent_ptr);
hsa_status_t HSA_API hsa_amd_memory_lock_to_pool(void *host_ptr, size_t size,
                                                 hsa_agent_t *agents, int num_agent,
                                                 hsa_amd_memory_pool_t pool, uint32_t flags,
                                                 void **agent_ptr);
hsa_status_t HSA_API hsa_amd_memory_unlock(void *host_ptr);
/* Fills `count` 32-bit words at ptr (4-byte aligned) with value. */
hsa_status_t HSA_API hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count);

hsa_status_t HSA_API hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t *agents,
                                                int interop_handle, uint32_t flags, size_t *size,
                                                void **ptr, size_t *metadata_size,
                                                const void **metadata);
hsa_status_t HSA_API hsa_amd_interop_unmap_buffer(void *ptr);

typedef enum {
  HSA_EXT_POINTER_TYPE_UNKNOWN = 0,
  HSA_EXT_POINTER_TYPE_HSA = 1,
  HSA_EXT_POINTER_TYPE_LOCKED = 2,
  HSA_EXT_POINTER_TYPE_GRAPHICS = 3,
  HSA_EXT_POINTER_TYPE_IPC = 4
} hsa_amd_pointer_type_t;

typedef struct hsa_amd_pointer_info_s {
  uint32_t size; /* set by the caller to sizeof(hsa_amd_pointer_info_t) */
  hsa_amd_pointer_type_t type;
  void *agentBaseAddress;
  void *hostBaseAddress;
  size_t sizeInBytes;
  void *userData;
  hsa_agent_t agentOwner;
  uint32_t global_flags;
} hsa_amd_pointer_info_t;

hsa_status_t HSA_API hsa_amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info,
                                          void *(*alloc)(size_t), uint32_t *num_agents_accessible,
                                          hsa_agent_t **accessible);
hsa_status_t HSA_API hsa_amd_pointer_info_set_userdata(const void *ptr, void *userdata);

/* ---- IPC (no other process exists here: these answer HSA_STATUS_ERROR) ---- */

typedef struct hsa_amd_ipc_memory_s {
  uint32_t handle[8];
} hsa_amd_ipc_memory_t;

hsa_status_t HSA_API hsa_amd_ipc_memory_create(void *ptr, size_t len,
                                               hsa_amd_ipc_memory_t *handle);
hsa_status_t HSA_API hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t *handle, size_t len,
                                               uint32_t num_agents,
                                               const hsa_agent_t *mapping_agents,
                                               void **mapped_ptr);
hsa_status_t HSA_API hsa_amd_ipc_memory_detach(void *mapped_ptr);

typedef hsa_amd_ipc_memory_t hsa_amd_ipc_signal_t;

hsa_status_t HSA_API hsa_amd_ipc_signal_create(hsa_signal_t signal, hsa_amd_ipc_signal_t *handle);
hsa_status_t HSA_API hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t *handle,
                                               hsa_signal_t *signal);

/* ---- System events ------------------------------------------------------------ */

typedef enum hsa_amd_event_type_s {
  HSA_AMD_GPU_MEMORY_FAULT_EVENT = 0,
  HSA_AMD_GPU_HW_EXCEPTION_EVENT,
  HSA_AMD_GPU_MEMORY_ERROR_EVENT,
} hsa_amd_event_type_t;

typedef enum {
  HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT = 1 << 0,
  HSA_AMD_MEMORY_FAULT_READ_ONLY = 1 << 1,
  HSA_AMD_MEMORY_FAULT_NX = 1 << 2,
  HSA_AMD_MEMORY_FAULT_HOST_ONLY = 1 << 3,
  HSA_AMD_MEMORY_FAULT_DRAMECC = 1 << 4,
  HSA_AMD_MEMORY_FAULT_IMPRECISE = 1 << 5,
  HSA_AMD_MEMORY_FAULT_SRAMECC = 1 << 6,
  HSA_AMD_MEMORY_FAULT_HANG = 1U << 31
} hsa_amd_memory_fault_reason_t;

typedef struct hsa_amd_gpu_memory_fault_info_s {
  hsa_agent_t agent;
  uint64_t virtual_address;
  uint32_t fault_reason_mask;
} hsa_amd_gpu_memory_fault_info_t;

typedef enum {
  HSA_AMD_MEMORY_ERROR_MEMORY_IN_USE = (1 << 0),
} hsa_amd_memory_error_reason_t;

typedef struct hsa_amd_gpu_memory_error_info_s {
  hsa_agent_t agent;
  uint64_t virtual_address;
  uint32_t error_reason_mask;
} hsa_amd_gpu_memory_error_info_t;

typedef enum {
  HSA_AMD_HW_EXCEPTION_RESET_TYPE_OTHER = 1 << 0,
} hsa_amd_hw_exception_reset_type_t;

typedef enum {
  HSA_AMD_HW_EXCEPTION_CAUSE_GPU_HANG = 1 << 0,
  HSA_AMD_HW_EXCEPTION_CAUSE_ECC = 1 << 1,
} hsa_amd_hw_exception_reset_cause_t;

typedef struct hsa_amd_gpu_hw_exception_info_s {
  hsa_agent_t agent;
  hsa_amd_hw_exception_reset_type_t reset_type;
  hsa_amd_hw_exception_reset_cause_t reset_cause;
} hsa_amd_gpu_hw_exception_info_t;

typedef struct hsa_amd_event_s {
  hsa_amd_event_type_t event_type;
  union {
    hsa_amd_gpu_memory_fault_info_t memory_fault;
    hsa_amd_gpu_hw_exception_info_t hw_exception;
    hsa_amd_gpu_memory_error_info_t memory_error;
  };
} hsa_amd_event_t;

typedef hsa_status_t (*hsa_amd_system_event_callback_t)(const hsa_amd_event_t *event, void *data);

hsa_status_t HSA_API hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback,
                                                           void *data);

/* ---- Deallocation callbacks --------------------------------------------------- */

typedef void (*hsa_amd_deallocation_callback_t)(void *ptr, void *user_data);

hsa_status_t HSA_API hsa_amd_register_deallocation_callback(
    void *ptr, hsa_amd_deallocation_callback_t callback, void *user_data);
hsa_status_t HSA_API hsa_amd_deregister_deallocation_callback(
    void *ptr, hsa_amd_deallocation_callback_t callback);

/* ---- SVM attributes (not offered: HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED is false) - */

typedef enum hsa_amd_svm_model_s {
  HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED = 0,
  HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED = 1,
  HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE = 2
} hsa_amd_svm_model_t;

typedef enum hsa_amd_svm_attribute_s {
  HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG = 0,
  HSA_AMD_SVM_ATTRIB_READ_ONLY = 1,
  HSA_AMD_SVM_ATTRIB_HIVE_LOCAL = 2,
  HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY = 3,
  HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION = 4,
  HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION = 5,
  HSA_AMD_SVM_ATTRIB_READ_MOSTLY = 6,
  HSA_AMD_SVM_ATTRIB_GPU_EXEC = 7,
  HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE = 0x200,
  HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE = 0x201,
  HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS = 0x202,
  HSA_AMD_SVM_ATTRIB_ACCESS_QUERY = 0x203,
} hsa_amd_svm_attribute_t;

typedef struct hsa_amd_svm_attribute_pair_s {
  uint64_t attribute;
  uint64_t value;
} hsa_amd_svm_attribute_pair_t;

hsa_status_t hsa_amd_svm_attributes_set(void *ptr, size_t size,
                                        hsa_amd_svm_attribute_pair_t *attribute_list,
                                        size_t attribute_count);
hsa_status_t hsa_amd_svm_attributes_get(void *ptr, size_t size,
                                        hsa_amd_svm_attribute_pair_t *attribute_list,
                                        size_t attribute_count);
hsa_status_t hsa_amd_svm_prefetch_async(void *ptr, size_t size, hsa_agent_t agent,
                                        uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
                                        hsa_signal_t completion_signal);

/* ---- SPM, dma-buf, virtual memory (not offered) ------------------------------- */

hsa_status_t hsa_amd_spm_acquire(hsa_agent_t preferred_agent);
hsa_status_t hsa_amd_spm_release(hsa_agent_t preferred_agent);
hsa_status_t hsa_amd_spm_set_dest_buffer(hsa_agent_t preferred_agent, size_t size_in_bytes,
                                         uint32_t *timeout, uint32_t *size_copied, void *dest,
                                         bool *is_data_loss);
hsa_status_t hsa_amd_portable_export_dmabuf(const void *ptr, size_t size, int *dmabuf,
                                            uint64_t *offset);
hsa_status_t hsa_amd_portable_close_dmabuf(int dmabuf);

hsa_status_t hsa_amd_vmem_address_reserve(void **va, size_t size, uint64_t address,
                                          uint64_t flags);
hsa_status_t hsa_amd_vmem_address_reserve_align(void **va, size_t size, uint64_t address,
                                                uint64_t alignment, uint64_t flags);
hsa_status_t hsa_amd_vmem_address_free(void *va, size_t size);

typedef struct hsa_amd_vmem_alloc_handle_s {
  uint64_t handle;
} hsa_amd_vmem_alloc_handle_t;

typedef enum {
  MEMORY_TYPE_NONE,
  MEMORY_TYPE_PINNED,
} hsa_amd_memory_type_t;

hsa_status_t hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size,
                                        hsa_amd_memory_type_t type, uint64_t flags,
                                        hsa_amd_vmem_alloc_handle_t *memory_handle);
hsa_status_t hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t memory_handle);
hsa_status_t hsa_amd_vmem_map(void *va, size_t size, size_t in_offset,
                              hsa_amd_vmem_alloc_handle_t memory_handle, uint64_t flags);
hsa_status_t hsa_amd_vmem_unmap(void *va, size_t size);

typedef struct hsa_amd_memory_access_desc_s {
  hsa_access_permission_t permissions;
  hsa_agent_t agent_handle;
} hsa_amd_memory_access_desc_t;

hsa_status_t hsa_amd_vmem_set_access(void *va, size_t size,
                                     const hsa_amd_memory_access_desc_t *desc, size_t desc_cnt);
hsa_status_t hsa_amd_vmem_get_access(void *va, hsa_access_permission_t *perms,
                                     hsa_agent_t agent_handle);
hsa_status_t hsa_amd_vmem_export_shareable_handle(int *dmabuf_fd,
                                                  hsa_amd_vmem_alloc_handle_t handle,
                                                  uint64_t flags);
hsa_status_t hsa_amd_vmem_import_shareable_handle(int dmabuf_fd,
                                                  hsa_amd_vmem_alloc_handle_t *handle);
hsa_status_t hsa_amd_vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t *memory_handle,
                                              void *addr);
hsa_status_t hsa_amd_vmem_get_alloc_properties_from_handle(
    hsa_amd_vmem_alloc_handle_t memory_handle, hsa_amd_memory_pool_t *pool,
    hsa_amd_memory_type_t *type);

hsa_status_t HSA_API hsa_amd_agent_set_async_scratch_limit(hsa_agent_t agent, size_t threshold);

typedef enum hsa_amd_log_flag_s {
  HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS = 0,
} hsa_amd_log_flag_t;

hsa_status_t hsa_amd_enable_logging(uint8_t *flags, void *file);

#ifdef __cplusplus
}
#endif

#if defined(HSA_LARGE_MODEL) && !defined(__cplusplus)
_Static_assert(sizeof(hsa_amd_barrier_value_packet_t) == 64, "AQL packets are 64 bytes");
_Static_assert(offsetof(hsa_amd_barrier_value_packet_t, signal) == 8, "barrier-value signal");
_Static_assert(offsetof(hsa_amd_barrier_value_packet_t, value) == 16, "barrier-value value");
_Static_assert(offsetof(hsa_amd_barrier_value_packet_t, mask) == 24, "barrier-value mask");
_Static_assert(offsetof(hsa_amd_barrier_value_packet_t, cond) == 32, "barrier-value cond");
_Static_assert(offsetof(hsa_amd_barrier_value_packet_t, completion_signal) == 56,
               "barrier-value completion");
#endif

#endif /* HSA_RUNTIME_EXT_AMD_H_ */
