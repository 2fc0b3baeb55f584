/*
 * hsa_memory_test.c - regions and memory pools: discovery, attributes,
 * allocation and its errors, pointer information, access, lock/unlock,
 * copy, fill, deallocation callbacks and asynchronous copies.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "hsa/agent.h"
#include "hsa/memory.h"
#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"

struct pool_list {
  hsa_amd_memory_pool_t pools[8];
  int count;
};

static hsa_status_t collect_pool(hsa_amd_memory_pool_t pool, void *data) {
  struct pool_list *l = data;
  if (l->count < 8) l->pools[l->count++] = pool;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t collect_region(hsa_region_t region, void *data) {
  struct pool_list *l = data;
  if (l->count < 8) l->pools[l->count++].handle = region.handle;
  return HSA_STATUS_SUCCESS;
}

TEST(hsa_memory_pools_and_regions_describe_one_shared_memory) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpus[2];
  uint32_t n = hsa_test_cpu_agents(cpus, 2);
  struct pool_list pools = {0}, regions = {0};
  HSA_ASSERT_OK(hsa_amd_agent_iterate_memory_pools(cpus[0], collect_pool, &pools));
  HSA_ASSERT_OK(hsa_agent_iterate_regions(cpus[0], collect_region, &regions));
  ASSERT_GE(pools.count, 1);
  ASSERT_EQ(pools.count, regions.count);
  bool fine = false, coarse = false;
  for (int i = 0; i < pools.count; i++) {
    hsa_amd_memory_pool_t p = pools.pools[i];
    hsa_amd_segment_t seg;
    uint32_t flags;
    size_t size, granule, align, max;
    bool alloc_ok, all;
    hsa_amd_memory_pool_location_t loc;
    HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
    HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
    HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
    HSA_ASSERT_OK(
        hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
    HSA_ASSERT_OK(
        hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, &align));
    HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max));
    HSA_ASSERT_OK(
        hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc_ok));
    HSA_ASSERT_OK(
        hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all));
    HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_LOCATION, &loc));
    ASSERT_EQ(seg, HSA_AMD_SEGMENT_GLOBAL);
    ASSERT_GT(size, 0);
    ASSERT_LE(max, size);
    ASSERT_EQ(granule, 4096);
    ASSERT_TRUE(alloc_ok);
    ASSERT_TRUE(all);
    fine |= (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) != 0;
    coarse |= (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) != 0;
    /* The same object as a region: same flags. */
    hsa_region_t r = {p.handle};
    uint32_t rflags;
    HSA_ASSERT_OK(hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &rflags));
    ASSERT_EQ(rflags, flags);
    bool host_ok;
    HSA_ASSERT_OK(
        hsa_region_get_info(r, (hsa_region_info_t)HSA_AMD_REGION_INFO_HOST_ACCESSIBLE, &host_ok));
    ASSERT_TRUE(host_ok);
    /* Single address space: every agent reaches every pool directly. */
    for (uint32_t a = 0; a < n; a++) {
      hsa_amd_memory_pool_access_t access;
      uint32_t hops = 9;
      HSA_ASSERT_OK(hsa_amd_agent_memory_pool_get_info(
          cpus[a], p, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
      ASSERT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
      HSA_ASSERT_OK(hsa_amd_agent_memory_pool_get_info(
          cpus[a], p, HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops));
      ASSERT_EQ(hops, 0);
    }
  }
  ASSERT_TRUE(fine);
  ASSERT_TRUE(coarse);
  hsa_amd_memory_pool_t bad = {0x1111};
  size_t size;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(bad, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
            (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  hsa_region_t bad_region = {0x1111};
  ASSERT_EQ(hsa_region_get_info(bad_region, HSA_REGION_INFO_SIZE, &size),
            HSA_STATUS_ERROR_INVALID_REGION);
  ASSERT_EQ(hsa_amd_memory_pool_get_info(pools.pools[0], (hsa_amd_memory_pool_info_t)99, &size),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

static hsa_amd_memory_pool_t bad_pool_handle(void) {
  hsa_amd_memory_pool_t bad = {0x2223};
  return bad;
}

TEST(hsa_memory_allocate_free_and_errors) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  hsa_amd_memory_pool_t pool = hsa_test_kernarg_pool(cpu);
  void *p = NULL, *q = NULL;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, 100, 0, &p));
  ASSERT_EQ((uintptr_t)p % 4096, 0);
  memset(p, 0x5a, 100);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool, 0, 0, &q), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool, 64, 0, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(bad_pool_handle(), 0, 0, &q),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* ROCr: the size before the pool */
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, 64, 0x80, &q)); /* unknown flags: ignored */
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(q));
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool, SIZE_MAX / 2, 0, &q),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  hsa_amd_memory_pool_t bad = {0x2222};
  ASSERT_EQ(hsa_amd_memory_pool_allocate(bad, 64, 0, &q),
            (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  ASSERT_EQ(hsa_amd_memory_pool_free((char *)p + 8),
            HSA_STATUS_ERROR_INVALID_ALLOCATION); /* not a base */
  int on_stack;
  ASSERT_EQ(hsa_memory_free(&on_stack), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(p));
  ASSERT_EQ(hsa_amd_memory_pool_free(p), HSA_STATUS_ERROR_INVALID_ALLOCATION); /* double free */
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(NULL));
  hsa_region_t region = {pool.handle};
  HSA_ASSERT_OK(hsa_memory_allocate(region, 5000, &p));
  HSA_ASSERT_OK(hsa_memory_assign_agent(p, cpu, HSA_ACCESS_PERMISSION_RW));
  ASSERT_EQ(hsa_memory_assign_agent(p, cpu, HSA_ACCESS_PERMISSION_NONE),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_memory_free(p));
  hsa_region_t bad_region = {0x3333};
  ASSERT_EQ(hsa_memory_allocate(bad_region, 64, &p), HSA_STATUS_ERROR_INVALID_REGION);
  HSA_ASSERT_OK(hsa_shut_down());
}

static void *count_alloc_calls_alloc(size_t size);
static int alloc_calls;
static void *count_alloc_calls_alloc(size_t size) {
  alloc_calls++;
  static hsa_agent_t storage[32];
  return size <= sizeof storage ? storage : NULL;
}

static hsa_status_t count_all_agents(hsa_agent_t agent, void *data) {
  (void)agent;
  ++*(int *)data;
  return HSA_STATUS_SUCCESS;
}

static int dealloc_calls;
static void *dealloc_ptr;
static void on_dealloc(void *ptr, void *user) {
  dealloc_calls++;
  dealloc_ptr = ptr;
  (void)user;
}

/* ROCr's PtrInfo: the caller's info->size says how much of the structure
 * it has. LLVM's offload plugin passes its own 32-byte layout (size, type,
 * the two base addresses, sizeInBytes) for host pointers it maps; only
 * those bytes are written. A size of 0 is refused; the list of agents
 * comes only with alloc, the count and the list pointer all given. */
TEST(hsa_memory_pointer_info_fills_the_callers_layout) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  ASSERT_EQ(hsa_test_cpu_agents(&cpu, 1), 1);
  char *p;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(hsa_test_kernarg_pool(cpu), 4096, 0, (void **)&p));
  const uint32_t short_size = (uint32_t)offsetof(hsa_amd_pointer_info_t, userData);
  ASSERT_EQ(short_size, 32);
  union {
    hsa_amd_pointer_info_t info;
    unsigned char bytes[sizeof(hsa_amd_pointer_info_t) + 16];
  } u;
  memset(&u, 0xa5, sizeof u);
  u.info.size = short_size;
  HSA_ASSERT_OK(hsa_amd_pointer_info(p + 100, &u.info, NULL, NULL, NULL));
  ASSERT_EQ(u.info.size, short_size);
  ASSERT_EQ(u.info.type, HSA_EXT_POINTER_TYPE_HSA);
  ASSERT_PTR_EQ(u.info.hostBaseAddress, p);
  ASSERT_EQ(u.info.sizeInBytes, 4096);
  for (size_t i = short_size; i < sizeof u.bytes; i++) ASSERT_EQ(u.bytes[i], 0xa5);
  /* A stack variable nobody allocated: unknown, and still a success. */
  int on_stack;
  memset(&u, 0xa5, sizeof u);
  u.info.size = short_size;
  HSA_ASSERT_OK(hsa_amd_pointer_info(&on_stack, &u.info, NULL, NULL, NULL));
  ASSERT_EQ(u.info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
  ASSERT_NULL(u.info.hostBaseAddress);
  ASSERT_EQ(u.bytes[short_size], 0xa5);
  /* A larger caller's structure gets this runtime's size. */
  memset(&u, 0, sizeof u);
  u.info.size = sizeof u.bytes;
  HSA_ASSERT_OK(hsa_amd_pointer_info(p, &u.info, NULL, NULL, NULL));
  ASSERT_EQ(u.info.size, sizeof(hsa_amd_pointer_info_t));
  ASSERT_EQ_U(u.info.agentOwner.handle, cpu.handle);
  u.info.size = 0;
  ASSERT_EQ(hsa_amd_pointer_info(p, &u.info, NULL, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* No list without all three of alloc, count and list. */
  uint32_t count = 77;
  hsa_agent_t *list = (hsa_agent_t *)&count;
  u.info.size = sizeof u.info;
  HSA_ASSERT_OK(hsa_amd_pointer_info(p, &u.info, NULL, &count, &list));
  ASSERT_EQ(count, 77);
  ASSERT_PTR_EQ(list, (hsa_agent_t *)&count);
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(p));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_memory_pointer_info_access_lock_and_callbacks) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpus[2];
  uint32_t n = hsa_test_cpu_agents(cpus, 2);
  hsa_amd_memory_pool_t pool = hsa_test_kernarg_pool(cpus[0]);
  char *p;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, 10000, 0, (void **)&p));
  hsa_amd_pointer_info_t info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  uint32_t count = 0;
  hsa_agent_t *accessible = NULL;
  HSA_ASSERT_OK(
      hsa_amd_pointer_info(p + 5000, &info, count_alloc_calls_alloc, &count, &accessible));
  ASSERT_EQ(info.type, HSA_EXT_POINTER_TYPE_HSA);
  ASSERT_PTR_EQ(info.agentBaseAddress, p);
  ASSERT_PTR_EQ(info.hostBaseAddress, p);
  ASSERT_EQ(info.sizeInBytes, 12288); /* rounded to the 4 KiB granule */
  ASSERT_EQ(info.agentOwner.handle, cpus[0].handle);
  int all_agents = 0;
  HSA_ASSERT_OK(hsa_iterate_agents(count_all_agents, &all_agents));
  ASSERT_EQ(count, all_agents); /* reachable by every agent, CPU or GPU */
  ASSERT_EQ(alloc_calls, 1);
  HSA_ASSERT_OK(hsa_amd_pointer_info_set_userdata(p, (void *)0x77));
  HSA_ASSERT_OK(hsa_amd_pointer_info(p, &info, NULL, NULL, NULL));
  ASSERT_PTR_EQ(info.userData, (void *)0x77);
  int unknown;
  HSA_ASSERT_OK(hsa_amd_pointer_info(&unknown, &info, NULL, NULL, NULL));
  ASSERT_EQ(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
  ASSERT_EQ(hsa_amd_pointer_info(p, NULL, NULL, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_agents_allow_access(n, cpus, NULL, p));
  ASSERT_EQ(hsa_amd_agents_allow_access(0, cpus, NULL, p), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_agents_allow_access(1, cpus, NULL, &unknown),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t bad_agent = {0x4444};
  ASSERT_EQ(hsa_amd_agents_allow_access(1, &bad_agent, NULL, p), HSA_STATUS_ERROR_INVALID_AGENT);
  /* Deallocation callbacks run on free. */
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(p, on_dealloc, NULL));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(p));
  ASSERT_EQ(dealloc_calls, 1);
  ASSERT_PTR_EQ(dealloc_ptr, p);
  /* Locking host memory: the agent address is the host address. */
  static char host[8192];
  void *agent_ptr = NULL;
  HSA_ASSERT_OK(hsa_amd_memory_lock(host, sizeof host, cpus, 1, &agent_ptr));
  ASSERT_PTR_EQ(agent_ptr, host);
  HSA_ASSERT_OK(hsa_amd_pointer_info(host + 100, &info, NULL, NULL, NULL));
  ASSERT_EQ(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
  /* ROCr on an APU (full profile) locks anything at once, twice too, and
   * unlocks anything. */
  HSA_ASSERT_OK(hsa_amd_memory_lock(host + 10, 10, NULL, 0, &agent_ptr));
  ASSERT_PTR_EQ(agent_ptr, host + 10);
  HSA_ASSERT_OK(hsa_amd_memory_unlock(host));
  HSA_ASSERT_OK(hsa_amd_pointer_info(host + 100, &info, NULL, NULL, NULL));
  ASSERT_EQ(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN); /* forgotten */
  HSA_ASSERT_OK(hsa_amd_memory_unlock(host));
  ASSERT_EQ(hsa_amd_memory_lock(NULL, 10, NULL, 0, &agent_ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_memory_lock(host, 10, cpus, 0, &agent_ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_agents_allow_access(1, cpus, (const uint32_t *)&n, p),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* flags must be NULL */
  bool migrate = true;
  HSA_ASSERT_OK(hsa_amd_memory_pool_can_migrate(pool, pool, &migrate));
  ASSERT_FALSE(migrate);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_memory_copy_and_fill) {
  HSA_ASSERT_OK(hsa_init());
  uint32_t src[300], dst[300];
  for (int i = 0; i < 300; i++) src[i] = (uint32_t)i * 2654435761u;
  memset(dst, 0, sizeof dst);
  HSA_ASSERT_OK(hsa_memory_copy(dst, src, sizeof src));
  ASSERT_MEM_EQ(dst, src, sizeof src);
  ASSERT_EQ(hsa_memory_copy(NULL, src, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_memory_fill(dst + 1, 0xdeadbeef, 298));
  ASSERT_EQ(dst[0], src[0]);
  for (int i = 1; i < 299; i++) ASSERT_EQ_U(dst[i], 0xdeadbeef);
  ASSERT_EQ(dst[299], src[299]);
  ASSERT_EQ(hsa_amd_memory_fill((char *)dst + 1, 0, 4), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_memory_async_copy_waits_for_dependencies) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  enum { N = 1 << 16 };
  static uint8_t src[N], dst[N];
  for (int i = 0; i < N; i++) src[i] = (uint8_t)(i * 7 + 1);
  memset(dst, 0, sizeof dst);
  hsa_signal_t deps[7], done;
  for (int i = 0; i < 7; i++) HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &deps[i]));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  HSA_ASSERT_OK(hsa_amd_memory_async_copy(dst, cpu, src, cpu, N, 7, deps, done));
  plat_sleep_ns(2000000);
  ASSERT_EQ(hsa_signal_load_scacquire(done), 1); /* still waiting on its dependencies */
  ASSERT_EQ(dst[5], 0);
  for (int i = 0; i < 7; i++) hsa_signal_store_screlease(deps[i], 0);
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  ASSERT_MEM_EQ(dst, src, N);
  /* Rectangular copy: a 16x4x2 box out of a 64-byte-pitch volume. */
  static uint8_t vol_src[64 * 8 * 3], vol_dst[64 * 8 * 3];
  for (size_t i = 0; i < sizeof vol_src; i++) vol_src[i] = (uint8_t)(i * 13);
  memset(vol_dst, 0, sizeof vol_dst);
  hsa_pitched_ptr_t ps = {vol_src, 64, 64 * 8}, pd = {vol_dst, 64, 64 * 8};
  hsa_dim3_t so = {3, 2, 1}, dof = {10, 1, 0}, range = {16, 4, 2};
  hsa_signal_store_relaxed(done, 1);
  ASSERT_EQ(hsa_amd_memory_async_copy_rect(&pd, &dof, &ps, &so, &range, cpu, hsaHostToHost, 0,
                                           NULL, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT); /* ROCr refuses host to host */
  HSA_ASSERT_OK(hsa_amd_memory_async_copy_rect(&pd, &dof, &ps, &so, &range, cpu, hsaHostToDevice, 0,
                                               NULL, done));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  for (uint32_t z = 0; z < 2; z++)
    for (uint32_t y = 0; y < 4; y++)
      for (uint32_t x = 0; x < 16; x++)
        ASSERT_EQ(vol_dst[(z + 0) * 512 + (y + 1) * 64 + x + 10],
                  vol_src[(z + 1) * 512 + (y + 2) * 64 + x + 3]);
  ASSERT_EQ(vol_dst[0], 0);
  hsa_signal_t bad = {0x6660};
  ASSERT_EQ(hsa_amd_memory_async_copy(dst, cpu, src, cpu, 16, 0, NULL, bad),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst, cpu, src, cpu, 16, 1, &bad, done),
            HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_agent_t bad_agent = {0x5};
  ASSERT_EQ(hsa_amd_memory_async_copy(dst, bad_agent, src, cpu, 16, 0, NULL, done),
            HSA_STATUS_ERROR_INVALID_AGENT);
  uint32_t engines = 99;
  HSA_ASSERT_OK(hsa_amd_memory_copy_engine_status(cpu, cpu, &engines));
  ASSERT_EQ(engines, 0);
  /* No SDMA engine: a copy "on" one runs as any copy (ROCr with SDMA
   * off); an engine mask that is not one bit is refused. */
  hsa_signal_store_relaxed(done, 1);
  HSA_ASSERT_OK(hsa_amd_memory_async_copy_on_engine(dst, cpu, src, cpu, 16, 0, NULL, done,
                                                    HSA_AMD_SDMA_ENGINE_0, true));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  ASSERT_EQ(hsa_amd_memory_async_copy_on_engine(dst, cpu, src, cpu, 16, 0, NULL, done,
                                                (hsa_amd_sdma_engine_id_t)3, false),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* ROCr's order: pointers and the dependency list before handles; an
   * empty copy succeeds without touching its signal. */
  ASSERT_EQ(hsa_amd_memory_async_copy(NULL, bad_agent, src, cpu, 16, 0, NULL, bad),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_memory_async_copy(dst, cpu, src, cpu, 16, 0, deps, done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_memory_async_copy(dst, cpu, src, cpu, 0, 0, NULL, done));
  ASSERT_EQ(hsa_signal_load_relaxed(done), 0);
  for (int i = 0; i < 7; i++) HSA_ASSERT_OK(hsa_signal_destroy(deps[i]));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_memory_unoffered_features_answer_error) {
  HSA_ASSERT_OK(hsa_init());
  hsa_amd_ipc_memory_t handle;
  int x;
  ASSERT_EQ(hsa_amd_ipc_memory_create(&x, sizeof x, &handle), HSA_STATUS_ERROR);
  void *va;
  ASSERT_EQ(hsa_amd_vmem_address_reserve(&va, 4096, 0, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_memory_migrate(&x, hsa_test_kernarg_pool((hsa_agent_t){0}), 0),
            (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  HSA_ASSERT_OK(hsa_shut_down());
  while (hsa_shut_down() == HSA_STATUS_SUCCESS) {
  }
  ASSERT_EQ(hsa_amd_ipc_memory_create(&x, sizeof x, &handle), HSA_STATUS_ERROR_NOT_INITIALIZED);
}

static hsa_status_t first_gpu_local(hsa_amd_memory_pool_t pool, void *data) {
  hsa_amd_memory_pool_location_t where;
  if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_LOCATION, &where) ==
          HSA_STATUS_SUCCESS &&
      where == HSA_AMD_MEMORY_POOL_LOCATION_GPU) {
    *(hsa_amd_memory_pool_t *)data = pool;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

/* What tinygrad and LLVM's offload plugin look pools up by: the location
 * (a GPU's own memory says GPU), and an LDS pool (segment GROUP) that is
 * described but never allocated from, as ROCr's. */
TEST(hsa_memory_pool_location_and_group_segment_as_rocr) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  ASSERT_EQ(hsa_test_cpu_agents(&cpu, 1), 1);
  hsa_amd_memory_pool_t sys = hsa_test_kernarg_pool(cpu);
  hsa_amd_memory_pool_location_t where;
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(sys, HSA_AMD_MEMORY_POOL_INFO_LOCATION, &where));
  ASSERT_EQ(where, HSA_AMD_MEMORY_POOL_LOCATION_CPU);
  ASSERT_EQ(hsa_amd_memory_pool_get_info(sys, HSA_AMD_MEMORY_POOL_INFO_LOCATION, NULL),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* A GPU's carve-out reports GPU. */
  for (uint32_t i = 0; i < agent_count(); i++) {
    struct agent *a = agent_at(i);
    if (a->device_type != HSA_DEVICE_TYPE_GPU) continue;
    hsa_amd_memory_pool_t local = {0};
    ASSERT_EQ(hsa_amd_agent_iterate_memory_pools(agent_handle(a), first_gpu_local, &local),
              HSA_STATUS_INFO_BREAK);
    ASSERT_EQ(memory_pool_from_handle(local.handle)->owner, a);
  }
  /* An LDS pool owned by the first CPU agent (as a GPU registers its own). */
  struct memory_pool desc = {.name = "test-lds", .segment = HSA_AMD_SEGMENT_GROUP,
                             .size = 65536, .owner = agent_from_handle(cpu)};
  struct memory_pool *lds = memory_pool_add_local(&desc);
  ASSERT_NOT_NULL(lds);
  hsa_amd_memory_pool_t group = {memory_pool_handle(lds)};
  hsa_amd_segment_t segment;
  uint32_t flags = 1;
  size_t size = 0, granule = 1, max = 1;
  bool allowed = true, all = true;
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &allowed));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, &all));
  ASSERT_EQ(segment, HSA_AMD_SEGMENT_GROUP);
  ASSERT_EQ(flags, 0);
  ASSERT_EQ(size, 65536);
  ASSERT_FALSE(allowed);
  ASSERT_EQ(granule, 0);
  ASSERT_EQ(max, 0);
  ASSERT_FALSE(all);
  ASSERT_EQ(hsa_amd_memory_pool_get_info(group, HSA_AMD_MEMORY_POOL_INFO_LOCATION, &where),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  void *p = NULL;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(group, 64, 0, &p), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  hsa_region_segment_t region_segment;
  HSA_ASSERT_OK(hsa_region_get_info((hsa_region_t){group.handle}, HSA_REGION_INFO_SEGMENT, &region_segment));
  ASSERT_EQ(region_segment, HSA_REGION_SEGMENT_GROUP);
  hsa_amd_memory_pool_access_t access;
  HSA_ASSERT_OK(hsa_amd_agent_memory_pool_get_info(cpu, group, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
  ASSERT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT); /* its owner */
  for (uint32_t i = 0; i < agent_count(); i++)
    if (agent_at(i) != lds->owner) {
      HSA_ASSERT_OK(hsa_amd_agent_memory_pool_get_info(agent_handle(agent_at(i)), group,
                                                       HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
      ASSERT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
    }
  HSA_ASSERT_OK(hsa_shut_down());
}

/* ---- Deallocation callbacks as ROCr's (runtime.cpp RegisterReleaseNotifier,
 * DeregisterReleaseNotifier, FreeMemory) ---- */

static int callback_log[8], callback_count;
static void *callback_ptrs[8];
static void log_callback(void *ptr, void *user) {
  if (callback_count < 8) {
    callback_log[callback_count] = (int)(intptr_t)user;
    callback_ptrs[callback_count] = ptr;
  }
  callback_count++;
}
static void other_callback(void *ptr, void *user) { log_callback(ptr, (void *)((intptr_t)user + 100)); }

TEST(hsa_memory_deallocation_callbacks_as_rocr) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t cpu;
  hsa_test_cpu_agents(&cpu, 1);
  hsa_amd_memory_pool_t pool = hsa_test_kernarg_pool(cpu);
  char *p;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, 10000, 0, (void **)&p));
  /* Memory the runtime never allocated: an invalid allocation, whether it
   * is nobody's, just past a block, or locked host memory. */
  int on_stack;
  ASSERT_EQ(hsa_amd_register_deallocation_callback(&on_stack, log_callback, NULL),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ASSERT_EQ(hsa_amd_register_deallocation_callback(p + 12288, log_callback, NULL),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  static char host[4096];
  void *agent_ptr;
  HSA_ASSERT_OK(hsa_amd_memory_lock(host, sizeof host, NULL, 0, &agent_ptr));
  ASSERT_EQ(hsa_amd_register_deallocation_callback(host, log_callback, NULL),
            HSA_STATUS_ERROR_INVALID_ALLOCATION);
  HSA_ASSERT_OK(hsa_amd_memory_unlock(host));
  /* ROCr checks the pointers first. */
  ASSERT_EQ(hsa_amd_register_deallocation_callback(NULL, log_callback, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_register_deallocation_callback(p, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* Any address inside the block takes callbacks; they run in the order
   * they came, each with its own pointer; deregistering removes every
   * registration of that callback with that very pointer. */
  callback_count = 0;
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(p, log_callback, (void *)1));
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(p + 5000, log_callback, (void *)2));
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(p, other_callback, (void *)3));
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(p, log_callback, (void *)4));
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(p + 9999, log_callback, (void *)5));
  ASSERT_EQ(hsa_amd_deregister_deallocation_callback(p + 1, log_callback), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_amd_deregister_deallocation_callback(&on_stack, log_callback), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_deregister_deallocation_callback(p, log_callback)); /* 1 and 4 */
  ASSERT_EQ(hsa_amd_deregister_deallocation_callback(p, log_callback), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_amd_register_deallocation_callback(p, log_callback, (void *)6));
  ASSERT_EQ(callback_count, 0);
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(p));
  ASSERT_EQ(callback_count, 4);
  static const int order[] = {2, 103, 5, 6};
  void *const ptrs[] = {p + 5000, p, p + 9999, p};
  for (int i = 0; i < 4; i++) {
    ASSERT_EQ(callback_log[i], order[i]);
    ASSERT_PTR_EQ(callback_ptrs[i], ptrs[i]);
  }
  /* Gone with the block. */
  ASSERT_EQ(hsa_amd_register_deallocation_callback(p, log_callback, NULL), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ASSERT_EQ(hsa_amd_deregister_deallocation_callback(p, log_callback), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}
