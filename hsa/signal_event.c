/*
 * signal_event.c - interrupt events of signals: the mailbox the GPU writes
 * before it interrupts, and the wake-up that interrupt leads to.
 *
 * As ROCr's InterruptSignal (core/runtime/interrupt_signal.cpp) backed by
 * a KFD signal event: a signal the program creates gets an event id and an
 * 8-byte mailbox slot, published in amd_signal_t.event_mailbox_ptr and
 * event_id. When the command processor completes a packet whose completion
 * signal has a mailbox, it writes the event id there and raises an
 * end-of-pipe interrupt whose context id is the event id (the RELEASE_MEM
 * with an interrupt that ROCr's AQL packets end with; Linux amdkfd
 * kfd_int_process_v9.c: the IH entry's context id names the event, and
 * kfd_events.c scans the event page for written slots when it does not).
 * The driver's end-of-pipe handler calls signal_event_interrupt(), which
 * wakes whoever sleeps on that signal. Waiters on such signals therefore
 * sleep until woken instead of polling (signal.c, signal_wait_loop).
 *
 * Events are a bounded resource, as KFD's (KFD_SIGNAL_EVENT_LIMIT, 4096):
 * when they run out a signal is created without one and its waiters poll
 * with a bounded back-off, which is what ROCr does then too.
 */
#define LOG_TAG "signal"
#include <stdlib.h>

#include "hsa/signal.h"
#include "lib/plat.h"

#define UNSIGNALED UINT64_MAX /* an armed slot; the GPU writes the event id over it */

void signal_event_attach(struct signal *s) {
  lock_acquire(&rt.signal_events.lock);
  if (!rt.signal_events.mailbox) {
    /* Armed before it is published: signal_event_interrupt reads it
     * without the lock. */
    uint64_t *slots = runtime_alloc_aligned((SIGNAL_EVENTS_MAX + 1) * sizeof *slots, 64);
    for (uint32_t i = 0; slots && i <= SIGNAL_EVENTS_MAX; i++) slots[i] = UNSIGNALED;
    __atomic_store_n(&rt.signal_events.mailbox, slots, __ATOMIC_RELEASE);
  }
  uint32_t id = 0;
  if (rt.signal_events.mailbox && rt.signal_events.free_count)
    id = rt.signal_events.free_ids[--rt.signal_events.free_count];
  else if (rt.signal_events.mailbox && rt.signal_events.ids_issued < SIGNAL_EVENTS_MAX)
    id = ++rt.signal_events.ids_issued;
  if (id) {
    __atomic_store_n(&rt.signal_events.mailbox[id], UNSIGNALED, __ATOMIC_RELAXED);
    atomic_store_explicit(&rt.signal_events.owners[id], s, memory_order_release);
    s->amd.event_id = id;
    s->amd.event_mailbox_ptr = (uint64_t)(uintptr_t)&rt.signal_events.mailbox[id];
  } else if (!rt.signal_events.exhausted_logged) {
    rt.signal_events.exhausted_logged = true;
    /* Not an error (ROCr falls back silently): waits on them cost more. */
    if (rt.signal_events.mailbox)
      log_info("all %u signal events in use: new signals poll instead of sleeping until the "
               "GPU interrupts", SIGNAL_EVENTS_MAX);
    else
      log_warn("no memory for the signal event mailbox: signals poll instead of sleeping");
  }
  lock_release(&rt.signal_events.lock);
}

void signal_event_detach(struct signal *s) {
  uint32_t id = s->amd.event_id;
  if (!s->amd.event_mailbox_ptr || id == 0 || id > SIGNAL_EVENTS_MAX) return;
  lock_acquire(&rt.signal_events.lock);
  /* Only our own events: an agent may give its signals a mailbox of its own. */
  if (atomic_load_explicit(&rt.signal_events.owners[id], memory_order_relaxed) == s) {
    atomic_store_explicit(&rt.signal_events.owners[id], NULL, memory_order_release);
    rt.signal_events.free_ids[rt.signal_events.free_count++] = id;
    s->amd.event_mailbox_ptr = 0;
    s->amd.event_id = 0;
  }
  lock_release(&rt.signal_events.lock);
}

/* Re-arms the slot and wakes the signal's sleepers, if any. */
static void wake_event(uint32_t id) {
  __atomic_store_n(&rt.signal_events.mailbox[id], UNSIGNALED, __ATOMIC_RELAXED);
  struct signal *s = atomic_load_explicit(&rt.signal_events.owners[id], memory_order_acquire);
  /* Order the GPU's value change (seen before its interrupt) before the
   * waiter count read, as signal_notify documents for the CPU's changes. */
  if (s) signal_notify(s);
}

void signal_event_interrupt(uint32_t event_id) {
  uint64_t *slots = __atomic_load_n(&rt.signal_events.mailbox, __ATOMIC_ACQUIRE);
  if (!slots) return;
  if (event_id >= 1 && event_id <= SIGNAL_EVENTS_MAX &&
      atomic_load_explicit(&rt.signal_events.owners[event_id], memory_order_acquire)) {
    wake_event(event_id);
    return;
  }
  /* No usable id (a partial one, or none): every written slot is news. */
  for (uint32_t id = 1; id <= SIGNAL_EVENTS_MAX; id++)
    if (__atomic_load_n(&slots[id], __ATOMIC_RELAXED) != UNSIGNALED) wake_event(id);
}

void signal_events_fini(void) {
  lock_acquire(&rt.signal_events.lock);
  uint64_t *slots = rt.signal_events.mailbox;
  __atomic_store_n(&rt.signal_events.mailbox, NULL, __ATOMIC_RELEASE); /* unpublished, then freed */
  free(slots);
  for (uint32_t i = 0; i <= SIGNAL_EVENTS_MAX; i++) atomic_store(&rt.signal_events.owners[i], NULL);
  rt.signal_events.free_count = 0;
  rt.signal_events.ids_issued = 0;
  rt.signal_events.exhausted_logged = false;
  lock_release(&rt.signal_events.lock);
}
