/*
 * lock.h - the two locks every layer uses.
 *
 * struct spinlock: a ticket lock for short sections (a few updates, never
 * a wait for a device or a signal). Tickets hand it out in arrival order,
 * so no core starves while others keep re-taking it; a core that waits
 * spins with PAUSE (Intel SDM vol. 2, "PAUSE").
 *
 *   static struct spinlock l = SPINLOCK_INIT;
 *   spin_lock(&l); ...; spin_unlock(&l);
 *
 * spin_lock_irqsave() is for a lock that an interrupt handler takes too:
 * it holds the lock with this core's interrupts off (plat_irq_save), or
 * the handler could spin forever on a lock its own core holds. It waits
 * with interrupts on, so a waiting core still answers interrupts and IPIs;
 * that is safe since no holder waits for an interrupt. On the host,
 * interrupts are a thread's work and the masking does nothing.
 *
 * struct lock: a sleeping mutex for longer sections in thread context
 * (object tables, agent lists), on plat_wait/plat_wake so that no layer
 * needs a threading library. Never taken from an interrupt handler, never
 * held across a wait for a signal. States: 0 free, 1 held, 2 held with
 * sleepers (the classic futex mutex).
 */
#ifndef LIB_LOCK_H
#define LIB_LOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/plat.h"

/* ---- Spin lock ---- */
struct spinlock {
  uint32_t next_ticket; /* handed to the next core that asks */
  uint32_t now_serving; /* the ticket that holds the lock */
};

#define SPINLOCK_INIT {0, 0}

static inline void spin_lock(struct spinlock *l) {
  uint32_t ticket = __atomic_fetch_add(&l->next_ticket, 1, __ATOMIC_RELAXED);
  while (__atomic_load_n(&l->now_serving, __ATOMIC_ACQUIRE) != ticket) plat_cpu_relax();
}

/* Takes the lock only if nobody holds or waits for it. */
static inline bool spin_trylock(struct spinlock *l) {
  uint32_t serving = __atomic_load_n(&l->now_serving, __ATOMIC_RELAXED);
  uint32_t expected = serving;
  return __atomic_compare_exchange_n(&l->next_ticket, &expected, serving + 1, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}

static inline void spin_unlock(struct spinlock *l) {
  /* Only the holder writes now_serving, so a plain increment is race-free. */
  __atomic_store_n(&l->now_serving, l->now_serving + 1, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(struct spinlock *l) {
  return __atomic_load_n(&l->now_serving, __ATOMIC_RELAXED) !=
         __atomic_load_n(&l->next_ticket, __ATOMIC_RELAXED);
}

/* Returns the interrupt state to give back to spin_unlock_irqrestore. */
static inline uint64_t spin_lock_irqsave(struct spinlock *l) {
  for (;;) {
    uint64_t flags = plat_irq_save();
    if (spin_trylock(l)) return flags;
    plat_irq_restore(flags);
    while (spin_is_locked(l)) plat_cpu_relax();
  }
}

static inline void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags) {
  spin_unlock(l);
  plat_irq_restore(flags);
}

/* ---- Sleeping lock ---- */
struct lock {
  _Atomic uint32_t state;
};

#define LOCK_INIT {0}

void lock_acquire_contended(struct lock *l);
void lock_release_contended(struct lock *l);

static inline void lock_acquire(struct lock *l) {
  uint32_t expected = 0;
  if (!atomic_compare_exchange_strong_explicit(&l->state, &expected, 1, memory_order_acquire,
                                               memory_order_relaxed))
    lock_acquire_contended(l);
}

static inline void lock_release(struct lock *l) {
  if (atomic_exchange_explicit(&l->state, 0, memory_order_release) == 2) lock_release_contended(l);
}

#endif
