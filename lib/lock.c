/* lock.c - the slow paths of the sleeping lock (lib/lock.h). */
#include "lib/lock.h"

#include "lib/plat.h"

void lock_acquire_contended(struct lock *l) {
  /* Spin a little: most holders keep the lock for a few hundred cycles. */
  for (int i = 0; i < 100; i++) {
    uint32_t expected = 0;
    if (atomic_load_explicit(&l->state, memory_order_relaxed) == 0 &&
        atomic_compare_exchange_weak_explicit(&l->state, &expected, 1, memory_order_acquire,
                                              memory_order_relaxed))
      return;
    plat_cpu_relax();
  }
  /* Mark contended and sleep until the holder releases. */
  while (atomic_exchange_explicit(&l->state, 2, memory_order_acquire) != 0)
    plat_wait((const volatile uint32_t *)&l->state, 2, UINT64_MAX);
}

void lock_release_contended(struct lock *l) { plat_wake((const volatile uint32_t *)&l->state); }
