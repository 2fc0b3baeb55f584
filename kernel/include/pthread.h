/*
 * pthread.h - the POSIX threads subset of the image (kernel/pthread.c,
 * kernel/thread.c; README "Threads"). Names, types and error codes follow
 * POSIX.1-2017 (IEEE Std 1003.1-2017, <pthread.h>);
 * the constants' values are glibc's, so a program that prints them sees
 * the same numbers on the host. Shadows newlib's <pthread.h>.
 *
 * Offered: threads (create, join, detach, self, equal, exit, attributes
 * for the detach state and the stack size), mutexes (normal, recursive,
 * error-checking; trylock, timedlock), condition variables (with
 * pthread_condattr_setclock for CLOCK_REALTIME or CLOCK_MONOTONIC), once,
 * thread-specific data, barriers. pthread_sigmask (declared by newlib's
 * <signal.h>) returns ENOSYS, as sigprocmask fails: there are no signals.
 * Not offered, and so not declared (a program using them fails to compile
 * or link, never runs wrongly): cancellation, pthread_kill,
 * process-shared objects, scheduling policies, rwlocks, spinlocks, fork
 * handlers (pthread_atfork).
 */
#ifndef _PTHREAD_H
#define _PTHREAD_H

#include <sched.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_CREATE_DETACHED 1

#define PTHREAD_MUTEX_NORMAL     0
#define PTHREAD_MUTEX_RECURSIVE  1
#define PTHREAD_MUTEX_ERRORCHECK 2
#define PTHREAD_MUTEX_DEFAULT    PTHREAD_MUTEX_NORMAL

#define PTHREAD_PROCESS_PRIVATE 0

#define PTHREAD_MUTEX_INITIALIZER \
  { 0, PTHREAD_MUTEX_NORMAL, 0, 0 }
#define PTHREAD_COND_INITIALIZER \
  { 0, 0 }
#define PTHREAD_ONCE_INIT 0

#define PTHREAD_KEYS_MAX              128
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#define PTHREAD_STACK_MIN             16384

typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t all_in;
  unsigned count, waiting, round;
} pthread_barrier_t;
typedef struct {
  int is_initialized;
} pthread_barrierattr_t;
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)

int pthread_attr_init(pthread_attr_t *attr);
int pthread_attr_destroy(pthread_attr_t *attr);
int pthread_attr_setdetachstate(pthread_attr_t *attr, int state);
int pthread_attr_getdetachstate(const pthread_attr_t *attr, int *state);
int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size);
int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size);

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                   void *arg);
int pthread_join(pthread_t thread, void **result);
int pthread_detach(pthread_t thread);
pthread_t pthread_self(void);
int pthread_equal(pthread_t a, pthread_t b);
void pthread_exit(void *result) __attribute__((noreturn));

int pthread_mutexattr_init(pthread_mutexattr_t *attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t *attr);
int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int type);
int pthread_mutexattr_gettype(const pthread_mutexattr_t *attr, int *type);
int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *mutex);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_trylock(pthread_mutex_t *mutex);
int pthread_mutex_timedlock(pthread_mutex_t *mutex, const struct timespec *abstime);
int pthread_mutex_unlock(pthread_mutex_t *mutex);

int pthread_condattr_init(pthread_condattr_t *attr);
int pthread_condattr_destroy(pthread_condattr_t *attr);
int pthread_condattr_setclock(pthread_condattr_t *attr, clockid_t clock);
int pthread_condattr_getclock(const pthread_condattr_t *attr, clockid_t *clock);
int pthread_cond_init(pthread_cond_t *cond, const pthread_condattr_t *attr);
int pthread_cond_destroy(pthread_cond_t *cond);
int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
int pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
                           const struct timespec *abstime);
int pthread_cond_signal(pthread_cond_t *cond);
int pthread_cond_broadcast(pthread_cond_t *cond);

int pthread_once(pthread_once_t *once, void (*init)(void));

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *));
int pthread_key_delete(pthread_key_t key);
void *pthread_getspecific(pthread_key_t key);
int pthread_setspecific(pthread_key_t key, const void *value);

int pthread_barrierattr_init(pthread_barrierattr_t *attr);
int pthread_barrierattr_destroy(pthread_barrierattr_t *attr);
int pthread_barrier_init(pthread_barrier_t *barrier, const pthread_barrierattr_t *attr,
                         unsigned count);
int pthread_barrier_destroy(pthread_barrier_t *barrier);
int pthread_barrier_wait(pthread_barrier_t *barrier);

#ifdef __cplusplus
}
#endif

#endif
