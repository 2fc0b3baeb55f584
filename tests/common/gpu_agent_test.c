/* The GPU agent through the HSA API: its attributes, queues the driver
 * loads into hardware slots, packets the command processor runs, and
 * queue errors arriving at the queue's error callback. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "drivers/amdgpu/amdgpu.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"
#include "lib/util.h"

TEST(gpu_agent_reports_an_apu_gpu) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  char name[64];
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name));
  ASSERT_TRUE(strcmp(name, "gfx902") == 0 || strcmp(name, "gfx90c") == 0);
  hsa_device_type_t type;
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_DEVICE, &type));
  ASSERT_EQ(type, HSA_DEVICE_TYPE_GPU);
  hsa_profile_t profile;
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_PROFILE, &profile));
  ASSERT_EQ(profile, HSA_PROFILE_FULL);
  uint32_t features, wave, cus, queues_max, qmin, qmax, wg_max;
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_FEATURE, &features));
  ASSERT_EQ(features, HSA_AGENT_FEATURE_KERNEL_DISPATCH);
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_WAVEFRONT_SIZE, &wave));
  ASSERT_EQ(wave, 64);
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cus));
  ASSERT_GE(cus, 3);
  ASSERT_LE(cus, 11);
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUES_MAX, &queues_max));
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &qmin));
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmax));
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &wg_max));
  ASSERT_GT(queues_max, 1);
  ASSERT_LE(qmin, qmax);
  ASSERT_EQ(wg_max, 1024);
  /* Its ISA is the one clang's gfx902/gfx90c code objects name. */
  hsa_isa_t isa;
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &isa));
  char isa_name[64] = {0};
  HSA_ASSERT_OK(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, isa_name));
  ASSERT_TRUE(strstr(isa_name, name) != NULL);
  uint8_t props[8];
  HSA_ASSERT_OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES, props));
  ASSERT_TRUE(props[0] & HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU);
  /* It can allocate kernel arguments from a pool it lists. */
  hsa_amd_memory_pool_t kernarg = hsa_test_kernarg_pool(gpu);
  ASSERT_NE(kernarg.handle, 0);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(gpu_agent_queue_runs_barrier_packets) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  hsa_signal_t dep, done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &dep));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  /* More packets than the ring holds: slots come back as they complete. */
  for (int i = 0; i < 100; i++) {
    hsa_barrier_and_packet_t p;
    memset(&p, 0, sizeof p);
    hsa_signal_store_relaxed(done, 1);
    p.completion_signal = done;
    hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
    ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  }
  ASSERT_EQ(hsa_queue_load_read_index_scacquire(q), 100);
  /* A dependency holds the queue until the CPU sets it. */
  hsa_barrier_and_packet_t p;
  memset(&p, 0, sizeof p);
  p.dep_signal[0] = dep;
  hsa_signal_store_relaxed(done, 1);
  p.completion_signal = done;
  hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20000000, HSA_WAIT_STATE_BLOCKED), 1);
  hsa_signal_store_screlease(dep, 0);
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  HSA_ASSERT_OK(hsa_signal_destroy(dep));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(gpu_agent_profiling_fills_dispatch_times) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  HSA_ASSERT_OK(hsa_amd_profiling_set_profiler_enabled(q, 1));
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  uint64_t before;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &before));
  hsa_barrier_and_packet_t p;
  memset(&p, 0, sizeof p);
  p.completion_signal = done;
  hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  uint64_t after;
  HSA_ASSERT_OK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &after));
  hsa_amd_profiling_dispatch_time_t t;
  HSA_ASSERT_OK(hsa_amd_profiling_get_dispatch_time(gpu, done, &t));
  ASSERT_GE(t.start, before);
  ASSERT_LE(t.start, t.end);
  ASSERT_LE(t.end, after);
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_shut_down());
}

/* A packet the firmware refuses reaches the callback with its status; a
 * second queue keeps running. */
TEST(gpu_agent_refused_packet_calls_the_error_callback) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  static const struct {
    uint16_t header_type;
    uint16_t setup;
    uint64_t kernel_object;
    hsa_status_t want;
  } cases[] = {
      {7, 1, 0x1000, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT},
      {HSA_PACKET_TYPE_KERNEL_DISPATCH, 0, 0x1000, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS},
      {HSA_PACKET_TYPE_KERNEL_DISPATCH, 1, 0, HSA_STATUS_ERROR_INVALID_CODE_OBJECT},
  };
  hsa_queue_t *good;
  HSA_ASSERT_OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &good));
  hsa_signal_t ok;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &ok));
  for (size_t i = 0; i < countof(cases); i++) {
    struct hsa_test_queue_error err = {0};
    hsa_queue_t *bad;
    HSA_ASSERT_OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, hsa_test_queue_error_callback, &err,
                                   UINT32_MAX, UINT32_MAX, &bad));
    hsa_kernel_dispatch_packet_t p;
    memset(&p, 0, sizeof p);
    p.setup = cases[i].setup;
    p.workgroup_size_x = p.workgroup_size_y = p.workgroup_size_z = 1;
    p.grid_size_x = p.grid_size_y = p.grid_size_z = 1;
    p.kernel_object = cases[i].kernel_object;
    hsa_test_submit(bad, &p, hsa_test_header((hsa_packet_type_t)cases[i].header_type, false));
    uint64_t until = plat_now_ns() + 5000000000ull;
    while (atomic_load(&err.calls) == 0) {
      ASSERT_LT(plat_now_ns(), until);
      plat_sleep_ns(100000);
    }
    ASSERT_EQ(atomic_load(&err.calls), 1);
    ASSERT_EQ(atomic_load(&err.status), cases[i].want);
    ASSERT_EQ(hsa_queue_load_read_index_scacquire(bad), 0);
    hsa_barrier_and_packet_t b;
    memset(&b, 0, sizeof b);
    hsa_signal_store_relaxed(ok, 1);
    b.completion_signal = ok;
    hsa_test_submit(good, &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
    ASSERT_EQ(hsa_test_wait_eq(ok, 0), 0);
    HSA_ASSERT_OK(hsa_queue_destroy(bad));
    ASSERT_EQ(atomic_load(&err.calls), 1);
  }
  HSA_ASSERT_OK(hsa_signal_destroy(ok));
  HSA_ASSERT_OK(hsa_queue_destroy(good));
  HSA_ASSERT_OK(hsa_shut_down());
}

static hsa_status_t kernarg_pool(hsa_amd_memory_pool_t pool, void *data) {
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (!(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)) return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = pool;
  return HSA_STATUS_INFO_BREAK;
}

/* The GTT's size by Linux's rule: amdgpu.gttsize (gpu_gtt_mb) or half
 * the RAM (the system pool's size), in whole 4 KiB granules. */
static size_t expected_gtt_bytes(size_t system_size) {
  const char *mb = plat_option("gpu_gtt_mb");
  size_t bytes = mb && *mb && strtoull(mb, NULL, 0) ? (size_t)strtoull(mb, NULL, 0) << 20 : system_size / 2;
  return bytes & ~(size_t)4095;
}

/* The GPU's local pool is what Linux makes an APU's local memory: when the
 * carve-out is smaller than the GTT (half the RAM by default), system
 * memory of the GTT's size (apu_prefer_gtt), else the carve-out. It is
 * coarse-grained, listed first, owned by the GPU agent, and what it hands
 * out the GPU reaches at the same address (the CP reads a barrier's
 * dependency in system memory), beyond the carve-out's size too. MEMORY_AVAIL is
 * what it can still give: all of it (system memory) or the carve-out less
 * the firmware's part. */
TEST(gpu_agent_local_pool_is_the_local_memory_linux_gives_an_apu) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  hsa_amd_memory_pool_t local = gpu_test_local_pool(gpu), system = {0};
  ASSERT_EQ(hsa_amd_agent_iterate_memory_pools(gpu, kernarg_pool, &system), HSA_STATUS_INFO_BREAK);
  uint32_t flags = 0;
  size_t size = 0, system_size = 0;
  bool alloc_allowed = false;
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(local, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(local, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(system, HSA_AMD_MEMORY_POOL_INFO_SIZE, &system_size));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(local, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_allowed));
  ASSERT_EQ(flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
  ASSERT_TRUE(alloc_allowed);
  struct amdgpu_device_info dev;
  ASSERT_EQ(amdgpu_device_query(amdgpu_device_get(0), &dev), 0);
  size_t gtt = expected_gtt_bytes(system_size);
  bool prefer_gtt = dev.local_memory_size < gtt;
  ASSERT_EQ_U(size, prefer_gtt ? gtt : dev.local_memory_size);
  uint64_t avail = gpu_test_memory_avail(gpu);
  if (prefer_gtt)
    ASSERT_EQ_U(avail, size);
  else
    ASSERT_EQ_U(avail, amdgpu_local_free_bytes(amdgpu_device_get(0)));

  /* Twice the carve-out: only system memory holds that much. */
  if (prefer_gtt && 2 * dev.local_memory_size < size) {
    void *large;
    HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(local, 2 * dev.local_memory_size, 0, &large));
    HSA_ASSERT_OK(hsa_amd_memory_pool_free(large));
  }

  amd_signal_t *dep;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(local, 1u << 20, 0, (void **)&dep));
  hsa_amd_pointer_info_t info = {.size = sizeof info};
  HSA_ASSERT_OK(hsa_amd_pointer_info(dep, &info, NULL, NULL, NULL));
  ASSERT_EQ(info.type, HSA_EXT_POINTER_TYPE_HSA);
  ASSERT_EQ_U(info.agentOwner.handle, gpu.handle);
  /* The CP waits on a signal there: only in system memory, which the GPU
   * snoops. In the carve-out the GPU's L2 may keep a stale copy of what
   * the CPU writes (the model reports such an access, as silicon would
   * get it wrong): signals belong in fine-grained memory. */
  if (prefer_gtt) {
    memset(dep, 0, sizeof *dep);
    dep->kind = AMD_SIGNAL_KIND_USER;
    dep->value = 1;
    hsa_queue_t *q;
    HSA_ASSERT_OK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
    hsa_signal_t done;
    HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
    hsa_barrier_and_packet_t p;
    memset(&p, 0, sizeof p);
    p.dep_signal[0].handle = (uint64_t)(uintptr_t)dep;
    p.completion_signal = done;
    hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, true));
    ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20000000, HSA_WAIT_STATE_BLOCKED), 1);
    __atomic_store_n(&dep->value, 0, __ATOMIC_RELEASE);
    ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
    HSA_ASSERT_OK(hsa_signal_destroy(done));
    HSA_ASSERT_OK(hsa_queue_destroy(q));
  }

  /* More than the pool holds is refused; the pool gives memory back. */
  void *big;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(local, size + 4096, 0, &big), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(dep));
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(local, 1u << 20, 0, &big));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(big));
  HSA_ASSERT_OK(hsa_shut_down());
}

