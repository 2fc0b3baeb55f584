/*
 * libc_locks.h - newlib's locks in the image (kernel/libc_locks.c): what a
 * lock is, for the kernel code that must look at one (libc_reent.c).
 */
#ifndef KERNEL_LIBC_LOCKS_H
#define KERNEL_LIBC_LOCKS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/lock.h>

#include "lib/lock.h"

#if !defined(_RETARGETABLE_LOCKING)
#error "newlib was built without --enable-newlib-retargetable-locking: rebuild it (make newlib)"
#endif

#define LIBC_LOCK_FREE (-1)

/* newlib's _LOCK_T points at one of these (sys/lock.h declares it opaque). */
struct __lock {
  struct spinlock spin;
  int32_t owner;         /* core index holding it, or LIBC_LOCK_FREE */
  uint32_t depth;        /* acquisitions by the owner not yet released */
  uint64_t owner_rflags; /* the owner's RFLAGS before it took the lock */
  bool pooled_in_use;    /* a pool entry handed out (dynamic locks) */
};

/* Takes `lock` only if no core holds it, the calling one included: for the
 * end of the run, which must neither wait for a core that may never let go
 * nor enter a FILE its own core left half changed. True when taken (give
 * it back with __retarget_lock_release_recursive). */
bool libc_lock_take_if_free(_LOCK_T lock);

#endif
