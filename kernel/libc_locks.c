/*
 * libc_locks.c - the locks newlib takes, for newlib built with
 * --enable-newlib-retargetable-locking (mk/newlib.mk): the static locks
 * newlib's libc/misc/lock.c lists (malloc, atexit, the FILE list and its
 * set-up, environment, time zone, ...) and one per FILE and DIR. Every
 * function and static lock of that list is defined here: with one missing,
 * the linker would pull newlib's single-threaded lock.o and fail on the
 * doubly defined symbols.
 *
 * A lock is a spinlock with an owner: a core runs one thread and there is
 * no scheduler, so a core that waits has nothing else to run. While a core
 * holds a libc lock its interrupts are off (as the kernel's first malloc
 * lock did): a handler on that core entering malloc or printf would
 * otherwise find the arena or the FILE half changed (a recursive lock lets
 * its owner in) or wait for itself forever. While a core waits for a lock,
 * its interrupts stay as they were, so it still answers the TLB shootdowns
 * and wake-ups of the core that holds it. cpu_index() is 0 until a core
 * has its own TSS, so the locks work from efi_main on.
 */
#include "kernel/libc_locks.h"

#include <stdlib.h>

#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "lib/plat.h"

#define LOG_TAG "libc"

#define LIBC_LOCK_INITIALIZER \
  { SPINLOCK_INIT, LIBC_LOCK_FREE, 0, 0, false }

/* The static locks (newlib libc/misc/lock.c). */
struct __lock __lock___sinit_recursive_mutex = LIBC_LOCK_INITIALIZER;
struct __lock __lock___sfp_recursive_mutex = LIBC_LOCK_INITIALIZER;
struct __lock __lock___atexit_recursive_mutex = LIBC_LOCK_INITIALIZER;
struct __lock __lock___at_quick_exit_mutex = LIBC_LOCK_INITIALIZER;
struct __lock __lock___malloc_recursive_mutex = LIBC_LOCK_INITIALIZER;
struct __lock __lock___env_recursive_mutex = LIBC_LOCK_INITIALIZER;
struct __lock __lock___tz_mutex = LIBC_LOCK_INITIALIZER;
struct __lock __lock___dd_hash_mutex = LIBC_LOCK_INITIALIZER;
struct __lock __lock___arc4random_mutex = LIBC_LOCK_INITIALIZER;

/* ---- Taking and giving back ---------------------------------------------- */

static void interrupts_off(void) { __asm__ volatile("cli" ::: "memory"); }
static void interrupts_back(uint64_t rflags) {
  if (rflags & RFLAGS_IF_BIT) __asm__ volatile("sti" ::: "memory");
}

static void become_owner(struct __lock *l, unsigned me, uint64_t rflags) {
  __atomic_store_n(&l->owner, (int32_t)me, __ATOMIC_RELAXED);
  l->depth = 1;
  l->owner_rflags = rflags;
}

/* 0 when the calling core holds `l` now, 1 when another core holds it
 * (or, non-recursive, this one). */
static int try_take(struct __lock *l, bool recursive) {
  unsigned me = cpu_index();
  if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == (int32_t)me) {
    if (!recursive) return 1;
    l->depth++;
    return 0;
  }
  uint64_t rflags = read_rflags();
  interrupts_off();
  if (!spin_trylock(&l->spin)) {
    interrupts_back(rflags);
    return 1;
  }
  become_owner(l, me, rflags);
  return 0;
}

static void take(struct __lock *l, bool recursive) {
  unsigned me = cpu_index();
  /* Only this core ever stores its own index in owner. */
  if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == (int32_t)me) {
    if (!recursive) panic("libc: core %u takes a lock it holds already (%p)", me, (void *)l);
    l->depth++;
    return;
  }
  uint64_t rflags = read_rflags();
  for (;;) {
    interrupts_off();
    if (spin_trylock(&l->spin)) break;
    interrupts_back(rflags);
    while (spin_is_locked(&l->spin)) __builtin_ia32_pause();
  }
  become_owner(l, me, rflags);
}

static void give_back(struct __lock *l) {
  unsigned me = cpu_index();
  if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != (int32_t)me || l->depth == 0)
    panic("libc: core %u releases a lock it does not hold (%p)", me, (void *)l);
  if (--l->depth > 0) return;
  uint64_t rflags = l->owner_rflags;
  __atomic_store_n(&l->owner, LIBC_LOCK_FREE, __ATOMIC_RELAXED);
  spin_unlock(&l->spin);
  interrupts_back(rflags);
}

bool libc_lock_take_if_free(_LOCK_T lock) {
  if (__atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != LIBC_LOCK_FREE) return false;
  return try_take(lock, false) == 0;
}

/* ---- Dynamic locks (one per FILE and DIR) ----------------------------------
 * From a pool in the kernel's data: the std streams of every core and the
 * fake FILE of each unbuffered print need no malloc. Beyond the pool (many
 * open streams), from the heap. */
#define LOCK_POOL_SIZE (3 * CPU_MAX + 64)
static struct __lock pool[LOCK_POOL_SIZE];
static struct spinlock pool_lock = SPINLOCK_INIT;

static struct __lock *new_lock(void) {
  struct __lock *l = NULL;
  uint64_t flags = spin_lock_irqsave(&pool_lock);
  for (unsigned i = 0; i < LOCK_POOL_SIZE && !l; i++)
    if (!pool[i].pooled_in_use) l = &pool[i];
  if (l) *l = (struct __lock)LIBC_LOCK_INITIALIZER, l->pooled_in_use = true;
  spin_unlock_irqrestore(&pool_lock, flags);
  if (!l) {
    l = malloc(sizeof *l);
    /* newlib's init has no way to fail (findfp.c __sfp, std). */
    if (!l) panic("libc: no memory for the lock of a FILE (%d in the pool in use)", LOCK_POOL_SIZE);
    *l = (struct __lock)LIBC_LOCK_INITIALIZER;
  }
  return l;
}

static void delete_lock(struct __lock *l) {
  if (!l) return;
  if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != LIBC_LOCK_FREE)
    panic("libc: a lock held by core %d is closed (%p)", l->owner, (void *)l);
  if (l >= pool && l < pool + LOCK_POOL_SIZE) {
    uint64_t flags = spin_lock_irqsave(&pool_lock);
    l->pooled_in_use = false;
    spin_unlock_irqrestore(&pool_lock, flags);
  } else {
    free(l);
  }
}

/* ---- newlib's interface (sys/lock.h) --------------------------------------- */

void __retarget_lock_init(_LOCK_T *lock) { *lock = new_lock(); }
void __retarget_lock_init_recursive(_LOCK_T *lock) { *lock = new_lock(); }
void __retarget_lock_close(_LOCK_T lock) { delete_lock(lock); }
void __retarget_lock_close_recursive(_LOCK_T lock) { delete_lock(lock); }
void __retarget_lock_acquire(_LOCK_T lock) { take(lock, false); }
void __retarget_lock_acquire_recursive(_LOCK_T lock) { take(lock, true); }
/* 0 when taken, nonzero when busy (the pthread_mutex_trylock convention). */
int __retarget_lock_try_acquire(_LOCK_T lock) { return try_take(lock, false); }
int __retarget_lock_try_acquire_recursive(_LOCK_T lock) { return try_take(lock, true); }
void __retarget_lock_release(_LOCK_T lock) { give_back(lock); }
void __retarget_lock_release_recursive(_LOCK_T lock) { give_back(lock); }
