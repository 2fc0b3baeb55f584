/*
 * lock.h - a sleeping mutex for the runtime's own bookkeeping (object
 * tables, agent lists), built on lib/plat.h's plat_wait/plat_wake so that
 * hsa/ needs no threading library. Never held across a wait for a signal.
 *
 * States: 0 free, 1 held, 2 held with sleepers (the classic futex mutex).
 */
#ifndef HSA_LOCK_H
#define HSA_LOCK_H

#include <stdatomic.h>
#include <stdint.h>

struct lock {
  _Atomic uint32_t state;
};

#define LOCK_INIT \
  { 0 }

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
