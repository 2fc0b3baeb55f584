/*
 * event.h - a wake-up channel: "something may have changed, look again".
 *
 * A waiter reads the sequence number, checks its condition, and sleeps in
 * event_wait until the number moves (or a timeout passes). A notifier bumps
 * the number and, only if someone sleeps, calls plat_wake: a notify with no
 * sleeper costs one atomic add, so the hot paths (signal stores, doorbells)
 * stay cheap while everybody spins.
 */
#ifndef HSA_EVENT_H
#define HSA_EVENT_H

#include <stdatomic.h>
#include <stdint.h>

struct event {
  _Atomic uint32_t seq;
  _Atomic uint32_t sleepers;
};

static inline uint32_t event_snapshot(struct event *e) {
  return atomic_load_explicit(&e->seq, memory_order_seq_cst);
}

void event_notify(struct event *e);

/* Sleeps while e->seq == seen, at most timeout_ns (UINT64_MAX: no limit).
 * May return early; callers re-check their condition. */
void event_wait(struct event *e, uint32_t seen, uint64_t timeout_ns);

#endif
