/*
 * signal.h - signals inside the runtime.
 *
 * A signal is an amd_signal_t (64 bytes, the hardware-visible part; its
 * address is the hsa_signal_t handle) followed by the runtime's bookkeeping.
 * The GPU and the CPU agents read and decrement amd.value directly.
 *
 * Waking waiters: a signal counts its sleeping waiters; every change made
 * through the API (or a CPU agent's completion) notifies rt.signal_event if
 * the count is non-zero. A change the GPU makes is announced by its
 * end-of-pipe interrupt when the signal has an event (signal_event.c):
 * waiters on such signals sleep until woken (SIGNAL_WAIT_EVENT_MAX_SLEEP_NS
 * is only a safety net). Waiters on signals without one sleep with a
 * bounded back-off, so a change made without a notification is still seen
 * within SIGNAL_WAIT_MAX_SLEEP_NS.
 */
#ifndef HSA_SIGNAL_H
#define HSA_SIGNAL_H

#include <hsa/amd_hsa_signal.h>

#include "hsa/runtime.h"

#define SIGNAL_WAIT_MAX_SLEEP_NS 1000000u /* longest sleep between checks: 1 ms */
/* Waiters on signals with events: a safety net for a change nobody
 * announces (a kernel that stores to a signal without s_sendmsg, a lost
 * interrupt); it also paces gpu_agents_watchdog for them. */
#define SIGNAL_WAIT_EVENT_MAX_SLEEP_NS 1000000000ull

struct signal {
  amd_signal_t amd;
  _Atomic uint32_t waiters; /* sleeping waiters (wait, groups, handlers) */
  /* Doorbell signals: called after each store, e.g. to wake a CPU agent. */
  void (*ring)(struct signal *s, int64_t value);
  void *ring_arg;
  uint64_t attributes; /* hsa_amd_signal_attribute_t bits */
};

static inline struct signal *signal_from_handle(hsa_signal_t h) {
  return (struct signal *)(uintptr_t)h.handle;
}
static inline hsa_signal_t signal_handle(const struct signal *s) {
  hsa_signal_t h = {(uint64_t)(uintptr_t)s};
  return h;
}

/* True if h names a live signal. */
bool signal_is_valid(hsa_signal_t h);

/* The same, remembering the last answer until any signal is destroyed:
 * packet processors check each packet's completion signal this way. */
struct signal_check {
  uint64_t handle;
  uint64_t epoch;
};
bool signal_is_valid_cached(hsa_signal_t h, struct signal_check *check);

/* ---- Interrupt events (signal_event.c) ----------------------------------
 * attach gives a signal an event id and mailbox slot (none left: it keeps
 * event_mailbox_ptr 0 and is polled); detach returns them (destroy). */
void signal_event_attach(struct signal *s);
void signal_event_detach(struct signal *s);
static inline bool signal_has_event(const struct signal *s) {
  return s->amd.event_mailbox_ptr != 0;
}
/* THE SEAM for the GPU agent's end-of-pipe interrupt handler: the CP wrote
 * `event_id` (the IH entry's context id, src_data[0]) into a signal's
 * mailbox. Wakes that signal's waiters; an id that names no live event
 * (0, or a partial id) makes it scan the mailbox for every written slot.
 * Interrupt context safe: atomics and plat_wake only, no lock, no alloc. */
void signal_event_interrupt(uint32_t event_id);
void signal_events_fini(void);
/* How many waits on signals with events found their condition met only
 * when the safety net ran out: changes nobody announced (a lost interrupt,
 * a kernel storing to a signal without its event). Should stay 0. */
uint64_t signal_missed_announcements(void);

/* Creates a signal of `kind` (USER or DOORBELL). */
hsa_status_t signal_create(amd_signal_kind64_t kind, hsa_signal_value_t initial,
                           uint64_t attributes, struct signal **out);
void signal_destroy(struct signal *s);

/* After a seq_cst change of amd.value: wakes sleepers, if any. A waiter
 * counts itself (seq_cst) before it reads the value, so one of the two
 * sees the other (see event.h). */
static inline void signal_notify(struct signal *s) {
  if (atomic_load_explicit(&s->waiters, memory_order_seq_cst) != 0) event_notify(&rt.signal_event);
}

/* Packet processors complete a packet with this: atomic decrement by one
 * (release), then wake waiters. */
void signal_complete(hsa_signal_t h);

/* True if `value` satisfies `cond` against `compare`. */
static inline bool signal_condition_holds(hsa_signal_condition_t cond, hsa_signal_value_t value,
                                          hsa_signal_value_t compare) {
  switch (cond) {
    case HSA_SIGNAL_CONDITION_EQ:
      return value == compare;
    case HSA_SIGNAL_CONDITION_NE:
      return value != compare;
    case HSA_SIGNAL_CONDITION_LT:
      return value < compare;
    case HSA_SIGNAL_CONDITION_GTE:
      return value >= compare;
  }
  return false;
}

/* The spin-then-sleep loop of every wait: calls check(arg) until it returns
 * true or the deadline (plat_now_ns value, UINT64_MAX: none) passes; the
 * waiter is registered on `signals` while it sleeps. Returns true if check
 * succeeded. */
bool signal_wait_loop(struct signal *const *signals, uint32_t count, bool (*check)(void *arg),
                      void *arg, uint64_t deadline_ns, hsa_wait_state_t wait_state);

/* hsa_signal_destroy drops the async handlers of a dead signal. */
void async_handlers_forget_signal(struct signal *s);

/* When no core is free for the async worker, the CPU agent chosen by
 * cpu_agent_serve_async_work() calls these from its packet processor:
 * poll runs one ready handler or async function (true if it did), pending
 * says whether any is queued (then the processor naps, never sleeps). */
bool async_work_poll(void);
bool async_work_pending(void);
/* Asks the async worker to call gpu_agents_tick at `when_ns` (plat_now_ns
 * time) or soon after; an earlier request wins. From any context,
 * interrupts included: atomics and a wake-up only. */
void async_tick_at(uint64_t when_ns);
/* True once async_handlers_fini has run and nothing was registered since:
 * no handler runs again, so hsa_shut_down's teardown of the queues a
 * program left open must not wait for one. */
bool async_handlers_finished(void);

/* Waits until one of `signals` satisfies its condition (index and value
 * out) or the timeout (ticks) passes; false on timeout. */
bool signal_wait_any(uint32_t count, struct signal *const *signals,
                     const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                     uint64_t timeout, hsa_wait_state_t wait_state, int order, uint32_t *index,
                     hsa_signal_value_t *value);

#endif
