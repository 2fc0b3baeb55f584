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
 *     POSTED_EVENTS slots and raises an internal signal, on which an async
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

#define POSTED_EVENTS 64

struct handler {
  hsa_amd_system_event_callback_t fn;
  void *data;
};

static struct lock handlers_lock = LOCK_INIT;
static struct handler *handlers;
static size_t handler_count, handler_capacity;

/* Posted events; the lock is a spin lock taken with interrupts off, as the
 * interrupt handler takes it too. */
static struct {
  struct spinlock lock;
  uint32_t head, tail; /* free-running: head - tail events wait */
  uint32_t dropped;
  struct signal *wake; /* NULL: nobody to deliver to */
  hsa_amd_event_t slots[POSTED_EVENTS];
} posted;


bool runtime_report_system_event(const hsa_amd_event_t *event) {
  /* A copy of the list, called without the lock: a handler may register
   * another (which sees the next event, as in ROCr). */
  lock_acquire(&handlers_lock);
  size_t n = handler_count;
  struct handler *list = n ? malloc(n * sizeof *list) : NULL;
  for (size_t i = 0; list && i < n; i++) list[i] = handlers[i];
  lock_release(&handlers_lock);
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
  uint64_t irq = spin_lock_irqsave(&posted.lock);
  struct signal *s = posted.wake;
  if (s && posted.head - posted.tail < POSTED_EVENTS)
    posted.slots[posted.head++ % POSTED_EVENTS] = *event;
  else if (s)
    posted.dropped++;
  if (s) {
    __atomic_fetch_add(&s->amd.value, 1, __ATOMIC_SEQ_CST);
    signal_notify(s);
  }
  spin_unlock_irqrestore(&posted.lock, irq);
}

static bool take_posted(hsa_amd_event_t *event, uint32_t *dropped) {
  uint64_t irq = spin_lock_irqsave(&posted.lock);
  bool any = posted.tail != posted.head;
  if (any) *event = posted.slots[posted.tail++ % POSTED_EVENTS];
  *dropped = posted.dropped;
  posted.dropped = 0;
  spin_unlock_irqrestore(&posted.lock, irq);
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
      log_error("%u system events lost: more than %d waited for delivery", dropped, POSTED_EVENTS);
    if (any && !runtime_report_system_event(&e))
      log_warn("system event %d: no handler returned HSA_STATUS_SUCCESS", (int)e.event_type);
  } while (any);
  return true;
}

/* The signal and its async handler; with handlers_lock held. */
static hsa_status_t start_delivery_locked(void) {
  if (posted.wake) return HSA_STATUS_SUCCESS;
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
  uint64_t irq = spin_lock_irqsave(&posted.lock);
  posted.wake = s;
  spin_unlock_irqrestore(&posted.lock, irq);
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
  lock_acquire(&handlers_lock);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (handler_count == handler_capacity) {
    size_t cap = handler_capacity ? 2 * handler_capacity : 4;
    struct handler *grown = realloc(handlers, cap * sizeof *grown);
    if (grown) {
      handlers = grown;
      handler_capacity = cap;
    } else {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  if (st == HSA_STATUS_SUCCESS) {
    handlers[handler_count++] = (struct handler){callback, data};
    /* Events of interrupts need the async worker; without it the handler
     * still gets the events of API calls. */
    if (start_delivery_locked() != HSA_STATUS_SUCCESS)
      log_error("GPU memory fault events cannot be delivered: no async handler");
  }
  lock_release(&handlers_lock);
  return st;
}

void system_events_fini(void) {
  uint64_t irq = spin_lock_irqsave(&posted.lock);
  struct signal *s = posted.wake;
  posted.wake = NULL;
  posted.head = posted.tail = posted.dropped = 0;
  spin_unlock_irqrestore(&posted.lock, irq);
  if (s) signal_destroy(s);
  lock_acquire(&handlers_lock);
  free(handlers);
  handlers = NULL;
  handler_count = handler_capacity = 0;
  lock_release(&handlers_lock);
}
