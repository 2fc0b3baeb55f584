/*
 * hsa_signal_threads_test.c - signals under contention from many threads:
 * atomicity of read-modify-write in every order, release/acquire message
 * passing, waiters woken by other threads and ping-pong hand-offs. Worker
 * threads record what they saw; the test thread asserts.
 */
#include <stdatomic.h>
#include <string.h>

#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"

#define THREADS    6
#define ITERATIONS 10000

struct rmw_worker {
  hsa_signal_t s;
  int index;
};

static void rmw_worker_main(void *arg) {
  struct rmw_worker *w = arg;
  /* Each thread uses another memory order; every add is undone by a
   * subtract except one +1 per iteration. */
  static void (*const add[])(hsa_signal_t, hsa_signal_value_t) = {
      hsa_signal_add_relaxed,     hsa_signal_add_scacquire, hsa_signal_add_screlease,
      hsa_signal_add_scacq_screl, hsa_signal_add_acquire,   hsa_signal_add_release};
  static void (*const sub[])(hsa_signal_t, hsa_signal_value_t) = {
      hsa_signal_subtract_relaxed,     hsa_signal_subtract_scacquire, hsa_signal_subtract_screlease,
      hsa_signal_subtract_scacq_screl, hsa_signal_subtract_acquire,   hsa_signal_subtract_release};
  for (int i = 0; i < ITERATIONS; i++) {
    add[w->index % 6](w->s, 3);
    sub[(w->index + 1) % 6](w->s, 2);
  }
}

TEST(hsa_signal_rmw_is_atomic_under_contention) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &s));
  struct rmw_worker w[THREADS];
  int ids[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i] = (struct rmw_worker){s, i};
    ids[i] = plat_worker_start("rmw", rmw_worker_main, &w[i]);
    ASSERT_GE(ids[i], 0);
  }
  for (int i = 0; i < THREADS; i++) plat_worker_join(ids[i]);
  ASSERT_EQ(hsa_signal_load_scacquire(s), (int64_t)THREADS * ITERATIONS);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

static void cas_worker_main(void *arg) {
  hsa_signal_t s = *(hsa_signal_t *)arg;
  for (int i = 0; i < ITERATIONS; i++) {
    hsa_signal_value_t seen = hsa_signal_load_relaxed(s), prev;
    while ((prev = hsa_signal_cas_scacq_screl(s, seen, seen + 1)) != seen) seen = prev;
  }
}

TEST(hsa_signal_cas_loop_loses_no_update) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &s));
  int ids[THREADS];
  for (int i = 0; i < THREADS; i++)
    ASSERT_GE(ids[i] = plat_worker_start("cas", cas_worker_main, &s), 0);
  for (int i = 0; i < THREADS; i++) plat_worker_join(ids[i]);
  ASSERT_EQ(hsa_signal_load_relaxed(s), (int64_t)THREADS * ITERATIONS);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

#define MESSAGES 5000

struct mailbox {
  hsa_signal_t ready; /* value = messages published */
  hsa_signal_t taken; /* value = messages consumed */
  uint64_t payload[8];
  int mismatches;
};

static void consumer_main(void *arg) {
  struct mailbox *m = arg;
  for (int i = 1; i <= MESSAGES; i++) {
    hsa_signal_wait_scacquire(m->ready, HSA_SIGNAL_CONDITION_GTE, i, UINT64_MAX,
                              (i & 1) ? HSA_WAIT_STATE_ACTIVE : HSA_WAIT_STATE_BLOCKED);
    /* The payload written before the release store must be visible. */
    for (int k = 0; k < 8; k++)
      if (m->payload[k] != (uint64_t)i * 8 + (uint64_t)k) m->mismatches++;
    hsa_signal_store_screlease(m->taken, i);
  }
}

TEST(hsa_signal_release_acquire_passes_messages) {
  HSA_ASSERT_OK(hsa_init());
  struct mailbox m;
  memset(&m, 0, sizeof m);
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &m.ready));
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &m.taken));
  int id = plat_worker_start("consumer", consumer_main, &m);
  ASSERT_GE(id, 0);
  for (int i = 1; i <= MESSAGES; i++) {
    for (int k = 0; k < 8; k++) m.payload[k] = (uint64_t)i * 8 + (uint64_t)k;
    hsa_signal_store_screlease(m.ready, i);
    ASSERT_EQ(hsa_signal_wait_scacquire(m.taken, HSA_SIGNAL_CONDITION_EQ, i, 10000000000ull,
                                        HSA_WAIT_STATE_BLOCKED),
              i);
  }
  plat_worker_join(id);
  ASSERT_EQ(m.mismatches, 0);
  HSA_ASSERT_OK(hsa_signal_destroy(m.ready));
  HSA_ASSERT_OK(hsa_signal_destroy(m.taken));
  HSA_ASSERT_OK(hsa_shut_down());
}

struct sleeper {
  hsa_signal_t s;
  hsa_signal_value_t seen;
  uint64_t woke_ns;
};

static void sleeper_main(void *arg) {
  struct sleeper *z = arg;
  z->seen = hsa_signal_wait_scacquire(z->s, HSA_SIGNAL_CONDITION_LT, 0, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED);
  z->woke_ns = plat_now_ns();
}

TEST(hsa_signal_blocked_waiters_wake_on_store) {
  HSA_ASSERT_OK(hsa_init());
  struct sleeper z[4];
  int ids[4];
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(5, 0, NULL, &s));
  for (int i = 0; i < 4; i++) {
    z[i] = (struct sleeper){s, 0, 0};
    ASSERT_GE(ids[i] = plat_worker_start("sleeper", sleeper_main, &z[i]), 0);
  }
  plat_sleep_ns(50000000); /* long enough that all of them sleep (past the spin) */
  uint64_t stored = plat_now_ns();
  hsa_signal_store_screlease(s, -3);
  for (int i = 0; i < 4; i++) {
    plat_worker_join(ids[i]);
    ASSERT_EQ(z[i].seen, -3);
    /* Woken by the store, not by the 1 ms back-off alone: well within 1 s. */
    ASSERT_LT(z[i].woke_ns - stored, 1000000000ull);
  }
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

#define PINGS 5000

static void ponger_main(void *arg) {
  hsa_signal_t *sig = arg;
  for (hsa_signal_value_t i = 1; i <= PINGS; i++) {
    hsa_signal_wait_scacquire(sig[0], HSA_SIGNAL_CONDITION_EQ, i, UINT64_MAX,
                              HSA_WAIT_STATE_BLOCKED);
    hsa_signal_store_screlease(sig[1], i);
  }
}

TEST(hsa_signal_ping_pong_between_threads) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t sig[2];
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &sig[0]));
  HSA_ASSERT_OK(hsa_signal_create(0, 0, NULL, &sig[1]));
  int id = plat_worker_start("ponger", ponger_main, sig);
  ASSERT_GE(id, 0);
  for (hsa_signal_value_t i = 1; i <= PINGS; i++) {
    hsa_signal_store_screlease(sig[0], i);
    ASSERT_EQ(hsa_signal_wait_scacquire(sig[1], HSA_SIGNAL_CONDITION_EQ, i, 10000000000ull,
                                        HSA_WAIT_STATE_BLOCKED),
              i);
  }
  plat_worker_join(id);
  HSA_ASSERT_OK(hsa_signal_destroy(sig[0]));
  HSA_ASSERT_OK(hsa_signal_destroy(sig[1]));
  HSA_ASSERT_OK(hsa_shut_down());
}
