/*
 * hsa_multicore_test.c - a kernel dispatch is shared by all the cores of
 * its CPU agent (and only by those its queue's CU mask allows). Runs on
 * the host and in the image (-smp 4 gives the first agent two cores).
 */
#include <stdatomic.h>

#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"

struct multicore_args {
  _Atomic uint32_t *groups_by_core; /* [32] */
};

HSA_CPU_KERNEL(multicore_which_core, sizeof(struct multicore_args)) {
  const struct multicore_args *a = hsa_dispatch->kernarg;
  atomic_fetch_add(&a->groups_by_core[hsa_dispatch->core], 1);
  /* Long enough that one core cannot take every group before the others wake. */
  uint64_t until = plat_now_ns() + 200000;
  while (plat_now_ns() < until) plat_cpu_relax();
}

TEST(hsa_multicore_dispatch_spreads_groups_over_the_agents_cores) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t agent;
  hsa_test_cpu_agents(&agent, 1);
  uint32_t cores;
  HSA_ASSERT_OK(
      hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cores));
  if (cores < 2) test_skip("the first CPU agent has one core");
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(agent, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, 0, 0, &q));
  static _Atomic uint32_t by_core[32];
  for (int i = 0; i < 32; i++) atomic_store(&by_core[i], 0);
  struct multicore_args args = {by_core};
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &done));
  const uint32_t grid[3] = {200, 1, 1}, wg[3] = {1, 1, 1};
  hsa_kernel_dispatch_packet_t p =
      hsa_test_dispatch_packet(&hsa_cpu_kernel_multicore_which_core, 1, grid, wg, &args, done);
  hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  uint32_t total = 0, used = 0;
  for (uint32_t i = 0; i < 32; i++) {
    total += atomic_load(&by_core[i]);
    used += atomic_load(&by_core[i]) != 0;
    if (i >= cores) ASSERT_EQ(atomic_load(&by_core[i]), 0);
  }
  ASSERT_EQ(total, 200);
  ASSERT_GE(used, 2);
  /* A CU mask of core 0 only keeps the helpers out. */
  uint32_t mask = 1;
  HSA_ASSERT_OK(hsa_amd_queue_cu_set_mask(q, 32, &mask));
  for (int i = 0; i < 32; i++) atomic_store(&by_core[i], 0);
  hsa_signal_store_relaxed(done, 1);
  hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  ASSERT_EQ(atomic_load(&by_core[0]), 200);
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}

struct count_groups_args {
  _Atomic uint32_t *hits; /* one counter per work-group of this dispatch */
};

HSA_CPU_KERNEL(multicore_count_groups, sizeof(struct count_groups_args)) {
  const struct count_groups_args *a = hsa_dispatch->kernarg;
  atomic_fetch_add(&a->hits[hsa_dispatch->workgroup_id[0]], 1);
}

#define BACK_TO_BACK 200
#define GROUPS       16

TEST(hsa_multicore_back_to_back_dispatches_run_each_group_once) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t agent;
  hsa_test_cpu_agents(&agent, 1);
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(agent, 1024, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, 0, 0, &q));
  static _Atomic uint32_t hits[BACK_TO_BACK][GROUPS];
  static struct count_groups_args args[BACK_TO_BACK];
  for (int d = 0; d < BACK_TO_BACK; d++) {
    for (int g = 0; g < GROUPS; g++) atomic_store(&hits[d][g], 0);
    args[d].hits = hits[d];
  }
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(BACK_TO_BACK, 0, NULL, &done));
  /* Many short multi-group dispatches in a row: helpers that arrive late
   * for one must not run a group of the next. */
  const uint32_t grid[3] = {GROUPS, 1, 1}, wg[3] = {1, 1, 1};
  for (int d = 0; d < BACK_TO_BACK; d++) {
    hsa_kernel_dispatch_packet_t p = hsa_test_dispatch_packet(
        &hsa_cpu_kernel_multicore_count_groups, 1, grid, wg, &args[d], done);
    hsa_test_submit(q, &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  }
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  for (int d = 0; d < BACK_TO_BACK; d++)
    for (int g = 0; g < GROUPS; g++) ASSERT_EQ(atomic_load(&hits[d][g]), 1);
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}
