/* More GPU queues than hardware slots (32 HQDs): every queue a program
 * opens, up to HSA_AGENT_INFO_QUEUES_MAX, runs its packets in order with
 * the AQL semantics of a resident one; a queue swapped out keeps its
 * indices, its pending packets and its errors; waiting queues are served
 * by priority. Kernels: tests/data/gpu/queues.cl and faults.cl. */
#include <stdatomic.h>
#include <string.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "lib/plat.h"
#include "lib/test.h"
#include "tests/common/gpu_queue_test_util.h"
#include "tests/common/hsa_test_util.h"

#define SLOTS 32            /* the driver's HQDs: MEC1, 4 pipes x 8 queues */
#define MAX_QUEUES 128      /* what ROCr reports on KFD, and this runtime */
#define QUEUE_PACKETS 64 /* the GPU agent's smallest queue (HSA_AGENT_INFO_QUEUE_MIN_SIZE) */
#define SECOND_NS 1000000000ull

TEST(gpu_agent_queues_max_is_what_a_program_can_open) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  uint32_t max = 0;
  ASSERT_EQ(hsa_agent_get_info(e.gpu, HSA_AGENT_INFO_QUEUES_MAX, &max), HSA_STATUS_SUCCESS);
  ASSERT_EQ(max, MAX_QUEUES);
  hsa_queue_t *q[MAX_QUEUES], *extra = NULL;
  for (uint32_t i = 0; i < max; i++) q[i] = gpu_queue_env_queue(&e, QUEUE_PACKETS, NULL);
  ASSERT_EQ(hsa_queue_create(e.gpu, QUEUE_PACKETS, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &extra),
            HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ASSERT_NULL(extra);
  /* One freed, one more. */
  ASSERT_EQ(hsa_queue_destroy(q[40]), HSA_STATUS_SUCCESS);
  q[40] = gpu_queue_env_queue(&e, QUEUE_PACKETS, NULL);
  for (uint32_t i = 0; i < max; i++) ASSERT_EQ(hsa_queue_destroy(q[i]), HSA_STATUS_SUCCESS);
  gpu_queue_env_close(&e);
}

/* `n` queues, each: step(v, 1 + j); a barrier on the next queue's first
 * dispatch (a ring of dependencies across queues, so that resident queues
 * block on ones that are swapped out); step(v, 1000 + j). v = 3 v + k
 * gives (1 + j) * 3 + 1000 + j only in that order. */
static void run_chained_queues(uint32_t n) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  hsa_queue_t *q[MAX_QUEUES];
  hsa_signal_t first[MAX_QUEUES], last[MAX_QUEUES];
  struct hsa_test_queue_error err[MAX_QUEUES];
  memset(err, 0, sizeof err);
  uint64_t *v = gpu_queue_env_alloc(&e, n * sizeof *v);
  uint64_t swaps = gpu_queue_env_swap_ins();
  for (uint32_t j = 0; j < n; j++) {
    q[j] = gpu_queue_env_queue(&e, QUEUE_PACKETS, &err[j]);
    ASSERT_EQ(hsa_signal_create(1, 0, NULL, &first[j]), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_create(1, 0, NULL, &last[j]), HSA_STATUS_SUCCESS);
  }
  for (uint32_t j = 0; j < n; j++) {
    gpu_queue_env_dispatch(&e, q[j], &e.step, 64, 64, (uint64_t)(uintptr_t)&v[j], 1 + j, first[j]);
    gpu_queue_env_barrier(q[j], first[(j + 1) % n], (hsa_signal_t){0});
    gpu_queue_env_dispatch(&e, q[j], &e.step, 64, 64, (uint64_t)(uintptr_t)&v[j], 1000 + j, last[j]);
  }
  for (uint32_t j = 0; j < n; j++) ASSERT_EQ(hsa_test_wait_eq(last[j], 0), 0);
  for (uint32_t j = 0; j < n; j++) {
    ASSERT_EQ(v[j], (1 + j) * 3ull + 1000 + j);
    ASSERT_EQ(hsa_queue_load_read_index_scacquire(q[j]), 3);
    ASSERT_EQ(hsa_queue_load_write_index_scacquire(q[j]), 3);
    ASSERT_EQ(atomic_load(&err[j].calls), 0);
  }
  /* Beyond the slots, queues were swapped in and out to get there. */
  if (n > SLOTS) ASSERT_GE(gpu_queue_env_swap_ins() - swaps, n - SLOTS);
  for (uint32_t j = 0; j < n; j++) {
    ASSERT_EQ(hsa_queue_destroy(q[j]), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_destroy(first[j]), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_destroy(last[j]), HSA_STATUS_SUCCESS);
  }
  gpu_queue_env_close(&e);
}

TEST(gpu_agent_32_queues_run_dispatches_and_barrier_chains_in_order) { run_chained_queues(SLOTS); }
TEST(gpu_agent_64_queues_run_dispatches_and_barrier_chains_in_order) { run_chained_queues(64); }
TEST(gpu_agent_128_queues_run_dispatches_and_barrier_chains_in_order) { run_chained_queues(MAX_QUEUES); }

/* `n` queues whose first packet waits on `gate`: the first 32 hold the
 * slots with a barrier that cannot complete, the others wait. */
struct gated {
  hsa_queue_t *q[MAX_QUEUES];
  struct hsa_test_queue_error err[MAX_QUEUES];
  hsa_signal_t gate, passed[MAX_QUEUES];
  uint32_t n;
};

static void gated_open(struct gpu_queue_env *e, struct gated *g, uint32_t n) {
  memset(g, 0, sizeof *g);
  g->n = n;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &g->gate), HSA_STATUS_SUCCESS);
  for (uint32_t j = 0; j < n; j++) {
    g->q[j] = gpu_queue_env_queue(e, QUEUE_PACKETS, &g->err[j]);
    ASSERT_EQ(hsa_signal_create(1, 0, NULL, &g->passed[j]), HSA_STATUS_SUCCESS);
    gpu_queue_env_barrier(g->q[j], g->gate, g->passed[j]);
  }
}

/* True once queue j's barrier has passed or its error was reported (the
 * runtime calls error callbacks from its own thread, in no set order, so
 * a queue stopped with another one's VMID may report after that one). */
static bool gated_passed_or_reported(struct gated *g, uint32_t j) {
  uint64_t until = plat_now_ns() + 10 * SECOND_NS;
  while (atomic_load(&g->err[j].calls) == 0) {
    if (hsa_signal_wait_scacquire(g->passed[j], HSA_SIGNAL_CONDITION_EQ, 0, 10000000, HSA_WAIT_STATE_BLOCKED) == 0)
      return true;
    if (plat_now_ns() > until) return false;
  }
  return true;
}

static void gated_release_and_close(struct gated *g) {
  hsa_signal_store_screlease(g->gate, 0);
  for (uint32_t j = 0; j < g->n; j++) {
    ASSERT_MSG(gated_passed_or_reported(g, j), "gated queue %u neither passed its gate nor reported an error", j);
    ASSERT_EQ(hsa_queue_destroy(g->q[j]), HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_signal_destroy(g->passed[j]), HSA_STATUS_SUCCESS);
  }
  ASSERT_EQ(hsa_signal_destroy(g->gate), HSA_STATUS_SUCCESS);
}

/* Waits (waking every 10 ms, as a program waiting on a signal) until `s`
 * is 0 or `limit_ns` passes; true if it got there. */
static bool completes_within(hsa_signal_t s, uint64_t limit_ns) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, limit_ns, HSA_WAIT_STATE_BLOCKED) == 0;
}

TEST(gpu_agent_swapped_out_queues_keep_indices_and_pending_packets) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  struct gated g;
  gated_open(&e, &g, SLOTS + 1);
  uint64_t *v = gpu_queue_env_alloc(&e, g.n * sizeof *v);
  hsa_signal_t done[SLOTS + 1];
  for (uint32_t j = 0; j < g.n; j++) {
    ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done[j]), HSA_STATUS_SUCCESS);
    gpu_queue_env_dispatch(&e, g.q[j], &e.step, 64, 64, (uint64_t)(uintptr_t)&v[j], 7 + j, done[j]);
  }
  /* Every queue waits at its gate; for 200 ms (20 turns) they take turns in
   * the slots: nothing runs, nothing is lost. */
  uint64_t swaps = gpu_queue_env_swap_ins();
  plat_sleep_ns(SECOND_NS / 5);
  ASSERT_GE(gpu_queue_env_swap_ins() - swaps, 1);
  for (uint32_t j = 0; j < g.n; j++) {
    ASSERT_EQ(hsa_signal_load_scacquire(g.passed[j]), 1);
    ASSERT_EQ(hsa_signal_load_scacquire(done[j]), 1);
    ASSERT_EQ(hsa_queue_load_read_index_scacquire(g.q[j]), 0);
    ASSERT_EQ(hsa_queue_load_write_index_scacquire(g.q[j]), 2);
  }
  /* Open the gate: each queue's barrier, then its dispatch, once. */
  hsa_signal_store_screlease(g.gate, 0);
  for (uint32_t j = 0; j < g.n; j++) {
    ASSERT_EQ(hsa_test_wait_eq(done[j], 0), 0);
    ASSERT_EQ(v[j], 7 + j);
    ASSERT_EQ(hsa_queue_load_read_index_scacquire(g.q[j]), 2);
    ASSERT_EQ(atomic_load(&g.err[j].calls), 0);
    ASSERT_EQ(hsa_signal_destroy(done[j]), HSA_STATUS_SUCCESS);
  }
  gated_release_and_close(&g);
  gpu_queue_env_close(&e);
}

/* A queue that starts swapped out (every slot holds a gated queue) and
 * whose dispatch fails once it is in: its error is its own. */
static void fault_on_a_swapped_out_queue(const char *kernel, hsa_status_t want) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  struct gated g;
  gated_open(&e, &g, SLOTS);
  struct hsa_test_queue_error err = {0};
  hsa_queue_t *bad = gpu_queue_env_queue(&e, QUEUE_PACKETS, &err);
  hsa_signal_t done;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
  const struct gpu_kernel *k = strcmp(kernel, "trap") == 0 ? &e.trap : &e.store;
  uint64_t out = strcmp(kernel, "trap") == 0 ? (uint64_t)(uintptr_t)gpu_queue_env_alloc(&e, 256 * 4)
                                            : 0x0000700000000000ull; /* no memory there */
  gpu_queue_env_dispatch(&e, bad, k, 256, 256, out, 0, done);
  uint64_t until = plat_now_ns() + 30 * SECOND_NS;
  while (atomic_load(&err.calls) == 0) {
    ASSERT_LT(plat_now_ns(), until);
    ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 10000000, HSA_WAIT_STATE_BLOCKED), 1);
  }
  ASSERT_EQ(atomic_load(&err.status), (int)want);
  ASSERT_EQ(hsa_signal_load_scacquire(done), 1);
  /* The gated queues go on when their gate opens (a page fault stops the
   * faulting queue's VMID partners as well: gated_release_and_close
   * expects nothing of those that reported an error). */
  if (want == HSA_STATUS_ERROR_EXCEPTION)
    for (uint32_t j = 0; j < g.n; j++) ASSERT_EQ(atomic_load(&g.err[j].calls), 0);
  gated_release_and_close(&g);
  ASSERT_EQ(hsa_queue_destroy(bad), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  gpu_queue_env_close(&e);
}

TEST(gpu_agent_trap_on_a_swapped_out_queue_stops_only_it) {
  fault_on_a_swapped_out_queue("trap", HSA_STATUS_ERROR_EXCEPTION);
}

TEST(gpu_agent_page_fault_on_a_swapped_out_queue_is_its_memory_fault) {
  fault_on_a_swapped_out_queue("store", (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT);
}

/* Every slot holds a gated queue of normal priority: a high-priority queue
 * takes a slot from one after its turn; a low-priority one waits (no
 * queue of higher priority gives up its slot for it) until its priority
 * is raised. */
TEST(gpu_agent_waiting_queues_are_served_by_priority) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  struct gated g;
  gated_open(&e, &g, SLOTS);
  hsa_queue_t *low = gpu_queue_env_queue(&e, QUEUE_PACKETS, NULL), *high = gpu_queue_env_queue(&e, QUEUE_PACKETS, NULL);
  ASSERT_EQ(hsa_amd_queue_set_priority(low, HSA_AMD_QUEUE_PRIORITY_LOW), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_queue_set_priority(high, HSA_AMD_QUEUE_PRIORITY_HIGH), HSA_STATUS_SUCCESS);
  uint64_t *v = gpu_queue_env_alloc(&e, 2 * sizeof *v);
  hsa_signal_t low_done, high_done;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &low_done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &high_done), HSA_STATUS_SUCCESS);
  gpu_queue_env_dispatch(&e, low, &e.step, 64, 64, (uint64_t)(uintptr_t)&v[0], 1, low_done);
  gpu_queue_env_dispatch(&e, high, &e.step, 64, 64, (uint64_t)(uintptr_t)&v[1], 2, high_done);
  gpu_queue_env_barrier(high, g.gate, (hsa_signal_t){0}); /* then it too waits at the gate */
  ASSERT_TRUE(completes_within(high_done, 10 * SECOND_NS));
  ASSERT_FALSE(completes_within(low_done, SECOND_NS / 5));
  ASSERT_EQ(hsa_amd_queue_set_priority(low, HSA_AMD_QUEUE_PRIORITY_HIGH), HSA_STATUS_SUCCESS);
  ASSERT_TRUE(completes_within(low_done, 10 * SECOND_NS));
  ASSERT_EQ(v[0], 1);
  ASSERT_EQ(v[1], 2);
  gated_release_and_close(&g);
  ASSERT_EQ(hsa_queue_destroy(low), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_destroy(high), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(low_done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(high_done), HSA_STATUS_SUCCESS);
  gpu_queue_env_close(&e);
}

/* The longest-resident queue runs a dispatch that does not end (until the
 * test lets it): drained for a waiting queue, it keeps its slot until the
 * dispatch ends; after a quantum the scheduler takes another queue's slot
 * instead, so the waiting queue does not wait for the long dispatch. */
TEST(gpu_agent_waiting_queue_is_not_held_up_by_a_long_dispatch) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  struct hsa_test_queue_error long_err = {0};
  hsa_queue_t *busy = gpu_queue_env_queue(&e, QUEUE_PACKETS, &long_err);
  int *count = gpu_queue_env_alloc(&e, 64), *flag = gpu_queue_env_alloc(&e, 64);
  hsa_signal_t long_done, done;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &long_done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
  gpu_queue_env_dispatch(&e, busy, &e.count_and_wait, 64, 64, (uint64_t)(uintptr_t)count, (uint64_t)(uintptr_t)flag,
                         long_done);
  struct gated g;
  gated_open(&e, &g, SLOTS - 1);
  hsa_queue_t *waiting = gpu_queue_env_queue(&e, QUEUE_PACKETS, NULL);
  uint64_t *v = gpu_queue_env_alloc(&e, sizeof *v);
  gpu_queue_env_dispatch(&e, waiting, &e.step, 64, 64, (uint64_t)(uintptr_t)v, 5, done);
  ASSERT_TRUE(completes_within(done, 10 * SECOND_NS));
  ASSERT_EQ(*v, 5);
  ASSERT_EQ(hsa_signal_load_scacquire(long_done), 1);
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  ASSERT_EQ(hsa_test_wait_eq(long_done, 0), 0);
  ASSERT_EQ(*count, 1);
  ASSERT_EQ(atomic_load(&long_err.calls), 0);
  gated_release_and_close(&g);
  ASSERT_EQ(hsa_queue_destroy(busy), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_destroy(waiting), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(long_done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  gpu_queue_env_close(&e);
}

/* A kernel that waits for memory a kernel on another queue writes: on the
 * chip both run at once on different CUs; the virtual APU gives the other
 * queue turns while the waiting work-group runs. */
TEST(gpu_agent_kernel_waiting_for_another_queues_kernel_completes) {
  struct gpu_queue_env e;
  gpu_queue_env_open(&e);
  hsa_queue_t *consumer = gpu_queue_env_queue(&e, QUEUE_PACKETS, NULL);
  hsa_queue_t *producer = gpu_queue_env_queue(&e, QUEUE_PACKETS, NULL);
  int *count = gpu_queue_env_alloc(&e, 64);
  uint64_t *flag = gpu_queue_env_alloc(&e, 64); /* count_and_wait reads its low int */
  hsa_signal_t consumed, produced;
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &consumed), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &produced), HSA_STATUS_SUCCESS);
  gpu_queue_env_dispatch(&e, consumer, &e.count_and_wait, 2 * 64, 64, (uint64_t)(uintptr_t)count,
                         (uint64_t)(uintptr_t)flag, consumed);
  uint64_t until = plat_now_ns() + 10 * SECOND_NS;
  while (__atomic_load_n(count, __ATOMIC_ACQUIRE) == 0) ASSERT_LT(plat_now_ns(), until);
  gpu_queue_env_dispatch(&e, producer, &e.step, 64, 64, (uint64_t)(uintptr_t)flag, 1, produced); /* flag = 1 */
  ASSERT_EQ(hsa_test_wait_eq(produced, 0), 0);
  ASSERT_EQ(hsa_test_wait_eq(consumed, 0), 0);
  ASSERT_EQ(*count, 2);
  ASSERT_EQ(hsa_queue_destroy(consumer), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_queue_destroy(producer), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(consumed), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_destroy(produced), HSA_STATUS_SUCCESS);
  gpu_queue_env_close(&e);
}
