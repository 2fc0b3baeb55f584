/*
 * event.h - a wake-up channel: "something may have changed, look again".
 *
 * Notifier, after publishing its change (a packet header, a signal value):
 *     event_notify(e);       fence, and only if someone sleeps: bump + wake
 * Waiter:
 *     uint32_t seen = event_prepare_wait(e);   counts itself as a sleeper
 *     if (!condition) event_commit_wait(e, seen, timeout);
 *     event_cancel_wait(e);
 *
 * Why it cannot lose a wake-up: the waiter counts itself (seq_cst) before
 * it checks; the notifier publishes, fences, then reads the count. Either
 * the notifier sees the sleeper and bumps seq (so plat_wait returns), or
 * the waiter's check comes after the publication and sees it. A notify
 * with nobody asleep costs a fence and a read of a shared line, so hot
 * paths stay cheap while every party spins.
 */
#ifndef HSA_EVENT_H
#define HSA_EVENT_H

#include <stdatomic.h>
#include <stdint.h>

struct event {
  _Atomic uint32_t seq;
  _Atomic uint32_t sleepers;
};

void event_notify(struct event *e);

static inline uint32_t event_prepare_wait(struct event *e) {
  atomic_fetch_add_explicit(&e->sleepers, 1, memory_order_seq_cst);
  return atomic_load_explicit(&e->seq, memory_order_seq_cst);
}

/* Sleeps while seq == seen, at most timeout_ns (UINT64_MAX: no limit). May
 * return early; callers re-check. */
void event_commit_wait(struct event *e, uint32_t seen, uint64_t timeout_ns);

static inline void event_cancel_wait(struct event *e) {
  atomic_fetch_sub_explicit(&e->sleepers, 1, memory_order_relaxed);
}

#endif
