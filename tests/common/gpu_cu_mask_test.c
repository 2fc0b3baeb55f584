/* The GPU's compute units as the chip has them: a kernel that reads HW_ID
 * (s_getreg_b32, tests/data/gpu/queues.cl) sees its waves spread over
 * every CU the agent reports, the four SIMDs of a CU taking a work-group's
 * waves; a queue's CU mask (hsa_amd_queue_cu_set_mask, which the driver
 * maps into the MQD's COMPUTE_STATIC_THREAD_MGMT_SE* as KFD does) confines
 * its waves to the masked CUs, also with more queues than hardware slots. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/gpu_queue_test_util.h"
#include "tests/common/hsa_test_util.h"

#define GROUP_ITEMS 256 /* 4 waves */
#define MAX_CUS 64
#define QUEUES 64

/* HW_ID fields (gc_9_0_sh_mask.h SQ_WAVE_HW_ID). */
#define HW_WAVE(h) ((h) & 0xfu)
#define HW_SIMD(h) (((h) >> 4) & 3u)
#define HW_PIPE(h) (((h) >> 6) & 3u)
#define HW_CU(h) (((h) >> 8) & 0xfu)
#define HW_SH(h) (((h) >> 12) & 1u)
#define HW_SE(h) (((h) >> 13) & 3u)
#define HW_VMID(h) (((h) >> 20) & 0xfu)
#define HW_ME(h) (((h) >> 30) & 3u)
#define HW_PLACE(h) ((h) >> 8 & 0x7fu) /* SE, SH and CU: one number per CU */

struct places {
  uint32_t count;            /* distinct CUs seen */
  uint8_t cu[128];           /* HW_PLACE of each, in the order first seen */
  uint32_t se_seen;          /* bit per SE */
};

/* Runs hw_id over `groups` work-groups on q and collects where the waves
 * ran, checking what every wave must show. */
static void run_hw_id(struct gpu_queue_env *e, hsa_queue_t *q, uint32_t groups, uint32_t **out_p, hsa_signal_t done) {
  uint32_t *out = gpu_queue_env_alloc(e, groups * GROUP_ITEMS * sizeof *out);
  *out_p = out;
  gpu_queue_env_dispatch(e, q, &e->hw_id, groups * GROUP_ITEMS, GROUP_ITEMS, (uint64_t)(uintptr_t)out, 0, done);
}

static void collect(const uint32_t *out, uint32_t groups, struct places *p) {
  memset(p, 0, sizeof *p);
  for (uint32_t g = 0; g < groups; g++)
    for (uint32_t w = 0; w < GROUP_ITEMS / 64; w++) {
      uint32_t h = out[g * GROUP_ITEMS + w * 64];
      /* Every lane of a wave reads its wave's register. */
      for (uint32_t l = 1; l < 64; l++) ASSERT_EQ_U(out[g * GROUP_ITEMS + w * 64 + l], h);
      /* A work-group's waves share its CU and take its SIMDs in turn. */
      ASSERT_EQ_U(HW_PLACE(h), HW_PLACE(out[g * GROUP_ITEMS]));
      ASSERT_EQ_U(HW_SIMD(h), w % 4);
      ASSERT_EQ_U(HW_WAVE(h), w / 4);
      ASSERT_EQ_U(HW_ME(h), 1); /* MEC1 */
      ASSERT_GE(HW_VMID(h), 8);  /* a compute VMID */
      (void)HW_PIPE(h);
      p->se_seen |= 1u << HW_SE(h);
      bool known = false;
      for (uint32_t i = 0; i < p->count; i++) known |= p->cu[i] == HW_PLACE(h);
      if (!known) p->cu[p->count++] = (uint8_t)HW_PLACE(h);
    }
}

static void places_of(struct gpu_queue_env *e, hsa_queue_t *q, uint32_t groups, struct places *p) {
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
  uint32_t *out;
  run_hw_id(e, q, groups, &out, done);
  ASSERT_EQ(hsa_test_wait_eq(done, 0), 0);
  collect(out, groups, p);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
}

static void set_mask(hsa_queue_t *q, const uint32_t mask[4]) {
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 128, mask), HSA_STATUS_SUCCESS);
  uint32_t back[4];
  ASSERT_EQ(hsa_amd_queue_cu_get_mask(q, 128, back), HSA_STATUS_SUCCESS);
  ASSERT_EQ(memcmp(back, mask, sizeof back), 0);
}

/* The CU each single-CU mask bit names, from a run per bit. */
static void cu_of_each_bit(struct gpu_queue_env *e, hsa_queue_t *q, uint8_t *cu_of_bit) {
  for (uint32_t i = 0; i < e->compute_units; i++) {
    uint32_t mask[4] = {0};
    mask[i / 32] = 1u << (i % 32);
    set_mask(q, mask);
    struct places p;
    places_of(e, q, 2 * e->compute_units, &p);
    ASSERT_EQ(p.count, 1);
    cu_of_bit[i] = p.cu[0];
    for (uint32_t j = 0; j < i; j++) ASSERT_NE(cu_of_bit[j], cu_of_bit[i]); /* one bit, one CU */
  }
}

TEST(gpu_agent_cu_waves_spread_over_every_cu) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  ASSERT_LE(e.compute_units, MAX_CUS);
  hsa_queue_t *q = gpu_queue_env_queue(&e, 64, NULL);
  struct places p;
  places_of(&e, q, 3 * e.compute_units, &p);
  ASSERT_EQ(p.count, e.compute_units);
  /* A fused-off CU never runs a wave (the virtual APU's boot option says
   * which are; suite gpu-chips runs these tests with some). */
  const char *harvest = plat_option("vapu_inactive_cus");
  uint32_t inactive = harvest ? (uint32_t)strtoul(harvest, NULL, 0) : 0;
  for (uint32_t i = 0; i < p.count; i++) ASSERT_FALSE(inactive & (1u << (p.cu[i] & 0xf)));
  uint32_t ses = 0;
  ASSERT_EQ(hsa_agent_get_info(e.gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, &ses), HSA_STATUS_SUCCESS);
  ASSERT_EQ(p.se_seen, (1u << ses) - 1);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  gpu_queue_env_close(&e);
}

TEST(gpu_agent_cu_masks_confine_waves_to_their_cus) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  uint32_t n = e.compute_units, ses = 0;
  ASSERT_EQ(hsa_agent_get_info(e.gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, &ses), HSA_STATUS_SUCCESS);
  hsa_queue_t *q = gpu_queue_env_queue(&e, 64, NULL);
  /* One CU at a time: every bit names another CU. */
  uint8_t cu_of_bit[MAX_CUS];
  cu_of_each_bit(&e, q, cu_of_bit);
  /* Every other CU: exactly the CUs of those bits. */
  uint32_t alternate[4] = {0};
  uint32_t want = 0;
  for (uint32_t i = 0; i < n; i += 2, want++) alternate[i / 32] |= 1u << (i % 32);
  set_mask(q, alternate);
  struct places p;
  places_of(&e, q, 3 * n, &p);
  ASSERT_EQ(p.count, want);
  for (uint32_t k = 0; k < p.count; k++) {
    bool even = false;
    for (uint32_t i = 0; i < n; i += 2) even |= p.cu[k] == cu_of_bit[i];
    ASSERT_TRUE(even);
  }
  /* One shader engine: the bits KFD's mapping gives SE 0 (bit i is SE
   * i % SEs), and only SE 0 runs waves. */
  uint32_t se0[4] = {0};
  want = 0;
  for (uint32_t i = 0; i < n; i += ses, want++) se0[i / 32] |= 1u << (i % 32);
  set_mask(q, se0);
  places_of(&e, q, 3 * n, &p);
  ASSERT_EQ(p.se_seen, 1);
  ASSERT_EQ(p.count, want);
  /* A mask of no CU is refused and changes nothing; count 0: every CU. */
  uint32_t none[4] = {0};
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 128, none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  places_of(&e, q, 3 * n, &p);
  ASSERT_EQ(p.count, want);
  ASSERT_EQ(hsa_amd_queue_cu_set_mask(q, 0, NULL), HSA_STATUS_SUCCESS);
  places_of(&e, q, 3 * n, &p);
  ASSERT_EQ(p.count, n);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  gpu_queue_env_close(&e);
}

/* 64 queues (twice the slots), queue j masked to CU bit j % CUs, all
 * dispatching at once: each one's waves on its CU only, whichever slot it
 * had each time it was swapped in. */
TEST(gpu_agent_cu_masks_hold_with_more_queues_than_slots) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  uint32_t n = e.compute_units;
  hsa_queue_t *probe = gpu_queue_env_queue(&e, 64, NULL);
  uint8_t cu_of_bit[MAX_CUS];
  cu_of_each_bit(&e, probe, cu_of_bit);
  ASSERT_EQ(hsa_queue_destroy(probe), HSA_STATUS_SUCCESS);
  hsa_queue_t *q[QUEUES];
  hsa_signal_t done[QUEUES];
  uint32_t *out[QUEUES];
  for (uint32_t j = 0; j < QUEUES; j++) {
    q[j] = gpu_queue_env_queue(&e, 64, NULL);
    uint32_t mask[4] = {0};
    mask[(j % n) / 32] = 1u << (j % n % 32);
    set_mask(q[j], mask);
    ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done[j]), HSA_STATUS_SUCCESS);
  }
  uint64_t swaps = gpu_queue_env_swap_ins();
  for (uint32_t j = 0; j < QUEUES; j++) run_hw_id(&e, q[j], n, &out[j], done[j]);
  for (uint32_t j = 0; j < QUEUES; j++) {
    ASSERT_EQ(hsa_test_wait_eq(done[j], 0), 0);
    struct places p;
    collect(out[j], n, &p);
    ASSERT_EQ(p.count, 1);
    ASSERT_EQ(p.cu[0], cu_of_bit[j % n]);
  }
  ASSERT_GE(gpu_queue_env_swap_ins() - swaps, QUEUES - 32);
  for (uint32_t j = 0; j < QUEUES; j++) {
    ASSERT_EQ(hsa_queue_destroy(q[j]), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_destroy(done[j]), HSA_STATUS_SUCCESS);
  }
  gpu_queue_env_close(&e);
}

/* A new mask on a queue whose dispatch runs: the queue is drained, which
 * lets that dispatch run to its end (each of its work-groups once, none
 * cut short and run again) before the queue goes, and the next dispatch
 * runs on the new CUs. */
TEST(gpu_agent_cu_mask_change_lets_the_running_dispatch_finish) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  struct hsa_test_queue_error err = {0};
  hsa_queue_t *q = gpu_queue_env_queue(&e, 64, &err);
  uint8_t cu_of_bit[MAX_CUS];
  cu_of_each_bit(&e, q, cu_of_bit); /* leaves the mask on the last CU */
  int *count = gpu_queue_env_alloc(&e, 64), *flag = gpu_queue_env_alloc(&e, 64);
  hsa_signal_t waited;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &waited), HSA_STATUS_SUCCESS);
  gpu_queue_env_dispatch(&e, q, &e.count_and_wait, 4 * 64, 64, (uint64_t)(uintptr_t)count,
                         (uint64_t)(uintptr_t)flag, waited);
  uint64_t until = plat_now_ns() + 10000000000ull;
  while (__atomic_load_n(count, __ATOMIC_ACQUIRE) == 0) ASSERT_LT(plat_now_ns(), until);
  uint32_t first[4] = {1, 0, 0, 0};
  set_mask(q, first);
  ASSERT_EQ(hsa_signal_wait_scacquire(waited, HSA_SIGNAL_CONDITION_EQ, 0, 50000000, HSA_WAIT_STATE_BLOCKED), 1);
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  ASSERT_EQ(hsa_test_wait_eq(waited, 0), 0);
  ASSERT_EQ(*count, 4);
  ASSERT_EQ(hsa_queue_load_read_index_scacquire(q), hsa_queue_load_write_index_scacquire(q));
  struct places p;
  places_of(&e, q, 2 * e.compute_units, &p);
  ASSERT_EQ(p.count, 1);
  ASSERT_EQ(p.cu[0], cu_of_bit[0]);
  ASSERT_EQ(atomic_load(&err.calls), 0);
  ASSERT_EQ(hsa_signal_destroy(waited), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  gpu_queue_env_close(&e);
}
