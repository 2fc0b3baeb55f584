/*
 * c11_threads.c - C11 <threads.h> (ISO/IEC 9899:2011, 7.26) on the
 * image's POSIX threads (kernel/pthread.c): each function maps to its
 * pthread counterpart and turns its error code into the thrd_* result
 * 7.26 names (thrd_success, thrd_busy, thrd_timedout, thrd_nomem,
 * thrd_error).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

static int result_of(int err) {
  switch (err) {
    case 0:
      return thrd_success;
    case EBUSY:
      return thrd_busy;
    case ETIMEDOUT:
      return thrd_timedout;
    case ENOMEM:
    case EAGAIN:
      return thrd_nomem;
    default:
      return thrd_error;
  }
}

struct c11_start {
  thrd_start_t fn;
  void *arg;
};

static void *run_c11(void *p) {
  struct c11_start start = *(struct c11_start *)p;
  free(p);
  return (void *)(intptr_t)start.fn(start.arg);
}

int thrd_create(thrd_t *thr, thrd_start_t fn, void *arg) {
  struct c11_start *start = malloc(sizeof *start);
  if (!start) return thrd_nomem;
  *start = (struct c11_start){fn, arg};
  int err = pthread_create(thr, NULL, run_c11, start);
  if (err) free(start);
  return result_of(err);
}

thrd_t thrd_current(void) { return pthread_self(); }
int thrd_detach(thrd_t thr) { return result_of(pthread_detach(thr)); }
int thrd_equal(thrd_t a, thrd_t b) { return pthread_equal(a, b); }
void thrd_exit(int res) { pthread_exit((void *)(intptr_t)res); }

int thrd_join(thrd_t thr, int *res) {
  void *value;
  int err = pthread_join(thr, &value);
  if (!err && res) *res = (int)(intptr_t)value;
  return result_of(err);
}

/* 7.26.5.7: 0 when the time has passed, -1 when interrupted (never here),
 * another negative value on an error. */
int thrd_sleep(const struct timespec *duration, struct timespec *remaining) {
  return nanosleep(duration, remaining) == 0 ? 0 : -2;
}

void thrd_yield(void) { sched_yield(); }

int mtx_init(mtx_t *mtx, int type) {
  pthread_mutexattr_t attr;
  if (type != mtx_plain && type != (mtx_plain | mtx_recursive) && type != mtx_timed &&
      type != (mtx_timed | mtx_recursive))
    return thrd_error;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr,
                            type & mtx_recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL);
  int err = pthread_mutex_init(mtx, &attr);
  pthread_mutexattr_destroy(&attr);
  return result_of(err);
}

void mtx_destroy(mtx_t *mtx) { pthread_mutex_destroy(mtx); }
int mtx_lock(mtx_t *mtx) { return result_of(pthread_mutex_lock(mtx)); }
int mtx_trylock(mtx_t *mtx) { return result_of(pthread_mutex_trylock(mtx)); }
int mtx_unlock(mtx_t *mtx) { return result_of(pthread_mutex_unlock(mtx)); }

/* 7.26.4.4: the time is TIME_UTC based, CLOCK_REALTIME's. */
int mtx_timedlock(mtx_t *restrict mtx, const struct timespec *restrict ts) {
  return result_of(pthread_mutex_timedlock(mtx, ts));
}

int cnd_init(cnd_t *cond) { return result_of(pthread_cond_init(cond, NULL)); }
void cnd_destroy(cnd_t *cond) { pthread_cond_destroy(cond); }
int cnd_signal(cnd_t *cond) { return result_of(pthread_cond_signal(cond)); }
int cnd_broadcast(cnd_t *cond) { return result_of(pthread_cond_broadcast(cond)); }
int cnd_wait(cnd_t *cond, mtx_t *mtx) { return result_of(pthread_cond_wait(cond, mtx)); }

int cnd_timedwait(cnd_t *restrict cond, mtx_t *restrict mtx, const struct timespec *restrict ts) {
  return result_of(pthread_cond_timedwait(cond, mtx, ts));
}

void call_once(once_flag *flag, void (*fn)(void)) { pthread_once(flag, fn); }

int tss_create(tss_t *key, tss_dtor_t dtor) { return result_of(pthread_key_create(key, dtor)); }
void tss_delete(tss_t key) { pthread_key_delete(key); }
void *tss_get(tss_t key) { return pthread_getspecific(key); }
int tss_set(tss_t key, void *value) { return result_of(pthread_setspecific(key, value)); }
