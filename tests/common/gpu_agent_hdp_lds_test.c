/* Two things programs written for ROCr take from the GPU agent without
 * asking twice: the HDP flush registers (tinygrad stores 1 to
 * HDP_MEM_FLUSH_CNTL after its CPU writes, whatever the agent is) and the
 * LDS pool (segment GROUP; LLVM's offload plugin reads its size as the
 * shared-memory limit). Values as ROCr's amd_gpu_agent.cpp and
 * amd_memory_region.cpp give them. Kernel: tests/data/gpu/faults.cl
 * store_kernel on good memory. */
#include <stdio.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_kernarg_hidden.h>

#include "lib/test.h"
#include "support/gpu_kernel.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"

#define LDS_BYTES_GFX9 65536u /* a gfx9 work-group's LDS (LLVM AMDGPUUsage: 64 KiB; ROCr reports KFD's LDS size) */
#define ITEMS 256

/* Runs store_kernel over ITEMS work-items: out[i] = i. */
static void dispatch_store_kernel(hsa_agent_t gpu) {
  char target[64], path[256], why[256];
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, target));
  snprintf(path, sizeof path, "%s/gpu-tests/%s/faults.co", GPU_TEST_KERNELS_DIR, target);
  struct gpu_kernel k;
  if (gpu_kernel_load(gpu, path, "store_kernel.kd", NULL, NULL, &k, why, sizeof why))
    FAIL("%s", why);
  hsa_amd_memory_pool_t pool = hsa_test_kernarg_pool(gpu);
  int *out;
  void *kernarg;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, ITEMS * sizeof *out, 0, (void **)&out));
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, k.kernarg_size, 0, &kernarg));
  memset(out, 0xff, ITEMS * sizeof *out);
  memset(kernarg, 0, k.kernarg_size);
  memcpy(kernarg, &out, sizeof out);
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t p;
  gpu_kernel_packet(&k, 1, (uint32_t[3]){ITEMS, 1, 1}, (uint32_t[3]){64, 1, 1}, 0, kernarg, done, &p);
  HSA_ASSERT_OK(hsa_kernarg_fill_hidden(&p, q, kernarg, k.kernarg_size));
  hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  for (int i = 0; i < ITEMS; i++) ASSERT_EQ(out[i], i);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(kernarg));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(out));
  gpu_kernel_release(&k);
}

TEST(gpu_agent_hdp_flush_registers_take_a_store) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  hsa_amd_hdp_flush_t hdp = {0};
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &hdp));
  ASSERT_NOT_NULL(hdp.HDP_MEM_FLUSH_CNTL);
  ASSERT_NOT_NULL(hdp.HDP_REG_FLUSH_CNTL);
  ASSERT_EQ((uintptr_t)hdp.HDP_MEM_FLUSH_CNTL % 4, 0);
  ASSERT_EQ((uintptr_t)hdp.HDP_REG_FLUSH_CNTL % 4, 0);
  ASSERT_TRUE(hdp.HDP_MEM_FLUSH_CNTL != hdp.HDP_REG_FLUSH_CNTL);
  /* As tinygrad does after writing buffers with the CPU: the stores are
   * taken, and the GPU still runs kernels afterwards. */
  *(volatile uint32_t *)hdp.HDP_MEM_FLUSH_CNTL = 1;
  *(volatile uint32_t *)hdp.HDP_REG_FLUSH_CNTL = 1;
  dispatch_store_kernel(gpu);
  *(volatile uint32_t *)hdp.HDP_MEM_FLUSH_CNTL = 1;
  dispatch_store_kernel(gpu);
  /* The same registers every time the agent is asked. */
  hsa_amd_hdp_flush_t again = {0};
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &again));
  ASSERT_TRUE(again.HDP_MEM_FLUSH_CNTL == hdp.HDP_MEM_FLUSH_CNTL);
  ASSERT_TRUE(again.HDP_REG_FLUSH_CNTL == hdp.HDP_REG_FLUSH_CNTL);
  HSA_ASSERT_OK(hsa_shut_down());
}

struct found_pools {
  int count, group_count, group_index;
  hsa_amd_memory_pool_t group;
};

static hsa_status_t note_pool(hsa_amd_memory_pool_t pool, void *data) {
  struct found_pools *f = data;
  hsa_amd_segment_t segment;
  if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment)) return HSA_STATUS_ERROR;
  if (segment == HSA_AMD_SEGMENT_GROUP) {
    f->group = pool;
    f->group_index = f->count;
    f->group_count++;
  }
  f->count++;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t note_region(hsa_region_t region, void *data) {
  int *groups = data;
  hsa_region_segment_t segment;
  if (hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &segment)) return HSA_STATUS_ERROR;
  if (segment == HSA_REGION_SEGMENT_GROUP) {
    size_t size = 0;
    bool alloc = true;
    if (hsa_region_get_info(region, HSA_REGION_INFO_SIZE, &size) ||
        hsa_region_get_info(region, HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED, &alloc))
      return HSA_STATUS_ERROR;
    if (size == LDS_BYTES_GFX9 && !alloc) ++*groups;
  }
  return HSA_STATUS_SUCCESS;
}

TEST(gpu_agent_lists_its_lds_as_a_group_pool) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  struct found_pools f = {0};
  HSA_ASSERT_OK(hsa_amd_agent_iterate_memory_pools(gpu, note_pool, &f));
  ASSERT_EQ(f.group_count, 1);
  ASSERT_EQ(f.group_index, 1); /* after the local pool, as ROCr */
  ASSERT_EQ(f.count, 4);       /* local, LDS, system, system-coarse */
  hsa_amd_memory_pool_t lds = f.group;
  uint32_t flags = 1;
  size_t size = 0, granule = 1, alignment = 1, rec_granule = 1, max = 1;
  bool alloc = true, all = true;
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, &alignment));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE, &rec_granule));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all));
  ASSERT_EQ(flags, 0);
  ASSERT_EQ_U(size, LDS_BYTES_GFX9);
  ASSERT_FALSE(alloc);
  ASSERT_EQ_U(granule, 0); /* ROCr: 0 for a heap it does not allocate from */
  ASSERT_EQ_U(alignment, 0);
  ASSERT_EQ_U(rec_granule, 0);
  ASSERT_EQ_U(max, 0);
  ASSERT_FALSE(all);
  hsa_amd_memory_pool_location_t where;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(lds, HSA_AMD_MEMORY_POOL_INFO_LOCATION, &where),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* ROCr: neither local nor system */
  /* Its own GPU reaches it; no other agent does. */
  hsa_amd_memory_pool_access_t access;
  HSA_ASSERT_OK(hsa_amd_agent_memory_pool_get_info(gpu, lds, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  ASSERT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
  hsa_agent_t cpu;
  if (hsa_test_cpu_agents(&cpu, 1) == 1) {
    HSA_ASSERT_OK(hsa_amd_agent_memory_pool_get_info(cpu, lds, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
    ASSERT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
  }
  /* ROCr's MemoryRegion::AllocateImpl: neither system nor local memory is
   * HSA_STATUS_ERROR_INVALID_ALLOCATION, through either API. */
  void *p = NULL;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(lds, 64, 0, &p), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ASSERT_EQ(hsa_memory_allocate((hsa_region_t){lds.handle}, 64, &p), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ASSERT_NULL(p);
  /* The regions list it too (ROCr's GpuAgent::VisitRegion: system, local, LDS). */
  int groups = 0;
  HSA_ASSERT_OK(hsa_agent_iterate_regions(gpu, note_region, &groups));
  ASSERT_EQ(groups, 1);
  /* What programs pick for kernel arguments is still system memory. */
  hsa_amd_memory_pool_t kernarg = hsa_test_kernarg_pool(gpu);
  ASSERT_TRUE(kernarg.handle != lds.handle);
  HSA_ASSERT_OK(hsa_shut_down());
}
