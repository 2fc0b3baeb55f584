/*
 * signal_state.h - what the signal subsystem keeps between calls: the slabs
 * signals live in (signal.c), the interrupt events (signal_event.c) and the
 * async handlers (signal_handler.c). struct runtime holds one of each
 * (rt.signal, rt.signal_events, rt.async); the types live apart from
 * signal.h, whose inline helpers need struct runtime complete. Only their
 * own file touches the members; tests read them to check that
 * hsa_shut_down put everything back as it was before hsa_init.
 */
#ifndef HSA_SIGNAL_STATE_H
#define HSA_SIGNAL_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/lock.h"

#define SIGNAL_EVENTS_MAX 4096 /* as KFD's KFD_SIGNAL_EVENT_LIMIT */

struct signal;
struct signal_slab;
struct async_handler;
struct async_call;

/* signal.c: slabs of signal slots, kept until hsa_shut_down. */
struct signal_state {
  struct lock lock;
  struct signal_slab *slabs;
  struct signal *free_signals; /* linked through ring_arg while free */
  /* Bumped by every destroy; never reset, so that a cached validity check
   * (signal_is_valid_cached) made before a shut-down never matches after. */
  _Atomic uint64_t destroy_epoch;
  /* Waits on signals with events that the safety net, not a notification,
   * ended with the condition met: a change nobody announced. */
  _Atomic uint64_t missed_announcements;
};

/* signal_event.c: event ids and their mailbox slots. */
struct signal_events {
  struct lock lock;
  uint64_t *mailbox; /* SIGNAL_EVENTS_MAX + 1 slots; 0 unused */
  struct signal *_Atomic owners[SIGNAL_EVENTS_MAX + 1];
  uint32_t free_ids[SIGNAL_EVENTS_MAX], free_count;
  uint32_t ids_issued; /* ids 1..ids_issued were handed out at least once */
  bool exhausted_logged;
};

/* signal_handler.c: async handlers and functions, and their worker. */
struct async_handlers {
  struct lock lock;
  struct async_handler *handlers;
  struct async_call *calls, *last_call; /* in arrival order */
  bool worker_running;
  int worker; /* plat_worker_start's id while worker_running */
  _Atomic bool stopping;
  _Atomic bool served_by_agent; /* no free core: a CPU agent serves */
  _Atomic uint32_t pending;     /* handlers + calls queued */
  /* gpu_agents_tick wanted then (plat_now_ns); 0: not wanted */
  _Atomic uint64_t tick_at;
  _Atomic bool finished; /* async_handlers_fini ran, nothing registered since */
};

#endif
