/*
 * signal_handler.c - asynchronous signal handlers and asynchronous
 * functions (ROCr hsa_ext_amd.h: hsa_amd_signal_async_handler,
 * hsa_amd_async_function).
 *
 * One worker ("hsa-async"), started when the first handler or function
 * arrives, runs them. It never spins: it registers as a waiter on every
 * watched signal and sleeps on rt.signal_event, which any change of those
 * signals notifies (the GPU's through the signal's interrupt event; with a
 * bounded nap while some watched signal has no event, so a value changed
 * without a notification is still seen within SIGNAL_WAIT_MAX_SLEEP_NS).
 *
 * When no core is free for that worker (the image, where CPU agents take
 * every spare core), the first CPU agent's packet processor runs the same
 * work between packets (async_work_poll) and naps instead of sleeping
 * while some is pending. Handlers should be short and must not wait on
 * that agent's own queues then.
 *
 * The same worker runs the GPU agents' periodic work (gpu_agents_tick: the
 * driver's queue scheduling over the hardware slots, which has no timer of
 * its own) at the time it is asked for (async_tick_at).
 */
#define LOG_TAG "async"
#include <stdlib.h>

#include "hsa/agent.h"
#include "hsa/signal.h"
#include "lib/plat.h"

struct async_handler {
  struct signal *signal;
  hsa_signal_condition_t cond;
  hsa_signal_value_t value;
  hsa_amd_signal_handler fn;
  void *arg;
  struct async_handler *next;
};

struct async_call {
  void (*fn)(void *arg);
  void *arg;
  struct async_call *next;
};

#define TICK_NOT_WANTED 0 /* rt.async.tick_at: no gpu_agents_tick asked for */

/* Removes and returns a handler whose condition holds, or NULL. */
static struct async_handler *take_ready_handler(hsa_signal_value_t *value) {
  lock_acquire(&rt.async.lock);
  for (struct async_handler **p = &rt.async.handlers; *p; p = &(*p)->next) {
    struct async_handler *h = *p;
    hsa_signal_value_t v = __atomic_load_n(&h->signal->amd.value, __ATOMIC_ACQUIRE);
    if (signal_condition_holds(h->cond, v, h->value)) {
      *p = h->next;
      atomic_fetch_sub(&h->signal->waiters, 1);
      atomic_fetch_sub(&rt.async.pending, 1);
      lock_release(&rt.async.lock);
      *value = v;
      return h;
    }
  }
  lock_release(&rt.async.lock);
  return NULL;
}

static struct async_call *take_call(void) {
  lock_acquire(&rt.async.lock);
  struct async_call *c = rt.async.calls;
  if (c) {
    atomic_fetch_sub(&rt.async.pending, 1);
    rt.async.calls = c->next;
    if (!rt.async.calls) rt.async.last_call = NULL;
  }
  lock_release(&rt.async.lock);
  return c;
}

static void add_handler(struct async_handler *h) {
  atomic_fetch_add(&h->signal->waiters, 1);
  atomic_fetch_add(&rt.async.pending, 1);
  h->next = rt.async.handlers;
  rt.async.handlers = h;
}

/* The tick, if it is due; true if it ran. */
static bool run_tick(void) {
  uint64_t at = atomic_load_explicit(&rt.async.tick_at, memory_order_acquire);
  if (at == TICK_NOT_WANTED) return false;
  uint64_t now = plat_now_ns();
  if (now < at || !atomic_compare_exchange_strong(&rt.async.tick_at, &at, TICK_NOT_WANTED))
    return false;
  gpu_agents_tick(now);
  return true;
}

/* Runs one ready handler, queued call or due tick; true if it ran something. */
static bool run_one(void) {
  if (run_tick()) return true;
  hsa_signal_value_t v;
  struct async_handler *h = take_ready_handler(&v);
  if (h) {
    bool keep = h->fn(v, h->arg);
    lock_acquire(&rt.async.lock);
    if (keep && h->signal->amd.kind == AMD_SIGNAL_KIND_USER)
      add_handler(h);
    else
      free(h);
    lock_release(&rt.async.lock);
    return true;
  }
  struct async_call *c = take_call();
  if (c) {
    c->fn(c->arg);
    free(c);
    return true;
  }
  return false;
}

/* True if a handler or call is ready to run; *announced says whether every
 * watched signal announces its changes (has an event: signal.h). */
static bool any_ready(bool *announced) {
  lock_acquire(&rt.async.lock);
  bool ready = rt.async.calls != NULL;
  *announced = true;
  for (struct async_handler *p = rt.async.handlers; p && !ready; p = p->next) {
    ready = signal_condition_holds(
        p->cond, __atomic_load_n(&p->signal->amd.value, __ATOMIC_ACQUIRE), p->value);
    *announced = *announced && signal_has_event(p->signal);
  }
  lock_release(&rt.async.lock);
  return ready;
}

static void async_main(void *unused) {
  (void)unused;
  uint64_t nap = 10000;
  while (!atomic_load(&rt.async.stopping)) {
    if (run_one()) {
      nap = 10000;
      continue;
    }
    bool announced;
    uint32_t seen = event_prepare_wait(&rt.signal_event);
    if (!any_ready(&announced) && !atomic_load(&rt.async.stopping)) {
      uint64_t sleep = announced ? SIGNAL_WAIT_EVENT_MAX_SLEEP_NS : nap, now = plat_now_ns();
      uint64_t at = atomic_load_explicit(&rt.async.tick_at, memory_order_acquire);
      if (at != TICK_NOT_WANTED) sleep = at <= now ? 0 : at - now < sleep ? at - now : sleep;
      if (sleep) event_commit_wait(&rt.signal_event, seen, sleep);
    }
    event_cancel_wait(&rt.signal_event);
    if (nap < SIGNAL_WAIT_MAX_SLEEP_NS) nap *= 2;
  }
}

bool async_work_poll(void) {
  return atomic_load_explicit(&rt.async.served_by_agent, memory_order_relaxed) &&
         atomic_load_explicit(&rt.async.pending, memory_order_relaxed) != 0 && run_one();
}

bool async_work_pending(void) {
  return atomic_load_explicit(&rt.async.served_by_agent, memory_order_relaxed) &&
         (atomic_load_explicit(&rt.async.pending, memory_order_relaxed) != 0 ||
          atomic_load_explicit(&rt.async.tick_at, memory_order_relaxed) != TICK_NOT_WANTED);
}

void async_tick_at(uint64_t when_ns) {
  if (when_ns == TICK_NOT_WANTED) when_ns = 1; /* as due as time 0 */
  uint64_t at = atomic_load_explicit(&rt.async.tick_at, memory_order_relaxed);
  while ((at == TICK_NOT_WANTED || when_ns < at) &&
         !atomic_compare_exchange_weak(&rt.async.tick_at, &at, when_ns)) {
  }
  if (at != TICK_NOT_WANTED && when_ns >= at) return; /* an earlier one is asked for already */
  atomic_fetch_add(&rt.signal_event.seq, 1); /* wake the worker to shorten its sleep */
  plat_wake((const volatile uint32_t *)&rt.signal_event.seq);
  if (atomic_load(&rt.async.served_by_agent)) cpu_agent_kick_async_server();
}

/* Starts the worker if needed; the caller holds rt.async.lock. */
static hsa_status_t ensure_worker_locked(void) {
  atomic_store(&rt.async.finished, false);
  if (rt.async.worker_running || atomic_load(&rt.async.served_by_agent)) return HSA_STATUS_SUCCESS;
  atomic_store(&rt.async.stopping, false);
  int worker = plat_worker_start("hsa-async", async_main, NULL);
  if (worker >= 0) {
    rt.async.worker = worker;
    rt.async.worker_running = true;
    return HSA_STATUS_SUCCESS;
  }
  if (cpu_agent_serve_async_work()) {
    log_info("async handlers run on the first CPU agent between packets (no free core)");
    atomic_store(&rt.async.served_by_agent, true);
    return HSA_STATUS_SUCCESS;
  }
  log_error("cannot start the async handler worker (no free core, no CPU agent)");
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

hsa_status_t hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                          hsa_signal_value_t value, hsa_amd_signal_handler fn,
                                          void *arg) {
  RETURN_IF_NOT_INITIALIZED();
  if (!fn) return HSA_STATUS_ERROR_INVALID_ARGUMENT; /* ROCr: the handler first */
  if (!signal_is_valid(signal) || signal_from_handle(signal)->amd.kind != AMD_SIGNAL_KIND_USER)
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if ((unsigned)cond > HSA_SIGNAL_CONDITION_GTE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct async_handler *h = malloc(sizeof *h);
  if (!h) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *h = (struct async_handler){signal_from_handle(signal), cond, value, fn, arg, NULL};
  lock_acquire(&rt.async.lock);
  hsa_status_t st = ensure_worker_locked();
  if (st == HSA_STATUS_SUCCESS) add_handler(h);
  lock_release(&rt.async.lock);
  if (st != HSA_STATUS_SUCCESS) {
    free(h);
    return st;
  }
  event_notify(&rt.signal_event); /* the condition may hold already */
  if (atomic_load(&rt.async.served_by_agent)) cpu_agent_kick_async_server();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_async_function(void (*callback)(void *arg), void *arg) {
  RETURN_IF_NOT_INITIALIZED();
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct async_call *c = malloc(sizeof *c);
  if (!c) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *c = (struct async_call){callback, arg, NULL};
  lock_acquire(&rt.async.lock);
  hsa_status_t st = ensure_worker_locked();
  if (st == HSA_STATUS_SUCCESS) {
    if (rt.async.last_call)
      rt.async.last_call->next = c;
    else
      rt.async.calls = c;
    rt.async.last_call = c;
    atomic_fetch_add(&rt.async.pending, 1);
  }
  lock_release(&rt.async.lock);
  if (st != HSA_STATUS_SUCCESS) {
    free(c);
    return st;
  }
  atomic_fetch_add(&rt.signal_event.seq, 1); /* wake the worker unconditionally */
  plat_wake((const volatile uint32_t *)&rt.signal_event.seq);
  if (atomic_load(&rt.async.served_by_agent)) cpu_agent_kick_async_server();
  return HSA_STATUS_SUCCESS;
}

/* hsa_signal_destroy: handlers of a dead signal never run. */
void async_handlers_forget_signal(struct signal *s) {
  lock_acquire(&rt.async.lock);
  for (struct async_handler **p = &rt.async.handlers; *p;) {
    struct async_handler *h = *p;
    if (h->signal == s) {
      *p = h->next;
      atomic_fetch_sub(&s->waiters, 1);
      atomic_fetch_sub(&rt.async.pending, 1);
      free(h);
    } else {
      p = &h->next;
    }
  }
  lock_release(&rt.async.lock);
}

void async_handlers_fini(void) {
  lock_acquire(&rt.async.lock);
  bool running = rt.async.worker_running;
  int worker = rt.async.worker;
  rt.async.worker_running = false;
  rt.async.worker = 0;
  lock_release(&rt.async.lock);
  if (running) {
    atomic_store(&rt.async.stopping, true);
    atomic_fetch_add(&rt.signal_event.seq, 1);
    plat_wake((const volatile uint32_t *)&rt.signal_event.seq);
    plat_worker_join(worker);
    atomic_store(&rt.async.stopping, false);
  }
  lock_acquire(&rt.async.lock);
  while (rt.async.handlers) {
    struct async_handler *h = rt.async.handlers;
    rt.async.handlers = h->next;
    free(h);
  }
  struct async_call *c;
  while ((c = rt.async.calls) != NULL) {
    rt.async.calls = c->next;
    free(c);
  }
  rt.async.last_call = NULL;
  atomic_store(&rt.async.pending, 0);
  atomic_store(&rt.async.tick_at, TICK_NOT_WANTED);
  atomic_store(&rt.async.served_by_agent, false);
  atomic_store(&rt.async.finished, true);
  lock_release(&rt.async.lock);
}

bool async_handlers_finished(void) { return atomic_load(&rt.async.finished); }
