/*
 * sys/_pthreadtypes.h - the image's POSIX thread types (kernel/pthread.c).
 *
 * This file shadows newlib's header of the same name (mk/image.mk puts
 * kernel/include before newlib's include directory): newlib's types are
 * 32-bit object ids for RTEMS-like systems, whose mutexes live in tables;
 * ours are the objects themselves, as glibc's are, so that a mutex or a
 * condition variable needs no allocation and PTHREAD_*_INITIALIZER is a
 * plain constant. Nothing in newlib's libc.a uses these types (its own
 * locks are the retargetable ones of kernel/libc_locks.c), so changing
 * them changes no compiled newlib code. Reached through <sys/types.h>.
 */
#ifndef _SYS__PTHREADTYPES_H_
#define _SYS__PTHREADTYPES_H_

#include <machine/_default_types.h>
#include <sys/sched.h>

typedef unsigned long pthread_t; /* the address of the thread's record */

typedef struct {
  int is_initialized;
  int detachstate;
  unsigned long stacksize;
} pthread_attr_t;

/* lock: 0 free, 1 held, 2 held with possible waiters. */
typedef struct {
  __uint32_t lock;
  int type;
  pthread_t owner;
  unsigned count;
} pthread_mutex_t;

typedef struct {
  int is_initialized;
  int type;
} pthread_mutexattr_t;

/* seq counts signals and broadcasts; waiters sleep while it is unchanged. */
typedef struct {
  __uint32_t seq;
  int clock; /* clockid_t: CLOCK_REALTIME (0 in this struct means it) or CLOCK_MONOTONIC */
} pthread_cond_t;

typedef struct {
  int is_initialized;
  int clock;
} pthread_condattr_t;

typedef unsigned pthread_key_t;

/* 0 not run, 1 running, 2 done. */
typedef int pthread_once_t;

#endif
