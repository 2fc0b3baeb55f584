/*
 * spinlock.h - ticket spinlocks for the cores of the image (and, for the
 * portable parts, for host threads in tests).
 *
 * A ticket lock hands the lock out in arrival order, so no core starves
 * while others keep re-taking it. Hold one briefly: a core that waits for
 * it spins (with PAUSE, Intel SDM vol. 2 "PAUSE") instead of sleeping.
 *
 *   static struct spinlock lock = SPINLOCK_INIT;
 *   spin_lock(&lock); ...; spin_unlock(&lock);
 *
 * spin_lock_irqsave() also disables interrupts on this core, for locks that
 * an interrupt handler takes too (otherwise the handler could spin forever
 * on a lock its own core holds).
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct spinlock {
  uint32_t next_ticket; /* handed to the next core that asks */
  uint32_t now_serving; /* the ticket that holds the lock */
};

#define SPINLOCK_INIT {0, 0}

static inline void spin_lock(struct spinlock *l) {
  uint32_t ticket = __atomic_fetch_add(&l->next_ticket, 1, __ATOMIC_RELAXED);
  while (__atomic_load_n(&l->now_serving, __ATOMIC_ACQUIRE) != ticket) __builtin_ia32_pause();
}

static inline bool spin_trylock(struct spinlock *l) {
  uint32_t serving = __atomic_load_n(&l->now_serving, __ATOMIC_RELAXED);
  uint32_t expected = serving;
  return __atomic_compare_exchange_n(&l->next_ticket, &expected, serving + 1, false,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_unlock(struct spinlock *l) {
  /* Only the holder writes now_serving, so a plain increment is race-free. */
  __atomic_store_n(&l->now_serving, l->now_serving + 1, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(struct spinlock *l) {
  return __atomic_load_n(&l->now_serving, __ATOMIC_RELAXED) !=
         __atomic_load_n(&l->next_ticket, __ATOMIC_RELAXED);
}

/* RFLAGS.IF is bit 9 (Intel SDM vol. 1, 3.4.3 "EFLAGS Register"). */
#define RFLAGS_IF (1ull << 9)

/* Image only: ring 0 instructions. Returns the RFLAGS to give back. */
static inline uint64_t spin_lock_irqsave(struct spinlock *l) {
  uint64_t flags;
  __asm__ volatile("pushfq; popq %0; cli" : "=r"(flags)::"memory");
  spin_lock(l);
  return flags;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, uint64_t flags) {
  spin_unlock(l);
  if (flags & RFLAGS_IF) __asm__ volatile("sti" ::: "memory");
}

#endif
