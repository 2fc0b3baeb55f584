/* 1024 threads allocate and free on the GPU agent's local pool at once
 * (host only: the image has a few cores; tests/common/gpu_agent_local_pool_test.c
 * churns on those). Every block is tagged with its thread and checked
 * before it is freed; afterwards MEMORY_AVAIL is what it was. */
#include <pthread.h>
#include <stdatomic.h>

#include "lib/plat.h"

#include "tests/common/gpu_test_util.h"
#include "tests/common/hsa_test_util.h"

#define THREADS 1024
#define ROUNDS  24
#define LIVE    3

static hsa_amd_memory_pool_t pool;
static volatile uint32_t go; /* every thread starts together when it turns 1 */
static _Atomic uint32_t failures, refusals;

static void *churn_main(void *arg) {
  uint32_t id = (uint32_t)(uintptr_t)arg;
  uint32_t *live[LIVE] = {0};
  size_t words[LIVE] = {0};
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) plat_wait(&go, 0, UINT64_MAX);
  for (int round = 0; round < ROUNDS; round++) {
    int slot = round % LIVE;
    if (live[slot]) {
      if (live[slot][0] != id || live[slot][words[slot] - 1] != ~id) atomic_fetch_add(&failures, 1);
      if (hsa_amd_memory_pool_free(live[slot]) != HSA_STATUS_SUCCESS)
        atomic_fetch_add(&failures, 1);
      live[slot] = NULL;
    }
    size_t bytes = (size_t)(1 + (id + (uint32_t)round) % 2) * 4096;
    if (hsa_amd_memory_pool_allocate(pool, bytes, 0, (void **)&live[slot]) != HSA_STATUS_SUCCESS) {
      live[slot] = NULL;
      atomic_fetch_add(&refusals, 1);
      continue;
    }
    words[slot] = bytes / 4;
    live[slot][0] = id;
    live[slot][words[slot] - 1] = ~id;
  }
  for (int i = 0; i < LIVE; i++)
    if (live[i] && hsa_amd_memory_pool_free(live[i]) != HSA_STATUS_SUCCESS)
      atomic_fetch_add(&failures, 1);
  return NULL;
}

TEST(gpu_agent_local_pool_1024_threads_allocate_and_free_at_once) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t gpu = gpu_test_agent();
  pool = gpu_test_local_pool(gpu);
  uint64_t before = gpu_test_memory_avail(gpu);
  atomic_store(&failures, 0);
  atomic_store(&refusals, 0);
  static pthread_t threads[THREADS];
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  __atomic_store_n(&go, 0, __ATOMIC_RELEASE);
  int created = 0;
  for (; created < THREADS; created++)
    if (pthread_create(&threads[created], &attr, churn_main, (void *)(uintptr_t)(created + 1)))
      break;
  pthread_attr_destroy(&attr);
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
  plat_wake(&go);
  for (int i = 0; i < created; i++) pthread_join(threads[i], NULL);
  ASSERT_EQ(created, THREADS);
  ASSERT_EQ(atomic_load(&failures), 0);
  ASSERT_EQ(atomic_load(&refusals), 0);
  ASSERT_EQ_U(gpu_test_memory_avail(gpu), before);
  HSA_ASSERT_OK(hsa_shut_down());
}
