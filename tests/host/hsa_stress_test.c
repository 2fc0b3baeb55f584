/*
 * hsa_stress_test.c - CPU agents under load: 64 queues x 10,000 dispatches
 * with no completion lost or doubled, many producers on one multi-producer
 * queue, and barrier chains that hop between agents.
 */
#include <stdatomic.h>
#include <string.h>

#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"

#define QUEUES     64
#define DISPATCHES 10000
#define PRODUCERS  4

struct count_args {
  _Atomic uint64_t *counter;
};

HSA_CPU_KERNEL(stress_count, sizeof(struct count_args)) {
  const struct count_args *a = hsa_dispatch->kernarg;
  atomic_fetch_add_explicit(a->counter, 1, memory_order_relaxed);
}

struct producer {
  hsa_queue_t **queues;
  struct count_args *args; /* one per queue */
  hsa_signal_t *done;      /* one per queue */
  int first, count;
};

static void producer_main(void *arg) {
  struct producer *p = arg;
  const uint32_t grid[3] = {1, 1, 1}, wg[3] = {1, 1, 1};
  uint16_t header = hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false);
  /* Round-robin over its queues so all of them are busy at once. */
  for (int i = 0; i < DISPATCHES; i++)
    for (int q = p->first; q < p->first + p->count; q++) {
      hsa_kernel_dispatch_packet_t pkt = hsa_test_dispatch_packet(
          &hsa_cpu_kernel_stress_count, 1, grid, wg, &p->args[q], p->done[q]);
      hsa_test_submit(p->queues[q], &pkt, header);
    }
}

TEST(hsa_stress_64_queues_x_10000_dispatches_lose_nothing) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t agents[2];
  uint32_t n = hsa_test_cpu_agents(agents, 2);
  static hsa_queue_t *queues[QUEUES];
  static hsa_signal_t done[QUEUES];
  static _Atomic uint64_t counters[QUEUES];
  static struct count_args args[QUEUES];
  struct hsa_test_queue_error err = {0, 0};
  for (int q = 0; q < QUEUES; q++) {
    HSA_ASSERT_OK(hsa_queue_create(agents[q % n], 256, HSA_QUEUE_TYPE_SINGLE,
                                   hsa_test_queue_error_callback, &err, 0, 0, &queues[q]));
    HSA_ASSERT_OK(hsa_signal_create(DISPATCHES, 0, NULL, &done[q]));
    atomic_store(&counters[q], 0);
    args[q].counter = &counters[q];
  }
  struct producer prod[PRODUCERS];
  int ids[PRODUCERS];
  for (int i = 0; i < PRODUCERS; i++) {
    prod[i] = (struct producer){queues, args, done, i * (QUEUES / PRODUCERS), QUEUES / PRODUCERS};
    ASSERT_GE(ids[i] = plat_worker_start("producer", producer_main, &prod[i]), 0);
  }
  for (int i = 0; i < PRODUCERS; i++) plat_worker_join(ids[i]);
  for (int q = 0; q < QUEUES; q++) {
    ASSERT_EQ(hsa_signal_wait_scacquire(done[q], HSA_SIGNAL_CONDITION_EQ, 0, 60000000000ull,
                                        HSA_WAIT_STATE_BLOCKED),
              0);
    ASSERT_EQ_U(atomic_load(&counters[q]), DISPATCHES); /* every kernel ran exactly once */
    ASSERT_EQ_U(hsa_queue_load_read_index_scacquire(queues[q]), DISPATCHES);
  }
  plat_sleep_ns(1000000);
  for (int q = 0; q < QUEUES; q++) {
    ASSERT_EQ(hsa_signal_load_scacquire(done[q]), 0); /* no completion doubled */
    HSA_ASSERT_OK(hsa_queue_destroy(queues[q]));
    HSA_ASSERT_OK(hsa_signal_destroy(done[q]));
  }
  ASSERT_EQ(atomic_load(&err.calls), 0);
  HSA_ASSERT_OK(hsa_shut_down());
}

struct mp_producer {
  hsa_queue_t *q;
  struct count_args *args;
  hsa_signal_t done;
};

#define MP_PACKETS 5000

static void mp_producer_main(void *arg) {
  struct mp_producer *p = arg;
  const uint32_t grid[3] = {1, 1, 1}, wg[3] = {1, 1, 1};
  for (int i = 0; i < MP_PACKETS; i++) {
    hsa_kernel_dispatch_packet_t pkt =
        hsa_test_dispatch_packet(&hsa_cpu_kernel_stress_count, 1, grid, wg, p->args, p->done);
    hsa_test_submit(p->q, &pkt, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  }
}

TEST(hsa_stress_many_producers_share_a_multi_producer_queue) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t agent;
  hsa_test_cpu_agents(&agent, 1);
  hsa_queue_t *q;
  HSA_ASSERT_OK(hsa_queue_create(agent, 128, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  hsa_signal_t done;
  HSA_ASSERT_OK(hsa_signal_create(PRODUCERS * MP_PACKETS, 0, NULL, &done));
  static _Atomic uint64_t counter;
  atomic_store(&counter, 0);
  struct count_args args = {&counter};
  struct mp_producer p = {q, &args, done};
  int ids[PRODUCERS];
  for (int i = 0; i < PRODUCERS; i++)
    ASSERT_GE(ids[i] = plat_worker_start("mp", mp_producer_main, &p), 0);
  for (int i = 0; i < PRODUCERS; i++) plat_worker_join(ids[i]);
  ASSERT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 60000000000ull,
                                      HSA_WAIT_STATE_BLOCKED),
            0);
  ASSERT_EQ_U(atomic_load(&counter), PRODUCERS * MP_PACKETS);
  HSA_ASSERT_OK(hsa_queue_destroy(q));
  HSA_ASSERT_OK(hsa_signal_destroy(done));
  HSA_ASSERT_OK(hsa_shut_down());
}

struct step_args {
  _Atomic uint64_t *sequence;
  uint64_t expect;
  _Atomic uint64_t *out_of_order;
};

HSA_CPU_KERNEL(stress_step, sizeof(struct step_args)) {
  const struct step_args *a = hsa_dispatch->kernarg;
  if (atomic_load(a->sequence) != a->expect) atomic_fetch_add(a->out_of_order, 1);
  atomic_store(a->sequence, a->expect + 1);
}

#define CHAIN 200

TEST(hsa_stress_barrier_chain_across_agents_runs_in_order) {
  HSA_ASSERT_OK(hsa_init());
  hsa_agent_t agents[2];
  uint32_t n = hsa_test_cpu_agents(agents, 2);
  hsa_queue_t *q[2];
  for (uint32_t i = 0; i < 2; i++)
    HSA_ASSERT_OK(
        hsa_queue_create(agents[i % n], 1024, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, 0, 0, &q[i]));
  static hsa_signal_t step_done[CHAIN];
  static struct step_args args[CHAIN];
  static _Atomic uint64_t sequence, out_of_order;
  atomic_store(&sequence, 0);
  atomic_store(&out_of_order, 0);
  for (int i = 0; i < CHAIN; i++) HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &step_done[i]));
  /* Step i runs on queue i % 2 (so on alternating agents) and may start
   * only when step i-1, on the other agent, has completed. Submit the whole
   * chain first, in reverse order of queues, so only barriers order it. */
  const uint32_t grid[3] = {1, 1, 1}, wg[3] = {1, 1, 1};
  for (int i = 0; i < CHAIN; i++) {
    args[i] = (struct step_args){&sequence, (uint64_t)i, &out_of_order};
    if (i > 0) {
      hsa_barrier_and_packet_t b;
      memset(&b, 0, sizeof b);
      b.dep_signal[i % 5] = step_done[i - 1];
      hsa_test_submit(q[i % 2], &b, hsa_test_header(HSA_PACKET_TYPE_BARRIER_AND, false));
    }
    hsa_kernel_dispatch_packet_t p =
        hsa_test_dispatch_packet(&hsa_cpu_kernel_stress_step, 1, grid, wg, &args[i], step_done[i]);
    hsa_test_submit(q[i % 2], &p, hsa_test_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false));
  }
  ASSERT_EQ(hsa_test_wait_eq(step_done[CHAIN - 1], 0), 0);
  ASSERT_EQ_U(atomic_load(&sequence), CHAIN);
  ASSERT_EQ_U(atomic_load(&out_of_order), 0);
  for (int i = 0; i < CHAIN; i++) {
    ASSERT_EQ(hsa_signal_load_relaxed(step_done[i]), 0);
    HSA_ASSERT_OK(hsa_signal_destroy(step_done[i]));
  }
  HSA_ASSERT_OK(hsa_queue_destroy(q[0]));
  HSA_ASSERT_OK(hsa_queue_destroy(q[1]));
  HSA_ASSERT_OK(hsa_shut_down());
}

#define INIT_THREADS 6

struct init_worker {
  int ok_inits, ok_shut_downs;
  uint32_t agents_seen;
};

static hsa_status_t count_agent(hsa_agent_t a, void *data) {
  (void)a;
  ++*(uint32_t *)data;
  return HSA_STATUS_SUCCESS;
}

static void init_worker_main(void *arg) {
  struct init_worker *w = arg;
  for (int i = 0; i < 10; i++) {
    if (hsa_init() != HSA_STATUS_SUCCESS) continue;
    w->ok_inits++;
    uint32_t n = 0;
    hsa_iterate_agents(count_agent, &n);
    if (n > w->agents_seen) w->agents_seen = n;
    if (hsa_shut_down() == HSA_STATUS_SUCCESS) w->ok_shut_downs++;
  }
}

TEST(hsa_stress_concurrent_init_and_shut_down_bring_up_one_runtime) {
  HSA_ASSERT_OK(hsa_init()); /* the reference agent count */
  uint32_t expected = 0;
  HSA_ASSERT_OK(hsa_iterate_agents(count_agent, &expected));
  HSA_ASSERT_OK(hsa_shut_down());
  struct init_worker w[INIT_THREADS];
  int ids[INIT_THREADS];
  memset(w, 0, sizeof w);
  for (int i = 0; i < INIT_THREADS; i++)
    ASSERT_GE(ids[i] = plat_worker_start("init", init_worker_main, &w[i]), 0);
  for (int i = 0; i < INIT_THREADS; i++) plat_worker_join(ids[i]);
  for (int i = 0; i < INIT_THREADS; i++) {
    ASSERT_EQ(w[i].ok_inits, 10);
    ASSERT_EQ(w[i].ok_shut_downs, 10);
    ASSERT_EQ(w[i].agents_seen, expected); /* never a doubled set of agents */
  }
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
