/*
 * gpu_agent.c - the GPU agent: one per device the driver brought up
 * (drivers/amdgpu/amdgpu.h), with the attributes ROCr reports for an APU
 * (HSA Runtime PRM 1.2, 2.2; ROCr hsa_ext_amd.h; ROCR-Runtime
 * amd_gpu_agent.cpp for the AMD attributes' meaning).
 *
 * The GPU shares the single address space: every CPU pointer is a GPU
 * address, so the profile is FULL and the agent lists the system pools as
 * well as its own: local (the carve-out) and group (the LDS). The system
 * pools stay on the GPU agent on purpose: an image with one core has no
 * CPU agent to find them on. Queues are AQL rings loaded into
 * hardware queue slots by the driver (gpu_agent_queue.c).
 */
#define LOG_TAG "gpu-agent"
#include "hsa/gpu_agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/isa.h"
#include "hsa/memory.h"
#include "hsa/runtime.h"
#include "hsa/signal.h"
#include "lib/plat.h"

PLAT_OPTION(gpu_scratch, "gpu_scratch",
            "scratch bytes per work-item a GPU queue starts with (default 0: none until a "
            "dispatch asks, as ROCr does; up to 65536)");
PLAT_OPTION(gpu_dispatch_timeout, "gpu_dispatch_timeout_ms",
            "time limit of a GPU queue's oldest packet, ms (default 0: none; hsa_queue_time_limit.h)");
PLAT_OPTION(gpu_gtt_mb, "gpu_gtt_mb",
            "GTT size in MiB, as Linux's amdgpu.gttsize (default half the RAM): the GPU's local pool is "
            "system memory of this size when the carve-out is smaller, else the carve-out");

/* ROCr gives a queue scratch when a dispatch first needs it (the CP's
 * scratch request, gpu_agent_queue.c): a queue costs no scratch memory
 * until then, so the 32 hardware queues fit in any board's RAM. */
#define DEFAULT_SCRATCH_LANE_BYTES 0u
#define MAX_SCRATCH_LANE_BYTES 65536u
#define GPU_QUEUE_MIN_PACKETS 64
#define GPU_QUEUE_MAX_PACKETS (1u << 16) /* the driver's 4 MiB ring limit */
#define GPU_CACHELINE_BYTES 64  /* gfx9 L2 line (ROCr/KFD report 64 for gfx9 APUs) */
#define GPU_L1_BYTES (16 * 1024) /* vector L1 per CU (AMD Vega ISA guide, 1.2) */
#define AMDGPU_FAMILY_RV 142    /* Raven/Picasso/Renoir (Linux include/uapi/drm/amdgpu_drm.h) */

/* The CP wrote a signal's event id into its mailbox and raised its
 * end-of-pipe interrupt, whose context id is that event: wake whoever
 * sleeps on that signal (signal_event.c). Interrupt context: atomics and
 * a wake-up only. */
static void on_end_of_pipe(void *ctx, uint32_t me, uint32_t pipe, uint32_t queue, uint32_t context_id) {
  (void)ctx, (void)me, (void)pipe, (void)queue;
  signal_event_interrupt(context_id);
}

static hsa_status_t gpu_get_info(const struct agent *agent, int attribute, void *value) {
  const struct gpu_agent *ga = agent->impl;
  const struct amdgpu_device_info *in = &ga->info;
  switch (attribute) {
    case HSA_AMD_AGENT_INFO_CHIP_ID: *(uint32_t *)value = in->pci_device_id; return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_ASIC_REVISION: *(uint32_t *)value = in->pci_revision; return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID: *(uint32_t *)value = AMDGPU_FAMILY_RV; return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU: *(uint32_t *)value = in->simd_per_cu; return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
      *(uint32_t *)value = in->simd_per_cu * in->waves_per_simd;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES: *(uint32_t *)value = in->shader_engines; return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE: *(uint32_t *)value = in->sh_per_se; return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
      *(uint32_t *)value = in->max_memory_clock_mhz;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
      *(uint32_t *)value = in->compute_units;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_NUM_XCC: *(uint32_t *)value = 1; return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
    case HSA_AMD_AGENT_INFO_BDFID:
    case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
    case HSA_AMD_AGENT_INFO_DOMAIN:
    case HSA_AMD_AGENT_INFO_UCODE_VERSION:
    case HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION:
    case HSA_AMD_AGENT_INFO_NUM_SDMA_ENG:
    case HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG:
    case HSA_AMD_AGENT_INFO_DRIVER_UID: *(uint32_t *)value = 0; return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES: *(bool *)value = false; return HSA_STATUS_SUCCESS;
    /* An APU reaches host memory directly (it is the same memory). */
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS: *(bool *)value = true; return HSA_STATUS_SUCCESS;
    /* ROCr's UUID for a GPU without a unique id. */
    case HSA_AMD_AGENT_INFO_UUID: memcpy(value, "GPU-XX", 7); return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_IOMMU_SUPPORT:
      *(hsa_amd_iommu_version_t *)value = HSA_IOMMU_SUPPORT_NONE;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_HDP_FLUSH:
      *(hsa_amd_hdp_flush_t *)value = ga->hdp_flush;
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES: {
      uint8_t *bits = value;
      memset(bits, 0, 8);
      bits[0] = HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU;
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_AGENT_INFO_AQL_EXTENSIONS: memset(value, 0, 8); return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

/* The driver wants a scheduling pass over its queues at `when_ns` (queues
 * wait for hardware slots): the async worker runs gpu_agents_tick then.
 * Called with the driver's queue lock held, maybe in interrupt context. */
static void on_schedule_wanted(void *ctx, uint64_t when_ns) {
  (void)ctx;
  async_tick_at(when_ns);
}

static void gpu_shut_down(struct agent *agent) {
  struct gpu_agent *ga = gpu_agent_of(agent);
  amdgpu_set_schedule_handler(ga->dev, NULL, NULL);
  amdgpu_set_eop_handler(ga->dev, NULL, NULL);
  amdgpu_set_fault_handler(ga->dev, NULL, NULL);
  free(ga);
}

/* The local pool, ROCr's coarse-grained pool of the GPU agent, is what
 * Linux gives KFD as the GPU's local memory. An APU whose carve-out is
 * smaller than its GTT (the system memory the GPU may map: by default
 * TTM's limit, half the RAM) "prefers GTT" (amdgpu_ttm.c, amdgpu_ttm_init:
 * apu_prefer_gtt): KFD places its VRAM allocations in system memory
 * (amdgpu_amdkfd_gpuvm.c) and reports the GTT size as local memory
 * (amdgpu_amdkfd_get_local_mem_info), so that ROCr's programs (HIP's
 * hipMalloc, LLVM's offload plugin with its 512 MiB device heap) are not
 * held to a BIOS carve-out of 64-512 MiB. Here too: such a pool is system
 * memory (memory.c's own allocator), which the GPU reaches at the same
 * address. Otherwise the pool is the frame buffer carve-out, which the
 * compute VMIDs map at its physical address, where the CPU reaches it. */
static void *local_alloc(struct memory_pool *p, size_t size) {
  return amdgpu_local_alloc(p->impl, size, MEMORY_GRANULE);
}
static int local_release(struct memory_pool *p, void *ptr) { return amdgpu_local_free(p->impl, ptr); }
static size_t local_free_bytes(struct memory_pool *p) { return amdgpu_local_free_bytes(p->impl); }

/* The GTT's size: gpu_gtt_mb as Linux's amdgpu.gttsize (MiB), else TTM's
 * default limit, half the RAM (amdgpu_ttm.c amdgpu_ttm_init), in whole
 * granules. */
static size_t gtt_bytes(void) {
  size_t ram = memory_pool(MEMORY_POOL_SYSTEM)->size;
  uint64_t mb = plat_option_uint("gpu_gtt_mb", 0, ram >> 20, 0);
  size_t bytes = mb ? (size_t)(mb << 20) : ram / 2;
  return bytes & ~(size_t)(MEMORY_GRANULE - 1);
}

static struct memory_pool local_pool_desc(struct amdgpu_device *dev, uint64_t carveout_bytes,
                                          struct agent *owner) {
  size_t gtt = gtt_bytes();
  struct memory_pool p = {.name = "gpu-local", .segment = HSA_AMD_SEGMENT_GLOBAL,
                          .global_flags = HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED,
                          .owner = owner};
  if (carveout_bytes < gtt) {
    p.size = gtt;
  } else {
    p.size = carveout_bytes;
    p.alloc = local_alloc;
    p.release = local_release;
    p.free_bytes = local_free_bytes;
    p.impl = dev;
  }
  return p;
}

static const struct agent_ops gpu_agent_ops = {
    .queue_attach = gpu_queue_attach,
    .queue_detach = gpu_queue_detach,
    .queue_update = gpu_queue_update,
    .get_info = gpu_get_info,
    .shut_down = gpu_shut_down,
};

static hsa_status_t gpu_agent_create(struct amdgpu_device *dev) {
  struct gpu_agent *ga = calloc(1, sizeof *ga);
  if (!ga) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  ga->dev = dev;
  if (amdgpu_device_query(dev, &ga->info)) {
    free(ga);
    return HSA_STATUS_ERROR;
  }
  /* ROCr hands programs two registers a store to which flushes the HDP
   * (KFD's MMIO remap page); tinygrad and others store to them after CPU
   * writes without looking. Here they are the registers themselves, at
   * their CPU address in BAR5. The virtual APU's are words of the model's
   * register file: its memory is coherent (the HDP has nothing to flush),
   * so a store there only sets a register no one acts on. */
  if (amdgpu_hdp_flush_registers(dev, &ga->hdp_flush.HDP_MEM_FLUSH_CNTL,
                                 &ga->hdp_flush.HDP_REG_FLUSH_CNTL)) {
    free(ga);
    return HSA_STATUS_ERROR;
  }
  const struct amdgpu_device_info *in = &ga->info;
  struct agent *a = &ga->agent;
  a->ops = &gpu_agent_ops;
  a->impl = ga;
  a->device_type = HSA_DEVICE_TYPE_GPU;
  a->features = HSA_AGENT_FEATURE_KERNEL_DISPATCH;
  a->profile = HSA_PROFILE_FULL; /* ROCr: an APU's profile is FULL */
  a->isa = isa_find(in->gfx_target);
  if (!a->isa) {
    log_error("GPU %s: target %s is not an ISA this runtime knows", in->chip_name, in->gfx_target);
    free(ga);
    return HSA_STATUS_ERROR_INVALID_ISA;
  }
  snprintf(a->name, sizeof a->name, "%s", in->gfx_target); /* ROCr names GPU agents by target */
  snprintf(a->vendor_name, sizeof a->vendor_name, "AMD");
  snprintf(a->product_name, sizeof a->product_name, "AMD %s%s", in->chip_name,
           in->virtual_apu ? " (virtual APU)" : "");
  a->compute_units = in->compute_units;
  a->max_clock_mhz = in->max_engine_clock_mhz;
  a->cacheline_size = GPU_CACHELINE_BYTES;
  a->wavefront_size = in->wave_size;
  a->workgroup_max_dim[0] = a->workgroup_max_dim[1] = a->workgroup_max_dim[2] = 1024;
  a->workgroup_max_size = 1024; /* 16 waves of 64 (AMDGPUUsage: max flat work-group size) */
  a->grid_max_dim = (hsa_dim3_t){UINT32_MAX, UINT32_MAX, UINT32_MAX};
  a->grid_max_size = UINT32_MAX;
  a->queues_max = in->queues_max;
  a->queue_min_size = GPU_QUEUE_MIN_PACKETS;
  a->queue_max_size = GPU_QUEUE_MAX_PACKETS;
  a->caches[0] = (struct cache_info){"L1", 1, GPU_L1_BYTES};
  a->cache_count = 1;
  const struct memory_pool local = local_pool_desc(dev, in->local_memory_size, a);
  struct memory_pool *local_pool = local.size ? memory_pool_add_local(&local) : NULL;
  if (local_pool) a->pools[a->pool_count++] = local_pool; /* first: ROCr lists local memory first */
  /* The LDS, as ROCr's GPU agent lists it after local memory: a GROUP pool
   * the size of one work-group's LDS, never allocated from (LLVM's offload
   * plugin reads its shared-memory limit here). */
  const struct memory_pool lds = {.name = "gpu-lds", .segment = HSA_AMD_SEGMENT_GROUP,
                                  .size = in->lds_bytes_per_workgroup, .owner = a};
  struct memory_pool *lds_pool = memory_pool_add_local(&lds);
  if (!lds_pool) {
    log_error("GPU %s: no room for its LDS pool", in->chip_name);
    free(ga);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  a->pools[a->pool_count++] = lds_pool;
  a->pools[a->pool_count++] = memory_pool(MEMORY_POOL_SYSTEM);
  a->pools[a->pool_count++] = memory_pool(MEMORY_POOL_SYSTEM_COARSE);
  ga->scratch_lane_bytes = (uint32_t)plat_option_uint("gpu_scratch", 0, MAX_SCRATCH_LANE_BYTES, DEFAULT_SCRATCH_LANE_BYTES);
  ga->time_limit_ns = plat_option_uint("gpu_dispatch_timeout_ms", 0, 24ull * 3600 * 1000, 0) * 1000000ull;
  hsa_status_t st = agent_register(a);
  if (st != HSA_STATUS_SUCCESS) {
    free(ga);
    return st;
  }
  amdgpu_set_eop_handler(dev, on_end_of_pipe, ga);
  amdgpu_set_schedule_handler(dev, on_schedule_wanted, ga);
  amdgpu_set_fault_handler(dev, gpu_agent_on_fault, ga);
  log_info("GPU agent %u: %s, %s, %u CUs, %u MHz", a->node, a->product_name, a->isa->name,
           a->compute_units, a->max_clock_mhz);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t gpu_driver_start(void) {
  int n = amdgpu_init();
  if (n < 0) {
    /* The CPU agents still work; the log says why there is no GPU. */
    log_error("GPU driver bring-up failed (%d): no GPU agent", n);
    return HSA_STATUS_SUCCESS;
  }
  rt.gpu_driver_up = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t gpu_agents_create(void) {
  if (!rt.gpu_driver_up) return HSA_STATUS_SUCCESS;
  for (int i = 0; i < amdgpu_device_count(); i++) {
    hsa_status_t st = gpu_agent_create(amdgpu_device_get(i));
    if (st != HSA_STATUS_SUCCESS) return st; /* hsa_init unwinds: agents shut down, driver stops */
  }
  return HSA_STATUS_SUCCESS;
}

void gpu_driver_stop(void) {
  if (rt.gpu_driver_up) amdgpu_fini();
  rt.gpu_driver_up = false;
  atomic_store(&rt.gpu_watchdog_ns, 0);
}
