/*
 * signal.c - signals: create/destroy, loads, stores, read-modify-write in
 * every memory order, and waiting (HSA Runtime PRM 1.2, 2.3).
 *
 * Memory: signals come from slabs of cache-line-aligned slots that live
 * until hsa_shut_down. A destroyed signal's slot is marked
 * AMD_SIGNAL_KIND_INVALID and put on a free list, so an operation on a
 * destroyed signal finds an invalid kind, logs, and does nothing instead of
 * touching freed memory.
 */
#define LOG_TAG "signal"
#include "hsa/signal.h"

#include <stdlib.h>
#include <string.h>

#include "hsa/agent.h"
#include "lib/plat.h"

#define SIGNALS_PER_SLAB  64
#define SIGNAL_SLOT_BYTES 128

_Static_assert(sizeof(struct signal) <= SIGNAL_SLOT_BYTES, "struct signal fits its slot");

struct signal_slab {
  struct signal_slab *next;
  unsigned char *slots; /* SIGNALS_PER_SLAB * SIGNAL_SLOT_BYTES, 64-byte aligned */
};

static struct signal *slot_alloc(void) {
  lock_acquire(&rt.signal.lock);
  if (!rt.signal.free_signals) {
    struct signal_slab *slab = malloc(sizeof *slab);
    unsigned char *slots = runtime_alloc_aligned(SIGNALS_PER_SLAB * SIGNAL_SLOT_BYTES, 64);
    if (!slab || !slots) {
      free(slab);
      free(slots);
      lock_release(&rt.signal.lock);
      return NULL;
    }
    slab->slots = slots;
    slab->next = rt.signal.slabs;
    rt.signal.slabs = slab;
    for (int i = SIGNALS_PER_SLAB - 1; i >= 0; i--) {
      struct signal *s = (struct signal *)(slots + (size_t)i * SIGNAL_SLOT_BYTES);
      memset(s, 0, sizeof *s);
      s->amd.kind = AMD_SIGNAL_KIND_INVALID;
      s->ring_arg = rt.signal.free_signals;
      rt.signal.free_signals = s;
    }
  }
  struct signal *s = rt.signal.free_signals;
  rt.signal.free_signals = s->ring_arg;
  lock_release(&rt.signal.lock);
  return s;
}

static void slot_free(struct signal *s) {
  lock_acquire(&rt.signal.lock);
  s->ring_arg = rt.signal.free_signals;
  rt.signal.free_signals = s;
  lock_release(&rt.signal.lock);
}

hsa_status_t signal_create(amd_signal_kind64_t kind, hsa_signal_value_t initial,
                           uint64_t attributes, struct signal **out) {
  struct signal *s = slot_alloc();
  if (!s) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  memset(s, 0, sizeof *s);
  s->amd.kind = kind;
  s->amd.value = initial;
  s->attributes = attributes;
  if (!object_set_insert(&rt.signals, s)) {
    s->amd.kind = AMD_SIGNAL_KIND_INVALID;
    slot_free(s);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *out = s;
  return HSA_STATUS_SUCCESS;
}

void signal_destroy(struct signal *s) {
  signal_event_detach(s);
  __atomic_store_n(&s->amd.kind, AMD_SIGNAL_KIND_INVALID, __ATOMIC_RELEASE);
  object_set_remove(&rt.signals, s);
  atomic_fetch_add(&rt.signal.destroy_epoch, 1);
  slot_free(s);
}

bool signal_is_valid(hsa_signal_t h) {
  return h.handle != 0 && object_set_contains(&rt.signals, signal_from_handle(h));
}

bool signal_is_valid_cached(hsa_signal_t h, struct signal_check *check) {
  uint64_t epoch = atomic_load_explicit(&rt.signal.destroy_epoch, memory_order_acquire);
  if (h.handle == check->handle && epoch == check->epoch) return true;
  if (!signal_is_valid(h)) return false;
  check->handle = h.handle;
  check->epoch = epoch;
  return true;
}

void signals_fini(void) {
  uint64_t missed = signal_missed_announcements();
  if (missed)
    log_warn("%llu waits saw a signal change that no event announced (lost interrupt, or a "
             "kernel that stored to a signal without its event)", (unsigned long long)missed);
  atomic_store(&rt.signal.missed_announcements, 0); /* each runtime reports its own */
  struct signal *s;
  while ((s = object_set_pop(&rt.signals)) != NULL) s->amd.kind = AMD_SIGNAL_KIND_INVALID;
  object_set_free(&rt.signals);
  signal_events_fini();
  lock_acquire(&rt.signal.lock);
  while (rt.signal.slabs) {
    struct signal_slab *next = rt.signal.slabs->next;
    free(rt.signal.slabs->slots);
    free(rt.signal.slabs);
    rt.signal.slabs = next;
  }
  rt.signal.free_signals = NULL;
  lock_release(&rt.signal.lock);
}

/* ---- API: create / destroy ----------------------------------------------- */

/* ROCr (hsa_amd_signal_create): a signal gets an interrupt event unless
 * only GPUs wait on it (HSA_AMD_SIGNAL_AMD_GPU_ONLY, or consumers named and
 * none of them a CPU agent); consumers must be given when counted and
 * differ; their handles are not otherwise checked, attribute bits it does
 * not know are ignored. IPC signals need another process. */
hsa_status_t hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                   const hsa_agent_t *consumers, uint64_t attributes,
                                   hsa_signal_t *signal) {
  RETURN_IF_NOT_INITIALIZED();
  if (!signal) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (attributes & HSA_AMD_SIGNAL_IPC) {
    log_error("hsa_amd_signal_create: IPC signals need another process; there is none here");
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  bool gpu_only = (attributes & HSA_AMD_SIGNAL_AMD_GPU_ONLY) != 0;
  if (!gpu_only && num_consumers != 0) {
    if (!consumers) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    bool cpu_waits = false;
    for (uint32_t i = 0; i < num_consumers; i++) {
      for (uint32_t j = 0; j < i; j++)
        if (consumers[j].handle == consumers[i].handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
      struct agent *a = agent_from_handle(consumers[i]);
      cpu_waits = cpu_waits || (a && a->device_type == HSA_DEVICE_TYPE_CPU);
    }
    gpu_only = !cpu_waits;
  }
  struct signal *s;
  hsa_status_t st = signal_create(AMD_SIGNAL_KIND_USER, initial_value,
                                  attributes & HSA_AMD_SIGNAL_AMD_GPU_ONLY, &s);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (!gpu_only) signal_event_attach(s);
  *signal = signal_handle(s);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                               const hsa_agent_t *consumers, hsa_signal_t *signal) {
  return hsa_amd_signal_create(initial_value, num_consumers, consumers, 0, signal);
}

hsa_status_t hsa_signal_destroy(hsa_signal_t signal) {
  RETURN_IF_NOT_INITIALIZED();
  if (signal.handle == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct signal *s = signal_from_handle(signal);
  /* Queues own their doorbell signals; only hsa_queue_destroy frees those. */
  if (!signal_is_valid(signal) || s->amd.kind != AMD_SIGNAL_KIND_USER)
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  async_handlers_forget_signal(s);
  signal_destroy(s);
  return HSA_STATUS_SUCCESS;
}

/* ---- Operations ------------------------------------------------------------- */

/* The word an operation acts on, or NULL (logged) for a handle that names
 * no usable signal. Cheap: no table lookup on this hot path. */
static volatile int64_t *value_word(hsa_signal_t h, const char *op) {
  struct signal *s = signal_from_handle(h);
  if (h.handle == 0 || (h.handle & (AMD_SIGNAL_ALIGN_BYTES - 1)) != 0) {
    log_error("%s: invalid signal handle 0x%llx", op, (unsigned long long)h.handle);
    return NULL;
  }
  amd_signal_kind64_t kind = __atomic_load_n(&s->amd.kind, __ATOMIC_RELAXED);
  if (kind == AMD_SIGNAL_KIND_USER) return &s->amd.value;
  if (kind == AMD_SIGNAL_KIND_DOORBELL) return (volatile int64_t *)s->amd.hardware_doorbell_ptr;
  log_error("%s: signal 0x%llx is not live (kind %lld)", op, (unsigned long long)h.handle,
            (long long)kind);
  return NULL;
}

/* After a change: ring the doorbell, if it is one, and wake sleepers. */
static inline void after_change(hsa_signal_t h, int64_t value) {
  struct signal *s = signal_from_handle(h);
  if (s->ring) s->ring(s, value);
  /* Order the change before reading the waiter count (see signal.h). */
  signal_notify(s);
}

void signal_complete(hsa_signal_t h) {
  if (h.handle == 0) return;
  volatile int64_t *w = value_word(h, "completion signal");
  if (!w) return;
  int64_t v = __atomic_sub_fetch(w, 1, __ATOMIC_SEQ_CST); /* release and more */
  after_change(h, v);
}

static hsa_signal_value_t load(hsa_signal_t h, int order) {
  volatile int64_t *w = value_word(h, "hsa_signal_load");
  return w ? __atomic_load_n(w, order) : 0;
}

hsa_signal_value_t hsa_signal_load_scacquire(hsa_signal_t s) { return load(s, __ATOMIC_ACQUIRE); }
hsa_signal_value_t hsa_signal_load_acquire(hsa_signal_t s) { return load(s, __ATOMIC_ACQUIRE); }
hsa_signal_value_t hsa_signal_load_relaxed(hsa_signal_t s) { return load(s, __ATOMIC_RELAXED); }

static void store(hsa_signal_t h, hsa_signal_value_t v, int order, bool silent) {
  volatile int64_t *w = value_word(h, "hsa_signal_store");
  if (!w) return;
  if (silent || signal_from_handle(h)->ring) {
    __atomic_store_n(w, v, order);
    if (!silent) after_change(h, v);
    return;
  }
  (void)order;
  __atomic_store_n(w, v, __ATOMIC_SEQ_CST);
  after_change(h, v);
}

void hsa_signal_store_relaxed(hsa_signal_t s, hsa_signal_value_t v) {
  store(s, v, __ATOMIC_RELAXED, false);
}
void hsa_signal_store_screlease(hsa_signal_t s, hsa_signal_value_t v) {
  store(s, v, __ATOMIC_RELEASE, false);
}
void hsa_signal_store_release(hsa_signal_t s, hsa_signal_value_t v) {
  store(s, v, __ATOMIC_RELEASE, false);
}
void hsa_signal_silent_store_relaxed(hsa_signal_t s, hsa_signal_value_t v) {
  store(s, v, __ATOMIC_RELAXED, true);
}
void hsa_signal_silent_store_screlease(hsa_signal_t s, hsa_signal_value_t v) {
  store(s, v, __ATOMIC_RELEASE, true);
}

/* One definition per operation and memory order. The acquire orders of
 * store-like RMWs map to acq_rel where C11 needs it (an RMW may be acquire). */
#define DEFINE_RMW_VOID(op, builtin)                                         \
  static void op##_impl(hsa_signal_t h, hsa_signal_value_t v, int order) {   \
    volatile int64_t *w = value_word(h, "hsa_signal_" #op);                  \
    if (!w) return;                                                          \
    (void)order;                                                             \
    after_change(h, builtin(w, v, __ATOMIC_SEQ_CST));                        \
  }                                                                          \
  void hsa_signal_##op##_scacq_screl(hsa_signal_t s, hsa_signal_value_t v) { \
    op##_impl(s, v, __ATOMIC_ACQ_REL);                                       \
  }                                                                          \
  void hsa_signal_##op##_acq_rel(hsa_signal_t s, hsa_signal_value_t v) {     \
    op##_impl(s, v, __ATOMIC_ACQ_REL);                                       \
  }                                                                          \
  void hsa_signal_##op##_scacquire(hsa_signal_t s, hsa_signal_value_t v) {   \
    op##_impl(s, v, __ATOMIC_ACQUIRE);                                       \
  }                                                                          \
  void hsa_signal_##op##_acquire(hsa_signal_t s, hsa_signal_value_t v) {     \
    op##_impl(s, v, __ATOMIC_ACQUIRE);                                       \
  }                                                                          \
  void hsa_signal_##op##_relaxed(hsa_signal_t s, hsa_signal_value_t v) {     \
    op##_impl(s, v, __ATOMIC_RELAXED);                                       \
  }                                                                          \
  void hsa_signal_##op##_screlease(hsa_signal_t s, hsa_signal_value_t v) {   \
    op##_impl(s, v, __ATOMIC_RELEASE);                                       \
  }                                                                          \
  void hsa_signal_##op##_release(hsa_signal_t s, hsa_signal_value_t v) {     \
    op##_impl(s, v, __ATOMIC_RELEASE);                                       \
  }

DEFINE_RMW_VOID(add, __atomic_add_fetch)
DEFINE_RMW_VOID(subtract, __atomic_sub_fetch)
DEFINE_RMW_VOID(and, __atomic_and_fetch)
DEFINE_RMW_VOID(or, __atomic_or_fetch)
DEFINE_RMW_VOID(xor, __atomic_xor_fetch)

static hsa_signal_value_t exchange_impl(hsa_signal_t h, hsa_signal_value_t v, int order) {
  volatile int64_t *w = value_word(h, "hsa_signal_exchange");
  if (!w) return 0;
  (void)order;
  hsa_signal_value_t old = __atomic_exchange_n(w, v, __ATOMIC_SEQ_CST);
  after_change(h, v);
  return old;
}

static hsa_signal_value_t cas_impl(hsa_signal_t h, hsa_signal_value_t expected,
                                   hsa_signal_value_t v, int order) {
  volatile int64_t *w = value_word(h, "hsa_signal_cas");
  if (!w) return 0;
  hsa_signal_value_t observed = expected;
  /* The failure order may not be release-flavoured (C11 7.17.7.4). */
  int fail =
      order == __ATOMIC_ACQ_REL || order == __ATOMIC_ACQUIRE ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED;
  if (__atomic_compare_exchange_n(w, &observed, v, false, __ATOMIC_SEQ_CST, fail))
    after_change(h, v);
  return observed;
}

#define DEFINE_RMW_RET(op, params, args)                                                      \
  hsa_signal_value_t hsa_signal_##op##_scacq_screl params { return op##_impl args(ACQ_REL); } \
  hsa_signal_value_t hsa_signal_##op##_acq_rel params { return op##_impl args(ACQ_REL); }     \
  hsa_signal_value_t hsa_signal_##op##_scacquire params { return op##_impl args(ACQUIRE); }   \
  hsa_signal_value_t hsa_signal_##op##_acquire params { return op##_impl args(ACQUIRE); }     \
  hsa_signal_value_t hsa_signal_##op##_relaxed params { return op##_impl args(RELAXED); }     \
  hsa_signal_value_t hsa_signal_##op##_screlease params { return op##_impl args(RELEASE); }   \
  hsa_signal_value_t hsa_signal_##op##_release params { return op##_impl args(RELEASE); }

#define EXCHANGE_ARGS(o) (s, v, __ATOMIC_##o)
#define CAS_ARGS(o)      (s, e, v, __ATOMIC_##o)
DEFINE_RMW_RET(exchange, (hsa_signal_t s, hsa_signal_value_t v), EXCHANGE_ARGS)
DEFINE_RMW_RET(cas, (hsa_signal_t s, hsa_signal_value_t e, hsa_signal_value_t v), CAS_ARGS)

hsa_status_t hsa_amd_signal_value_pointer(hsa_signal_t signal,
                                          volatile hsa_signal_value_t **value_ptr) {
  RETURN_IF_NOT_INITIALIZED();
  if (!value_ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!signal_is_valid(signal) || signal_from_handle(signal)->amd.kind != AMD_SIGNAL_KIND_USER)
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  *value_ptr = &signal_from_handle(signal)->amd.value;
  return HSA_STATUS_SUCCESS;
}

/* ---- Waiting ------------------------------------------------------------------ */

/* Spin this long before sleeping: a blocked waiter gives the core up soon,
 * an active one keeps polling longer (but never forever). */
#define SPIN_NS_BLOCKED 20000u
#define SPIN_NS_ACTIVE  2000000u
#define FIRST_SLEEP_NS  10000u

uint64_t signal_missed_announcements(void) {
  return atomic_load_explicit(&rt.signal.missed_announcements, memory_order_relaxed);
}

bool signal_wait_loop(struct signal *const *signals, uint32_t count, bool (*check)(void *arg),
                      void *arg, uint64_t deadline_ns, hsa_wait_state_t wait_state) {
  uint64_t start = plat_now_ns();
  uint64_t spin_until =
      start + (wait_state == HSA_WAIT_STATE_ACTIVE ? SPIN_NS_ACTIVE : SPIN_NS_BLOCKED);
  if (spin_until > deadline_ns) spin_until = deadline_ns;
  for (uint32_t n = 0;; n++) {
    if (check(arg)) return true;
    plat_cpu_relax();
    if ((n & 63) == 63 && plat_now_ns() >= spin_until) break;
  }
  /* Every change of a signal with an event is announced (by the API or
   * the GPU's interrupt): sleep until then. Otherwise back off, bounded. */
  bool announced = count > 0;
  for (uint32_t i = 0; i < count; i++) {
    atomic_fetch_add(&signals[i]->waiters, 1);
    announced = announced && signal_has_event(signals[i]);
  }
  uint64_t max_sleep = announced ? SIGNAL_WAIT_EVENT_MAX_SLEEP_NS : SIGNAL_WAIT_MAX_SLEEP_NS;
  bool ok = false;
  uint64_t sleep_ns = announced ? max_sleep : FIRST_SLEEP_NS;
  for (;;) {
    uint32_t seen = event_prepare_wait(&rt.signal_event);
    if (check(arg)) {
      event_cancel_wait(&rt.signal_event);
      ok = true;
      break;
    }
    uint64_t now = plat_now_ns();
    if (now >= deadline_ns) {
      event_cancel_wait(&rt.signal_event);
      break;
    }
    uint64_t nap = sleep_ns;
    if (nap > deadline_ns - now) nap = deadline_ns - now;
    event_commit_wait(&rt.signal_event, seen, nap);
    event_cancel_wait(&rt.signal_event);
    uint64_t woke = plat_now_ns();
    if (announced && nap == max_sleep && woke - now >= nap && check(arg))
      atomic_fetch_add_explicit(&rt.signal.missed_announcements, 1, memory_order_relaxed);
    gpu_agents_watchdog(woke); /* a runaway GPU dispatch never signals */
    sleep_ns = sleep_ns * 2 < max_sleep ? sleep_ns * 2 : max_sleep;
  }
  for (uint32_t i = 0; i < count; i++) atomic_fetch_sub(&signals[i]->waiters, 1);
  return ok;
}

struct single_wait {
  volatile int64_t *word;
  hsa_signal_condition_t cond;
  hsa_signal_value_t compare;
  int order;
  hsa_signal_value_t seen;
};

static bool single_check(void *arg) {
  struct single_wait *w = arg;
  w->seen = __atomic_load_n(w->word, w->order);
  return signal_condition_holds(w->cond, w->seen, w->compare);
}

static uint64_t deadline_after(uint64_t timeout_ticks) {
  uint64_t now = plat_now_ns();
  return timeout_ticks >= UINT64_MAX - now ? UINT64_MAX : now + timeout_ticks;
}

static hsa_signal_value_t wait_impl(hsa_signal_t h, hsa_signal_condition_t cond,
                                    hsa_signal_value_t compare, uint64_t timeout,
                                    hsa_wait_state_t wait_state, int order) {
  volatile int64_t *word = value_word(h, "hsa_signal_wait");
  if (!word) return 0;
  if ((unsigned)cond > HSA_SIGNAL_CONDITION_GTE) {
    log_error("hsa_signal_wait: invalid condition %d", (int)cond);
    return __atomic_load_n(word, order);
  }
  struct single_wait w = {word, cond, compare, order, 0};
  struct signal *s = signal_from_handle(h);
  signal_wait_loop(&s, 1, single_check, &w, deadline_after(timeout), wait_state);
  return w.seen;
}

hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t s, hsa_signal_condition_t c,
                                             hsa_signal_value_t v, uint64_t t, hsa_wait_state_t w) {
  return wait_impl(s, c, v, t, w, __ATOMIC_ACQUIRE);
}
hsa_signal_value_t hsa_signal_wait_acquire(hsa_signal_t s, hsa_signal_condition_t c,
                                           hsa_signal_value_t v, uint64_t t, hsa_wait_state_t w) {
  return wait_impl(s, c, v, t, w, __ATOMIC_ACQUIRE);
}
hsa_signal_value_t hsa_signal_wait_relaxed(hsa_signal_t s, hsa_signal_condition_t c,
                                           hsa_signal_value_t v, uint64_t t, hsa_wait_state_t w) {
  return wait_impl(s, c, v, t, w, __ATOMIC_RELAXED);
}

/* ---- Waiting on any of several signals ------------------------------------------ */

struct any_wait {
  uint32_t count;
  struct signal *const *signals;
  const hsa_signal_condition_t *conds;
  const hsa_signal_value_t *values;
  int order;
  uint32_t index;
  hsa_signal_value_t seen;
};

static bool any_check(void *arg) {
  struct any_wait *w = arg;
  for (uint32_t i = 0; i < w->count; i++) {
    volatile int64_t *word = value_word(signal_handle(w->signals[i]), "wait_any");
    if (!word) continue;
    hsa_signal_value_t v = __atomic_load_n(word, w->order);
    if (signal_condition_holds(w->conds[i], v, w->values[i])) {
      w->index = i;
      w->seen = v;
      return true;
    }
  }
  return false;
}

bool signal_wait_any(uint32_t count, struct signal *const *signals,
                     const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                     uint64_t timeout, hsa_wait_state_t wait_state, int order, uint32_t *index,
                     hsa_signal_value_t *value) {
  struct any_wait w = {count, signals, conds, values, order, count, 0};
  bool ok = signal_wait_loop(signals, count, any_check, &w, deadline_after(timeout), wait_state);
  *index = w.index;
  if (value) *value = w.seen;
  return ok;
}

#define WAIT_ANY_MAX_SIGNALS 1024

uint32_t hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t *signals,
                                 hsa_signal_condition_t *conds, hsa_signal_value_t *values,
                                 uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                 hsa_signal_value_t *satisfying_value) {
  if (!runtime_initialized()) return 0; /* as ROCr (which asserts) */
  if (signal_count == 0 || signal_count > WAIT_ANY_MAX_SIGNALS || !signals || !conds || !values) {
    log_error("hsa_amd_signal_wait_any: invalid arguments (count %u)", signal_count);
    return signal_count;
  }
  struct signal **list = malloc(signal_count * sizeof *list);
  if (!list) return signal_count;
  for (uint32_t i = 0; i < signal_count; i++) {
    if (!signal_is_valid(signals[i]) || (unsigned)conds[i] > HSA_SIGNAL_CONDITION_GTE) {
      log_error("hsa_amd_signal_wait_any: entry %u is not a live signal / valid condition", i);
      free(list);
      return signal_count;
    }
    list[i] = signal_from_handle(signals[i]);
  }
  uint32_t index;
  bool ok = signal_wait_any(signal_count, list, conds, values, timeout_hint, wait_hint,
                            __ATOMIC_ACQUIRE, &index, satisfying_value);
  free(list);
  return ok ? index : signal_count;
}
