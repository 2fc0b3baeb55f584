/*
 * system_event.c - system event handlers (ROCr hsa_ext_amd.h:
 * hsa_amd_register_system_event_handler). As ROCr's runtime.cpp
 * (SetCustomSystemEventHandler, VMFaultHandler, FreeMemory): handlers
 * accumulate, each event goes to every one in the order they registered,
 * and it counts as handled when one of them returns HSA_STATUS_SUCCESS.
 *
 * Events arrive two ways:
 *   - from an API call, on the calling thread (a refused free, memory.c):
 *     runtime_report_system_event delivers at once, as ROCr's FreeMemory;
 *   - from the GPU's interrupt handler (a memory fault, gpu_agent.c), which
 *     may neither take a sleeping lock nor call the program:
 *     runtime_post_system_event copies the event into a ring of
 *     SYSTEM_EVENTS_POSTED_MAX slots (runtime.h) and raises an internal signal, on which an async
 *     handler (the runtime's async worker, signal_handler.c) delivers them,
 *     as ROCr's VMFaultHandler runs on its async thread when KFD's memory
 *     event fires. The ring and the signal exist from the first handler's
 *     registration on: a fault before any handler is only logged (by the
 *     driver), and posts beyond a full ring are counted and logged.
 */
#define LOG_TAG "hsa-amd"
#include <stdlib.h>

#include "hsa/runtime.h"
#include "hsa/signal.h"
#include "lib/plat.h"

struct system_event_handler {
  hsa_amd_system_event_callback_t fn;
  void *data;
};

bool runtime_report_system_event(const hsa_amd_event_t *event) {
  /* A copy of the list, called without the lock: a handler may register
   * another (which sees the next event, as in ROCr). */
  lock_acquire(&rt.system_events.lock);
  size_t n = rt.system_events.count;
  struct system_event_handler *list = n ? malloc(n * sizeof *list) : NULL;
  for (size_t i = 0; list && i < n; i++) list[i] = rt.system_events.handlers[i];
  lock_release(&rt.system_events.lock);
  if (n && !list) {
    log_error("system event %d not delivered: out of memory", (int)event->event_type);
    return false;
  }
  bool handled = false;
  for (size_t i = 0; i < n; i++) handled |= list[i].fn(event, list[i].data) == HSA_STATUS_SUCCESS;
  free(list);
  return handled;
}

void runtime_post_system_event(const hsa_amd_event_t *event) {
  struct system_events_posted *posted = &rt.system_events.posted;
  uint64_t irq = spin_lock_irqsave(&posted->lock);
  struct signal *s = posted->wake;
  if (s && posted->head - posted->tail < SYSTEM_EVENTS_POSTED_MAX)
    posted->slots[posted->head++ % SYSTEM_EVENTS_POSTED_MAX] = *event;
  else if (s)
    posted->dropped++;
  if (s) {
    __atomic_fetch_add(&s->amd.value, 1, __ATOMIC_SEQ_CST);
    signal_notify(s);
  }
  spin_unlock_irqrestore(&posted->lock, irq);
}

static bool take_posted(hsa_amd_event_t *event, uint32_t *dropped) {
  struct system_events_posted *posted = &rt.system_events.posted;
  uint64_t irq = spin_lock_irqsave(&posted->lock);
  bool any = posted->tail != posted->head;
  if (any) *event = posted->slots[posted->tail++ % SYSTEM_EVENTS_POSTED_MAX];
  *dropped = posted->dropped;
  posted->dropped = 0;
  spin_unlock_irqrestore(&posted->lock, irq);
  return any;
}

/* The async handler: runs while the signal is non-zero. It clears the
 * signal before it empties the ring, so an event posted meanwhile raises
 * it again and is delivered by the next run. */
static bool deliver_posted(hsa_signal_value_t value, void *arg) {
  (void)value;
  struct signal *s = arg;
  __atomic_store_n(&s->amd.value, 0, __ATOMIC_SEQ_CST);
  hsa_amd_event_t e;
  uint32_t dropped;
  bool any;
  do {
    any = take_posted(&e, &dropped);
    if (dropped)
      log_error("%u system events lost: more than %d waited for delivery", dropped,
                SYSTEM_EVENTS_POSTED_MAX);
    if (any && !runtime_report_system_event(&e))
      log_warn("system event %d: no handler returned HSA_STATUS_SUCCESS", (int)e.event_type);
  } while (any);
  return true;
}

/* The signal and its async handler; with rt.system_events.lock held. */
static hsa_status_t start_delivery_locked(void) {
  struct system_events_posted *posted = &rt.system_events.posted;
  if (posted->wake) return HSA_STATUS_SUCCESS;
  struct signal *s;
  hsa_status_t st = signal_create(AMD_SIGNAL_KIND_USER, 0, 0, &s);
  if (st != HSA_STATUS_SUCCESS) return st;
  signal_event_attach(s); /* the async worker sleeps until a post notifies it */
  st =
      hsa_amd_signal_async_handler(signal_handle(s), HSA_SIGNAL_CONDITION_NE, 0, deliver_posted, s);
  if (st != HSA_STATUS_SUCCESS) {
    signal_destroy(s);
    return st;
  }
  uint64_t irq = spin_lock_irqsave(&posted->lock);
  posted->wake = s;
  spin_unlock_irqrestore(&posted->lock, irq);
  return HSA_STATUS_SUCCESS;
}

/* ROCr keeps every handler it is given, NULL included (and would call it);
 * here NULL is refused. */
hsa_status_t hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback,
                                                   void *data) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) {
    log_error("hsa_amd_register_system_event_handler: the callback is NULL");
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  lock_acquire(&rt.system_events.lock);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (rt.system_events.count == rt.system_events.capacity) {
    size_t cap = rt.system_events.capacity ? 2 * rt.system_events.capacity : 4;
    struct system_event_handler *grown = realloc(rt.system_events.handlers, cap * sizeof *grown);
    if (grown) {
      rt.system_events.handlers = grown;
      rt.system_events.capacity = cap;
    } else {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  if (st == HSA_STATUS_SUCCESS) {
    rt.system_events.handlers[rt.system_events.count++] =
        (struct system_event_handler){callback, data};
    /* Events of interrupts need the async worker; without it the handler
     * still gets the events of API calls. */
    if (start_delivery_locked() != HSA_STATUS_SUCCESS)
      log_error("GPU memory fault events cannot be delivered: no async handler");
  }
  lock_release(&rt.system_events.lock);
  return st;
}

void system_events_fini(void) {
  struct system_events_posted *posted = &rt.system_events.posted;
  uint64_t irq = spin_lock_irqsave(&posted->lock);
  struct signal *s = posted->wake;
  posted->wake = NULL;
  posted->head = posted->tail = posted->dropped = 0;
  spin_unlock_irqrestore(&posted->lock, irq);
  if (s) signal_destroy(s);
  lock_acquire(&rt.system_events.lock);
  free(rt.system_events.handlers);
  rt.system_events.handlers = NULL;
  rt.system_events.count = rt.system_events.capacity = 0;
  lock_release(&rt.system_events.lock);
}
