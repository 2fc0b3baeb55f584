/*
 * hsa_signal_event_test.c - interrupt events of signals (hsa/signal_event.c):
 * every signal a program creates gets a mailbox and an event id; a waiter
 * on such a signal sleeps until an announcement (an API change, or the
 * GPU's end-of-pipe interrupt through signal_event_interrupt) instead of
 * polling, and the interrupt wakes it at once. Behaviour, not timing: a
 * value changed the way the GPU changes it, with nobody announcing it, must
 * leave the waiter asleep; the interrupt must then wake it.
 */
#include <stdatomic.h>
#include <string.h>

#include "hsa/runtime.h"
#include "hsa/signal.h"
#include "lib/plat.h"
#include "tests/common/hsa_test_util.h"

struct waiter {
  hsa_signal_t s;
  hsa_signal_value_t seen;
  _Atomic bool done;
};

static void waiter_main(void *arg) {
  struct waiter *w = arg;
  /* A blocked wait with a long hint: only an announcement ends it early. */
  w->seen = hsa_signal_wait_scacquire(w->s, HSA_SIGNAL_CONDITION_EQ, 0, 60ull * 1000000000,
                                      HSA_WAIT_STATE_BLOCKED);
  atomic_store(&w->done, true);
}

/* Starts a waiter on s and returns once it sleeps: counted as a waiter of
 * s and as a sleeper of the runtime's signal event, then given 10 ms to
 * pass its last look at the value (a change before that look is seen
 * without any announcement, rightly; on a loaded machine the look can come
 * late). */
static int start_sleeping_waiter(struct waiter *w, hsa_signal_t s) {
  *w = (struct waiter){.s = s, .seen = -1};
  int id = plat_worker_start("event-waiter", waiter_main, w);
  struct signal *sig = signal_from_handle(s);
  for (int i = 0; i < 10000 &&
                  (atomic_load(&sig->waiters) == 0 || atomic_load(&rt.signal_event.sleepers) == 0);
       i++)
    plat_sleep_ns(100000);
  plat_sleep_ns(10000000);
  return id;
}

/* What the command processor does on completion: the value changes, the
 * event id goes into the mailbox (vapu/cp_packet.c signal_event). */
static void change_as_the_gpu_does(hsa_signal_t s, hsa_signal_value_t v) {
  amd_signal_t *amd = (amd_signal_t *)(uintptr_t)s.handle;
  __atomic_store_n(&amd->value, v, __ATOMIC_RELEASE);
  __atomic_store_n((uint32_t *)(uintptr_t)amd->event_mailbox_ptr, amd->event_id, __ATOMIC_RELEASE);
}

TEST(hsa_signal_event_every_program_signal_gets_a_mailbox) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t a, b, gpu_only;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &a));
  HSA_ASSERT_OK(hsa_amd_signal_create(1, 0, NULL, 0, &b));
  HSA_ASSERT_OK(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &gpu_only));
  const amd_signal_t *sa = (const amd_signal_t *)(uintptr_t)a.handle;
  const amd_signal_t *sb = (const amd_signal_t *)(uintptr_t)b.handle;
  const amd_signal_t *sg = (const amd_signal_t *)(uintptr_t)gpu_only.handle;
  ASSERT_NE(sa->event_mailbox_ptr, 0);
  ASSERT_NE(sa->event_id, 0);
  ASSERT_NE(sa->event_id, sb->event_id);
  ASSERT_NE(sa->event_mailbox_ptr, sb->event_mailbox_ptr);
  /* ROCr: a signal only GPUs wait on is busy-wait, without an event. */
  ASSERT_EQ(sg->event_mailbox_ptr, 0);
  ASSERT_EQ(sg->event_id, 0);
  uint32_t id = sa->event_id;
  HSA_ASSERT_OK(hsa_signal_destroy(a));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &a)); /* the freed event is used again */
  ASSERT_EQ(((const amd_signal_t *)(uintptr_t)a.handle)->event_id, id);
  HSA_ASSERT_OK(hsa_signal_destroy(a));
  HSA_ASSERT_OK(hsa_signal_destroy(b));
  HSA_ASSERT_OK(hsa_signal_destroy(gpu_only));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_signal_event_interrupt_wakes_a_sleeping_waiter) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &s));
  uint64_t missed = signal_missed_announcements();
  struct waiter w;
  int id = start_sleeping_waiter(&w, s);
  ASSERT_GE(id, 0);
  change_as_the_gpu_does(s, 0);
  /* Nobody announced the change: the waiter sleeps on, it does not poll. */
  plat_sleep_ns(30000000);
  ASSERT_FALSE(atomic_load(&w.done));
  /* The end-of-pipe interrupt names the event: the waiter wakes. */
  signal_event_interrupt(((const amd_signal_t *)(uintptr_t)s.handle)->event_id);
  plat_worker_join(id);
  ASSERT_EQ(w.seen, 0);
  ASSERT_EQ(signal_missed_announcements(), missed); /* woken, not timed out */
  /* The slot is armed again for the next completion. */
  ASSERT_EQ_U(
      *(const uint64_t *)(uintptr_t)((const amd_signal_t *)(uintptr_t)s.handle)->event_mailbox_ptr,
      UINT64_MAX);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_signal_event_interrupt_without_id_finds_the_written_mailbox) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t other, s;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &other));
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &s));
  struct waiter w;
  int id = start_sleeping_waiter(&w, s);
  ASSERT_GE(id, 0);
  change_as_the_gpu_does(s, 0);
  /* An id that names no event (hardware that delivers a partial one):
   * the written slot tells which signal changed. */
  signal_event_interrupt(0);
  plat_worker_join(id);
  ASSERT_EQ(w.seen, 0);
  signal_event_interrupt(SIGNAL_EVENTS_MAX + 7); /* nothing written: nothing to do */
  ASSERT_EQ(hsa_signal_load_relaxed(other), 1);
  HSA_ASSERT_OK(hsa_signal_destroy(other));
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_signal_event_api_change_wakes_and_gpu_only_signals_poll) {
  HSA_ASSERT_OK(hsa_init());
  hsa_signal_t s, gpu_only;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &s));
  HSA_ASSERT_OK(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &gpu_only));
  struct waiter w;
  int id = start_sleeping_waiter(&w, s);
  hsa_signal_store_screlease(s, 0); /* an API change is its own announcement */
  plat_worker_join(id);
  ASSERT_EQ(w.seen, 0);
  /* Without an event nothing announces a GPU change: the waiter backs off
   * and polls, and sees it without any interrupt. */
  id = start_sleeping_waiter(&w, gpu_only);
  amd_signal_t *amd = (amd_signal_t *)(uintptr_t)gpu_only.handle;
  __atomic_store_n(&amd->value, 0, __ATOMIC_RELEASE);
  plat_worker_join(id);
  ASSERT_EQ(w.seen, 0);
  HSA_ASSERT_OK(hsa_signal_destroy(s));
  HSA_ASSERT_OK(hsa_signal_destroy(gpu_only));
  HSA_ASSERT_OK(hsa_shut_down());
}

TEST(hsa_signal_event_runs_out_like_kfd_then_signals_poll) {
  HSA_ASSERT_OK(hsa_init());
  static hsa_signal_t many[SIGNAL_EVENTS_MAX + 1];
  for (int i = 0; i <= SIGNAL_EVENTS_MAX; i++)
    HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &many[i]));
  /* All events in use: the last signal has none, and still works. */
  const amd_signal_t *last = (const amd_signal_t *)(uintptr_t)many[SIGNAL_EVENTS_MAX].handle;
  ASSERT_EQ(last->event_mailbox_ptr, 0);
  struct waiter w;
  int id = start_sleeping_waiter(&w, many[SIGNAL_EVENTS_MAX]);
  __atomic_store_n(&((amd_signal_t *)(uintptr_t)last)->value, 0, __ATOMIC_RELEASE);
  plat_worker_join(id);
  ASSERT_EQ(w.seen, 0);
  HSA_ASSERT_OK(hsa_signal_destroy(many[0]));
  hsa_signal_t again;
  HSA_ASSERT_OK(hsa_signal_create(1, 0, NULL, &again));
  ASSERT_NE(((const amd_signal_t *)(uintptr_t)again.handle)->event_mailbox_ptr, 0);
  HSA_ASSERT_OK(hsa_shut_down()); /* frees the rest */
}
