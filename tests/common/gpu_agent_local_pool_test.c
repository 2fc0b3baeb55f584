/* The GPU agent's local pool through the HSA API, whichever memory serves
 * it (system memory of the GTT's size, or the carve-out: gpu_agent.c):
 * MEMORY_AVAIL follows what is allocated, granule by granule; thousands of
 * blocks; allocation until the pool is full; fragmentation as each
 * allocator has it; several threads at once (CPU agents' cores and the
 * test's own; tests/host/gpu_agent_local_pool_threads_test.c has 1024).
 *
 * Filling a pool needs one small enough to fill: pools above FILL_LIMIT
 * (the host's default, half its RAM) skip those tests; the gpu-chips and
 * image-vapu-* suites give pools of 256 MiB of system memory and of the
 * carve-out (gpu_gtt_mb). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/amdgpu/amdgpu.h"
#include "lib/plat.h"
#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"
#include "lib/util.h"

#define GRANULE    4096u
#define FILL_LIMIT (256ull << 20)

static size_t pool_size(hsa_amd_memory_pool_t pool) {
  size_t size = 0;
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
  return size;
}

/* The carve-out serves the pool: it has the carve-out's size (a pool of
 * system memory has the GTT's, which is larger). */
static bool pool_is_carveout(size_t size) {
  struct amdgpu_device_info dev;
  ASSERT_EQ(amdgpu_device_query(amdgpu_device_get(0), &dev), 0);
  return size == dev.local_memory_size;
}

TEST(gpu_agent_local_pool_memory_avail_follows_allocations) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  hsa_amd_memory_pool_t pool = gpu_test_local_pool(gpu);
  size_t size = pool_size(pool), granule = 0, max = 0;
  HSA_ASSERT_OK(
      hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule));
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max));
  ASSERT_EQ_U(granule, GRANULE);
  uint64_t before = gpu_test_memory_avail(gpu);
  ASSERT_LE(before, size);
  static const size_t sizes[] = {1, 4096, 4097, 5000, 65536, 1u << 20, (3u << 20) + 17};
  enum { N = countof(sizes) };
  void *p[N];
  uint64_t taken = 0;
  for (int i = 0; i < N; i++) {
    HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, sizes[i], 0, &p[i]));
    size_t rounded = (sizes[i] + GRANULE - 1) / GRANULE * GRANULE;
    taken += rounded;
    ASSERT_EQ_U(gpu_test_memory_avail(gpu), before - taken);
    hsa_amd_pointer_info_t info = {.size = sizeof info};
    HSA_ASSERT_OK(hsa_amd_pointer_info(p[i], &info, NULL, NULL, NULL));
    ASSERT_EQ_U(info.sizeInBytes, rounded);
    ASSERT_EQ_U(info.agentOwner.handle, gpu.handle);
  }
  /* The pool's own size and limits stay what they are (ROCr's GetInfo). */
  size_t size_after = 0, max_after = 0;
  HSA_ASSERT_OK(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size_after));
  HSA_ASSERT_OK(
      hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max_after));
  ASSERT_EQ_U(size_after, size);
  ASSERT_EQ_U(max_after, max);
  for (int i = N; i-- > 0;) {
    taken -= (sizes[i] + GRANULE - 1) / GRANULE * GRANULE;
    HSA_ASSERT_OK(hsa_amd_memory_pool_free(p[i]));
    ASSERT_EQ_U(gpu_test_memory_avail(gpu), before - taken);
  }
  HSA_ASSERT_OK(hsa_shut_down());
}

/* Each block keeps a tag in its first and last word: no two overlap. */
static void tag(void *p, size_t bytes, uint32_t id) {
  ((volatile uint32_t *)p)[0] = id;
  ((volatile uint32_t *)p)[bytes / 4 - 1] = ~id;
}
static bool tagged(const void *p, size_t bytes, uint32_t id) {
  return ((const volatile uint32_t *)p)[0] == id &&
         ((const volatile uint32_t *)p)[bytes / 4 - 1] == ~id;
}

/* The limit was the 251st live block, whatever its size. */
TEST(gpu_agent_local_pool_holds_thousands_of_blocks) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  hsa_amd_memory_pool_t pool = gpu_test_local_pool(gpu);
  uint64_t before = gpu_test_memory_avail(gpu);
  static const struct {
    size_t bytes;
    uint32_t count;
  } runs[] = {{4096, 4096}, {65536, 512}};
  static void *p[4096];
  for (int r = 0; r < 2; r++) {
    size_t bytes = runs[r].bytes;
    for (uint32_t i = 0; i < runs[r].count; i++) {
      HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, bytes, 0, &p[i]));
      tag(p[i], bytes, i);
    }
    ASSERT_EQ_U(gpu_test_memory_avail(gpu), before - (uint64_t)bytes * runs[r].count);
    for (uint32_t i = 0; i < runs[r].count; i++) ASSERT_TRUE(tagged(p[i], bytes, i));
    for (uint32_t i = 0; i < runs[r].count; i++) HSA_ASSERT_OK(hsa_amd_memory_pool_free(p[i]));
    ASSERT_EQ_U(gpu_test_memory_avail(gpu), before);
  }
  HSA_ASSERT_OK(hsa_shut_down());
}

/* Blocks of `bytes` until the pool refuses with OUT_OF_RESOURCES: appended
 * to list (capacity cap), count returned. */
static size_t allocate_until_refused(hsa_amd_memory_pool_t pool, size_t bytes, void **list,
                                     size_t cap) {
  size_t n = 0;
  hsa_status_t st;
  while (n < cap &&
         (st = hsa_amd_memory_pool_allocate(pool, bytes, 0, &list[n])) == HSA_STATUS_SUCCESS)
    n++;
  if (n == cap) FAIL("more than %zu blocks of %zu bytes", cap, bytes);
  if (st != HSA_STATUS_ERROR_OUT_OF_RESOURCES)
    FAIL("refused with 0x%x", st);
  return n;
}

static void free_all(void **list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (list[i]) HSA_ASSERT_OK(hsa_amd_memory_pool_free(list[i]));
}

/* hsa_init, the GPU's local pool and its size; skips (runtime shut down)
 * when the pool is larger than FILL_LIMIT. */
static size_t init_with_a_pool_to_fill(hsa_agent_t *gpu, hsa_amd_memory_pool_t *pool) {
  HSA_ASSERT_OK(hsa_init());
  *gpu = gpu_test_agent();
  *pool = gpu_test_local_pool(*gpu);
  size_t size = pool_size(*pool);
  if (size > FILL_LIMIT) {
    HSA_ASSERT_OK(hsa_shut_down());
    test_skip("the local pool has %zu MiB, more than this test fills (gpu_gtt_mb sets it)",
              size >> 20);
  }
  return size;
}

/* Blocks of 1 MiB, then of one granule, until nothing more fits:
 * MEMORY_AVAIL is then 0 and the next granule is refused; freed, all of it
 * is there again. */
TEST(gpu_agent_local_pool_fills_up_and_refuses_past_full) {
  hsa_agent_t gpu;
  hsa_amd_memory_pool_t pool;
  init_with_a_pool_to_fill(&gpu, &pool);
  uint64_t avail = gpu_test_memory_avail(gpu);
  size_t cap = avail / GRANULE + 16;
  void **blocks = calloc(cap, sizeof *blocks);
  ASSERT_NOT_NULL(blocks);
  size_t big = allocate_until_refused(pool, 1u << 20, blocks, cap);
  ASSERT_GE(big, avail / 2 / (1u << 20)); /* half the pool at least was in one piece */
  size_t small = allocate_until_refused(pool, GRANULE, blocks + big, cap - big);
  ASSERT_EQ_U(((uint64_t)big << 20) + (uint64_t)small * GRANULE, avail);
  ASSERT_EQ_U(gpu_test_memory_avail(gpu), 0);
  void *more;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(pool, 1, 0, &more), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  free_all(blocks, big + small);
  ASSERT_EQ_U(gpu_test_memory_avail(gpu), avail);
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, 1u << 20, 0, &more));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(more));
  free(blocks);
  HSA_ASSERT_OK(hsa_shut_down());
}

/* A full pool with every other 64 KiB block freed: half of those blocks'
 * memory is free (MEMORY_AVAIL counts bytes, not holes). In the carve-out
 * (first fit, amdgpu_local.c) no block larger than a hole fits then; a
 * pool of system memory takes any block its byte count allows (the C
 * library finds address space for it). A block of a hole's size fits in
 * both. */
TEST(gpu_agent_local_pool_fragmentation_as_its_allocator_has_it) {
  hsa_agent_t gpu;
  hsa_amd_memory_pool_t pool;
  size_t size = init_with_a_pool_to_fill(&gpu, &pool);
  bool carveout = pool_is_carveout(size);
  uint64_t avail = gpu_test_memory_avail(gpu);
  const size_t block = 64 * 1024;
  size_t cap = avail / GRANULE + 16;
  void **blocks = calloc(cap, sizeof *blocks), **fillers = calloc(cap, sizeof *fillers);
  ASSERT_TRUE(blocks && fillers);
  size_t n = allocate_until_refused(pool, block, blocks, cap);
  size_t nf = allocate_until_refused(pool, GRANULE, fillers, cap); /* what is left between */
  ASSERT_EQ_U(gpu_test_memory_avail(gpu), 0);
  ASSERT_GT(n, 8);
  for (size_t i = 0; i < n; i += 2) {
    HSA_ASSERT_OK(hsa_amd_memory_pool_free(blocks[i]));
    blocks[i] = NULL;
  }
  uint64_t holes = (uint64_t)(n + 1) / 2 * block;
  ASSERT_EQ_U(gpu_test_memory_avail(gpu), holes);
  void *large;
  hsa_status_t st = hsa_amd_memory_pool_allocate(pool, 2 * block, 0, &large);
  if (carveout) {
    ASSERT_EQ(st, HSA_STATUS_ERROR_OUT_OF_RESOURCES); /* no hole holds it */
    ASSERT_EQ_U(gpu_test_memory_avail(gpu), holes);
  } else {
    HSA_ASSERT_OK(st);
    ASSERT_EQ_U(gpu_test_memory_avail(gpu), holes - 2 * block);
    HSA_ASSERT_OK(hsa_amd_memory_pool_free(large));
  }
  void *fits;
  HSA_ASSERT_OK(hsa_amd_memory_pool_allocate(pool, block, 0, &fits));
  HSA_ASSERT_OK(hsa_amd_memory_pool_free(fits));
  free_all(blocks, n);
  free_all(fillers, nf);
  ASSERT_EQ_U(gpu_test_memory_avail(gpu), avail);
  free(blocks);
  free(fillers);
  HSA_ASSERT_OK(hsa_shut_down());
}

/* ---- Several threads at once ----------------------------------------------- */

#define CHURN_ROUNDS 200
#define CHURN_LIVE   4

struct churn_args {
  hsa_amd_memory_pool_t pool;
  _Atomic uint32_t *failures; /* a block that was not the owner's, a refused free */
  _Atomic uint32_t *refusals; /* allocations refused */
};

/* ROUNDS allocations of 1 to 8 granules, each tagged with its owner,
 * checked and freed CHURN_LIVE rounds later. */
static void churn(hsa_amd_memory_pool_t pool, uint32_t id, _Atomic uint32_t *failures,
                  _Atomic uint32_t *refusals) {
  void *live[CHURN_LIVE] = {0};
  size_t bytes[CHURN_LIVE] = {0};
  uint32_t seed = id * 2654435761u + 7;
  for (int round = 0; round < CHURN_ROUNDS; round++) {
    int slot = round % CHURN_LIVE;
    if (live[slot]) {
      if (!tagged(live[slot], bytes[slot], id)) atomic_fetch_add(failures, 1);
      if (hsa_amd_memory_pool_free(live[slot]) != HSA_STATUS_SUCCESS) atomic_fetch_add(failures, 1);
      live[slot] = NULL;
    }
    seed = seed * 1103515245u + 12345u;
    bytes[slot] = (1 + (seed >> 16) % 8) * GRANULE;
    if (hsa_amd_memory_pool_allocate(pool, bytes[slot], 0, &live[slot]) != HSA_STATUS_SUCCESS) {
      live[slot] = NULL;
      atomic_fetch_add(refusals, 1);
      continue;
    }
    tag(live[slot], bytes[slot], id);
  }
  for (int i = 0; i < CHURN_LIVE; i++)
    if (live[i] && hsa_amd_memory_pool_free(live[i]) != HSA_STATUS_SUCCESS)
      atomic_fetch_add(failures, 1);
}

HSA_CPU_KERNEL(local_pool_churn, sizeof(struct churn_args)) {
  const struct churn_args *a = hsa_dispatch->kernarg;
  churn(a->pool, 1000 + hsa_dispatch->workgroup_id[0] + 100000 * hsa_dispatch->core, a->failures,
        a->refusals);
}

/* Every CPU agent's cores run the churn as work-groups while the test's
 * thread churns too: the image's few cores allocate at once as well. */
TEST(gpu_agent_local_pool_threads_allocate_and_free_at_once) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  hsa_amd_memory_pool_t pool = gpu_test_local_pool(gpu);
  uint64_t before = gpu_test_memory_avail(gpu);
  hsa_agent_t cpus[8];
  uint32_t n = hsa_test_cpu_agents(cpus, 8);
  static _Atomic uint32_t failures, refusals;
  atomic_store(&failures, 0);
  atomic_store(&refusals, 0);
  struct churn_args args = {pool, &failures, &refusals};
  hsa_queue_t *queues[8];
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(n, 0, NULL, &done));
  const uint32_t grid[3] = {32, 1, 1}, wg[3] = {1, 1, 1};
  for (uint32_t i = 0; i < n; i++) {
    HSA_ASSERT_OK(
        hsa_queue_create(cpus[i], 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, 0, 0, &queues[i]));
    hsa_kernel_dispatch_packet_t p =
        hsa_test_dispatch_packet(&hsa_cpu_kernel_local_pool_churn, 1, grid, wg, &args, done);
    hsa_test_submit(queues[i], &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  }
  churn(pool, 1, &failures, &refusals);
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  for (uint32_t i = 0; i < n; i++) HSA_ASSERT_OK(hsa_queue_destroy(queues[i]));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  ASSERT_EQ(atomic_load(&failures), 0);
  ASSERT_EQ(atomic_load(&refusals), 0);
  ASSERT_EQ_U(gpu_test_memory_avail(gpu), before);
  HSA_ASSERT_OK(hsa_shut_down());
}
