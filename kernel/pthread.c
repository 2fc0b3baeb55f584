/*
 * pthread.c - <pthread.h>, sched_yield, nanosleep, usleep and sleep in the
 * image, on the threads and futex of kernel/thread.c. Semantics and error
 * codes: POSIX.1-2017 (IEEE Std 1003.1-2017), the
 * pages of each function. Errors are returned, never put in errno, except
 * by nanosleep/usleep/sleep, which set errno as POSIX says.
 *
 * A mutex is a futex word with three values (0 free, 1 held, 2 held and
 * maybe waited for), as in U. Drepper, "Futexes Are Tricky" (2011),
 * mutex #2; its owner and depth serve the recursive and error-checking
 * kinds. A condition variable is a sequence word that signal and
 * broadcast bump; a waiter sleeps while it has the value it read before
 * unlocking the mutex, so no wake-up between the two is lost.
 */
#define LOG_TAG "pthread"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "lib/lock.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "lib/plat.h"

#define DEFAULT_STACK_SIZE (256 * 1024)
#define NS_PER_S           1000000000ull

/* ---- Time ------------------------------------------------------------------ */

static bool timespec_valid(const struct timespec *ts) {
  return ts && ts->tv_sec >= 0 && ts->tv_nsec >= 0 && (uint64_t)ts->tv_nsec < NS_PER_S;
}

/* time_ns() at which `clock` (CLOCK_REALTIME or CLOCK_MONOTONIC) reads abstime. */
static uint64_t deadline_of(clockid_t clock, const struct timespec *abstime) {
  struct timespec now;
  clock_gettime(clock, &now);
  uint64_t base = time_ns();
  int64_t delta_s = (int64_t)abstime->tv_sec - (int64_t)now.tv_sec;
  int64_t delta_ns = (int64_t)abstime->tv_nsec - (int64_t)now.tv_nsec;
  if (delta_s < 0 || (delta_s == 0 && delta_ns <= 0)) return base;
  if ((uint64_t)delta_s > UINT64_MAX / NS_PER_S / 2) return UINT64_MAX;
  return base + (uint64_t)(delta_s * (int64_t)NS_PER_S + delta_ns);
}

/* ---- Threads ----------------------------------------------------------------- */

int pthread_attr_init(pthread_attr_t *attr) {
  *attr = (pthread_attr_t){
      .is_initialized = 1, .detachstate = PTHREAD_CREATE_JOINABLE, .stacksize = DEFAULT_STACK_SIZE};
  return 0;
}

int pthread_attr_destroy(pthread_attr_t *attr) {
  attr->is_initialized = 0;
  return 0;
}

int pthread_attr_setdetachstate(pthread_attr_t *attr, int state) {
  if (state != PTHREAD_CREATE_JOINABLE && state != PTHREAD_CREATE_DETACHED) return EINVAL;
  attr->detachstate = state;
  return 0;
}

int pthread_attr_getdetachstate(const pthread_attr_t *attr, int *state) {
  *state = attr->detachstate;
  return 0;
}

int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size) {
  if (size < PTHREAD_STACK_MIN) return EINVAL;
  attr->stacksize = size;
  return 0;
}

int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size) {
  *size = attr->stacksize;
  return 0;
}

static struct thread *thread_of(pthread_t id) { return (struct thread *)(uintptr_t)id; }

int pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
  if (attr && !attr->is_initialized) return EINVAL;
  struct thread *t;
  int err = thread_create(&t, start, arg, attr ? attr->stacksize : DEFAULT_STACK_SIZE,
                          attr && attr->detachstate == PTHREAD_CREATE_DETACHED);
  if (err == -ENOMEM) return EAGAIN; /* POSIX: "lacked the necessary resources" */
  if (err) return -err;
  *out = (pthread_t)(uintptr_t)t;
  return 0;
}

int pthread_join(pthread_t id, void **result) {
  struct thread *t = thread_of(id);
  if (t == thread_self()) return EDEADLK;
  if (!thread_valid(t)) return ESRCH;
  return -thread_join(t, result);
}

int pthread_detach(pthread_t id) {
  struct thread *t = thread_of(id);
  if (!thread_valid(t)) return ESRCH;
  return -thread_detach(t);
}

pthread_t pthread_self(void) { return (pthread_t)(uintptr_t)thread_self(); }

int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

void pthread_exit(void *result) { thread_exit(result); }

int sched_yield(void) {
  thread_yield();
  return 0;
}

/* Signals are not offered (kernel/libc_glue.c sigprocmask): no mask to set. */
int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
  (void)how, (void)set, (void)old;
  return ENOSYS;
}

/* ---- Sleeping ------------------------------------------------------------------ */

static void sleep_until(uint64_t deadline) {
  /* A word nobody wakes: the thread sleeps until its deadline. */
  uint32_t never = 0;
  while (time_ns() < deadline) thread_futex_wait(&never, 0, deadline);
}

int nanosleep(const struct timespec *request, struct timespec *remaining) {
  if (!timespec_valid(request)) {
    errno = EINVAL;
    return -1;
  }
  uint64_t ns = (uint64_t)request->tv_sec > UINT64_MAX / NS_PER_S / 2
                    ? UINT64_MAX / 2
                    : (uint64_t)request->tv_sec * NS_PER_S + (uint64_t)request->tv_nsec;
  sleep_until(time_ns() + ns);
  if (remaining) *remaining = (struct timespec){0, 0}; /* no signal ever interrupts it */
  return 0;
}

int usleep(useconds_t us) {
  sleep_until(time_ns() + (uint64_t)us * 1000);
  return 0;
}

unsigned sleep(unsigned seconds) {
  sleep_until(time_ns() + (uint64_t)seconds * NS_PER_S);
  return 0;
}

/* ---- Mutexes ------------------------------------------------------------------- */

int pthread_mutexattr_init(pthread_mutexattr_t *attr) {
  *attr = (pthread_mutexattr_t){.is_initialized = 1, .type = PTHREAD_MUTEX_DEFAULT};
  return 0;
}

int pthread_mutexattr_destroy(pthread_mutexattr_t *attr) {
  attr->is_initialized = 0;
  return 0;
}

int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int type) {
  if (type != PTHREAD_MUTEX_NORMAL && type != PTHREAD_MUTEX_RECURSIVE &&
      type != PTHREAD_MUTEX_ERRORCHECK)
    return EINVAL;
  attr->type = type;
  return 0;
}

int pthread_mutexattr_gettype(const pthread_mutexattr_t *attr, int *type) {
  *type = attr->type;
  return 0;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr) {
  if (attr && !attr->is_initialized) return EINVAL;
  *m = (pthread_mutex_t){.type = attr ? attr->type : PTHREAD_MUTEX_DEFAULT};
  return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m) {
  return __atomic_load_n(&m->lock, __ATOMIC_ACQUIRE) ? EBUSY : 0;
}

/* Takes the lock word: 0, or ETIMEDOUT at the deadline. */
static int lock_word(uint32_t *word, uint64_t deadline) {
  uint32_t c = 0;
  if (__atomic_compare_exchange_n(word, &c, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return 0;
  if (c != 2) c = __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE);
  while (c != 0) {
    if (thread_futex_wait(word, 2, deadline) == -ETIMEDOUT) return ETIMEDOUT;
    c = __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE);
  }
  return 0;
}

static void unlock_word(uint32_t *word) {
  if (__atomic_fetch_sub(word, 1, __ATOMIC_RELEASE) != 1) {
    __atomic_store_n(word, 0, __ATOMIC_RELEASE);
    thread_futex_wake(word, 1);
  }
}

static pthread_t owner_of(const pthread_mutex_t *m) {
  return __atomic_load_n(&m->owner, __ATOMIC_RELAXED);
}

static int mutex_lock(pthread_mutex_t *m, uint64_t deadline, bool try) {
  pthread_t self = pthread_self();
  if (m->type != PTHREAD_MUTEX_NORMAL && owner_of(m) == self) {
    if (m->type == PTHREAD_MUTEX_ERRORCHECK) return try ? EBUSY : EDEADLK;
    if (m->count == UINT32_MAX) return EAGAIN;
    m->count++;
    return 0;
  }
  if (try) {
    uint32_t c = 0;
    if (!__atomic_compare_exchange_n(&m->lock, &c, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return EBUSY;
  } else {
    int err = lock_word(&m->lock, deadline);
    if (err) return err;
  }
  __atomic_store_n(&m->owner, self, __ATOMIC_RELAXED);
  m->count = 1;
  return 0;
}

int pthread_mutex_lock(pthread_mutex_t *m) { return mutex_lock(m, UINT64_MAX, false); }
int pthread_mutex_trylock(pthread_mutex_t *m) { return mutex_lock(m, UINT64_MAX, true); }

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime) {
  /* The owner's relock answers as pthread_mutex_lock does, and a free
   * mutex is taken whatever abstime is (POSIX: "the validity of the
   * abstime parameter need not be checked if the mutex can be locked
   * immediately"). */
  if (m->type != PTHREAD_MUTEX_NORMAL && owner_of(m) == pthread_self())
    return mutex_lock(m, UINT64_MAX, false);
  int err = mutex_lock(m, UINT64_MAX, true);
  if (err != EBUSY) return err;
  if (!timespec_valid(abstime)) return EINVAL;
  return mutex_lock(m, deadline_of(CLOCK_REALTIME, abstime), false);
}

int pthread_mutex_unlock(pthread_mutex_t *m) {
  if (m->type != PTHREAD_MUTEX_NORMAL) {
    if (owner_of(m) != pthread_self() || !__atomic_load_n(&m->lock, __ATOMIC_RELAXED)) return EPERM;
    if (--m->count) return 0;
  }
  __atomic_store_n(&m->owner, 0, __ATOMIC_RELAXED);
  m->count = 0;
  unlock_word(&m->lock);
  return 0;
}

/* ---- Condition variables --------------------------------------------------------- */

int pthread_condattr_init(pthread_condattr_t *attr) {
  *attr = (pthread_condattr_t){.is_initialized = 1, .clock = CLOCK_REALTIME};
  return 0;
}

int pthread_condattr_destroy(pthread_condattr_t *attr) {
  attr->is_initialized = 0;
  return 0;
}

int pthread_condattr_setclock(pthread_condattr_t *attr, clockid_t clock) {
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) return EINVAL;
  attr->clock = (int)clock;
  return 0;
}

int pthread_condattr_getclock(const pthread_condattr_t *attr, clockid_t *clock) {
  *clock = (clockid_t)attr->clock;
  return 0;
}

int pthread_cond_init(pthread_cond_t *cond, const pthread_condattr_t *attr) {
  if (attr && !attr->is_initialized) return EINVAL;
  *cond = (pthread_cond_t){.clock = attr ? attr->clock : (int)CLOCK_REALTIME};
  return 0;
}

int pthread_cond_destroy(pthread_cond_t *cond) {
  (void)cond;
  return 0;
}

static int cond_wait(pthread_cond_t *cond, pthread_mutex_t *m, uint64_t deadline) {
  pthread_t self = pthread_self();
  if (m->type != PTHREAD_MUTEX_NORMAL && owner_of(m) != self) return EPERM;
  uint32_t seq = __atomic_load_n(&cond->seq, __ATOMIC_ACQUIRE);
  unsigned depth = m->count; /* a recursive mutex is given back whole, then retaken */
  __atomic_store_n(&m->owner, 0, __ATOMIC_RELAXED);
  m->count = 0;
  unlock_word(&m->lock);
  int r = thread_futex_wait(&cond->seq, seq, deadline);
  lock_word(&m->lock, UINT64_MAX);
  __atomic_store_n(&m->owner, self, __ATOMIC_RELAXED);
  m->count = depth;
  return r == -ETIMEDOUT ? ETIMEDOUT : 0;
}

int pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *m) {
  return cond_wait(cond, m, UINT64_MAX);
}

int pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *m,
                           const struct timespec *abstime) {
  if (!timespec_valid(abstime)) return EINVAL;
  clockid_t clock = cond->clock == CLOCK_MONOTONIC ? CLOCK_MONOTONIC : CLOCK_REALTIME;
  return cond_wait(cond, m, deadline_of(clock, abstime));
}

int pthread_cond_signal(pthread_cond_t *cond) {
  __atomic_add_fetch(&cond->seq, 1, __ATOMIC_RELEASE);
  thread_futex_wake(&cond->seq, 1);
  return 0;
}

int pthread_cond_broadcast(pthread_cond_t *cond) {
  __atomic_add_fetch(&cond->seq, 1, __ATOMIC_RELEASE);
  thread_futex_wake(&cond->seq, UINT32_MAX);
  return 0;
}

/* ---- Once ---------------------------------------------------------------------- */

int pthread_once(pthread_once_t *once, void (*init)(void)) {
  uint32_t *word = (uint32_t *)once;
  uint32_t state = 0;
  if (__atomic_load_n(word, __ATOMIC_ACQUIRE) == 2) return 0;
  if (__atomic_compare_exchange_n(word, &state, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
    init();
    __atomic_store_n(word, 2, __ATOMIC_RELEASE);
    thread_futex_wake(word, UINT32_MAX);
    return 0;
  }
  while ((state = __atomic_load_n(word, __ATOMIC_ACQUIRE)) != 2)
    thread_futex_wait(word, state, UINT64_MAX);
  return 0;
}

/* ---- Thread-specific data -------------------------------------------------------- */

struct key_slot {
  bool used;
  uint32_t gen; /* bumped by each create: values of an older key read as NULL */
  void (*destructor)(void *);
};
static struct key_slot keys[PTHREAD_KEYS_MAX];
static struct spinlock keys_lock = SPINLOCK_INIT;

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
  uint64_t flags = spin_lock_irqsave(&keys_lock);
  for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
    if (keys[k].used) continue;
    keys[k] = (struct key_slot){.used = true, .gen = keys[k].gen + 1, .destructor = destructor};
    spin_unlock_irqrestore(&keys_lock, flags);
    *key = k;
    return 0;
  }
  spin_unlock_irqrestore(&keys_lock, flags);
  return EAGAIN;
}

int pthread_key_delete(pthread_key_t key) {
  if (key >= PTHREAD_KEYS_MAX) return EINVAL;
  uint64_t flags = spin_lock_irqsave(&keys_lock);
  bool used = keys[key].used;
  keys[key].used = false;
  spin_unlock_irqrestore(&keys_lock, flags);
  return used ? 0 : EINVAL;
}

void *pthread_getspecific(pthread_key_t key) {
  if (key >= PTHREAD_KEYS_MAX || !keys[key].used) return NULL;
  struct thread *t = thread_self();
  return t->specific_gen[key] == keys[key].gen ? t->specific[key] : NULL;
}

int pthread_setspecific(pthread_key_t key, const void *value) {
  if (key >= PTHREAD_KEYS_MAX || !keys[key].used) return EINVAL;
  struct thread *t = thread_self();
  t->specific[key] = (void *)(uintptr_t)value;
  t->specific_gen[key] = keys[key].gen;
  return 0;
}

/* At a thread's exit: the destructors of its non-NULL values, in rounds
 * while some destructor set a value again (POSIX: at most
 * PTHREAD_DESTRUCTOR_ITERATIONS rounds). */
void thread_run_destructors(struct thread *t) {
  for (unsigned round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
    bool any = false;
    for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
      void *value = pthread_getspecific(k);
      void (*destructor)(void *) = keys[k].destructor;
      if (!value || !destructor) continue;
      t->specific[k] = NULL;
      destructor(value);
      any = true;
    }
    if (!any) return;
  }
}

/* ---- Barriers ------------------------------------------------------------------ */

int pthread_barrierattr_init(pthread_barrierattr_t *attr) {
  attr->is_initialized = 1;
  return 0;
}

int pthread_barrierattr_destroy(pthread_barrierattr_t *attr) {
  attr->is_initialized = 0;
  return 0;
}

int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr, unsigned count) {
  (void)attr;
  if (count == 0) return EINVAL;
  *b = (pthread_barrier_t){
      .lock = PTHREAD_MUTEX_INITIALIZER, .all_in = PTHREAD_COND_INITIALIZER, .count = count};
  return 0;
}

int pthread_barrier_destroy(pthread_barrier_t *b) { return b->waiting ? EBUSY : 0; }

int pthread_barrier_wait(pthread_barrier_t *b) {
  pthread_mutex_lock(&b->lock);
  unsigned round = b->round;
  if (++b->waiting == b->count) {
    b->waiting = 0;
    b->round++;
    pthread_cond_broadcast(&b->all_in);
    pthread_mutex_unlock(&b->lock);
    return PTHREAD_BARRIER_SERIAL_THREAD;
  }
  while (b->round == round) pthread_cond_wait(&b->all_in, &b->lock);
  pthread_mutex_unlock(&b->lock);
  return 0;
}
