/*
 * pthread_test.c - POSIX threads as a program sees them: glibc's on the
 * host, kernel/pthread.c in the image (on one core, time-shared with the
 * test's own thread, under image-smp1; on the free cores under
 * image-smp4). Expected values come from POSIX.1-2017 (the error codes of
 * each function's page) and from totals computed here independently.
 * Threads record what they saw; the test asserts after joining them.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/test.h"

#define NS_PER_S 1000000000ll

static int64_t now_ns(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

static struct timespec abstime_in(clockid_t clock, int64_t ns) {
  int64_t t = now_ns(clock) + ns;
  return (struct timespec){.tv_sec = (time_t)(t / NS_PER_S), .tv_nsec = (long)(t % NS_PER_S)};
}

/* ---- Create, join, exit, detach ---------------------------------------------- */

struct square_job {
  unsigned n;
  pthread_t self_seen;
  bool self_equal;
};

static void *square(void *arg) {
  struct square_job *job = arg;
  job->self_seen = pthread_self();
  job->self_equal = pthread_equal(job->self_seen, pthread_self()) != 0;
  sched_yield();
  return (void *)(uintptr_t)(job->n * job->n + 1);
}

TEST(pthread_create_join_results) {
  enum { N = 8 };
  pthread_t t[N];
  struct square_job jobs[N];
  for (unsigned i = 0; i < N; i++) {
    jobs[i] = (struct square_job){.n = i + 3};
    ASSERT_EQ(pthread_create(&t[i], NULL, square, &jobs[i]), 0);
  }
  for (unsigned i = 0; i < N; i++) {
    void *result = NULL;
    ASSERT_EQ(pthread_join(t[i], &result), 0);
    ASSERT_EQ((uintptr_t)result, (uintptr_t)((i + 3) * (i + 3) + 1));
    ASSERT_TRUE(pthread_equal(jobs[i].self_seen, t[i]));
    ASSERT_TRUE(jobs[i].self_equal);
    ASSERT_FALSE(pthread_equal(t[i], pthread_self()));
  }
  ASSERT_EQ(pthread_join(pthread_self(), NULL), EDEADLK);
}

static volatile int exited_flag;

static void leave_from_below(unsigned depth) {
  if (depth > 100) return; /* never: a path that returns, for the compiler */
  if (depth == 0) {
    __atomic_store_n(&exited_flag, 1, __ATOMIC_RELEASE);
    pthread_exit((void *)(uintptr_t)0x5eed);
  }
  leave_from_below(depth - 1);
}

static void *exit_deep(void *arg) {
  (void)arg;
  leave_from_below(5);
  return NULL; /* not reached */
}

TEST(pthread_join_thread_that_exited) {
  exited_flag = 0;
  pthread_t t;
  ASSERT_EQ(pthread_create(&t, NULL, exit_deep, NULL), 0);
  /* Wait until it has gone (a sleep gives the core up, on one core too). */
  for (int i = 0; i < 10000 && !__atomic_load_n(&exited_flag, __ATOMIC_ACQUIRE); i++) usleep(1000);
  usleep(20000);
  void *result = NULL;
  ASSERT_EQ(pthread_join(t, &result), 0);
  ASSERT_EQ((uintptr_t)result, 0x5eed);
}

static pthread_mutex_t detach_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t detach_cond = PTHREAD_COND_INITIALIZER;
static int detached_done;

static void *detached_worker(void *arg) {
  pthread_mutex_lock(&detach_lock);
  detached_done += (int)(uintptr_t)arg;
  pthread_cond_broadcast(&detach_cond);
  pthread_mutex_unlock(&detach_lock);
  return NULL;
}

TEST(pthread_detach_and_detached_attribute) {
  detached_done = 0;
  pthread_attr_t attr;
  int state = -1;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_getdetachstate(&attr, &state), 0);
  ASSERT_EQ(state, PTHREAD_CREATE_JOINABLE);
  ASSERT_EQ(pthread_attr_setdetachstate(&attr, 12345), EINVAL);
  ASSERT_EQ(pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 1), EINVAL);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 128 * 1024), 0);
  pthread_t a, b;
  ASSERT_EQ(pthread_create(&a, &attr, detached_worker, (void *)1), 0);
  ASSERT_EQ(pthread_attr_destroy(&attr), 0);
  ASSERT_EQ(pthread_create(&b, NULL, detached_worker, (void *)10), 0);
  ASSERT_EQ(pthread_detach(b), 0);
  pthread_mutex_lock(&detach_lock);
  while (detached_done != 11) pthread_cond_wait(&detach_cond, &detach_lock);
  pthread_mutex_unlock(&detach_lock);
  ASSERT_EQ(detached_done, 11);
}

/* ---- Mutexes ------------------------------------------------------------------ */

struct other_try {
  pthread_mutex_t *m;
  bool unlock_too; /* not for a normal mutex: undefined behaviour there */
  int trylock, unlock;
};

/* From another thread: trylock (then unlock what it took) and unlock. */
static void *try_from_other(void *arg) {
  struct other_try *o = arg;
  o->trylock = pthread_mutex_trylock(o->m);
  if (o->trylock == 0) pthread_mutex_unlock(o->m);
  if (o->unlock_too) o->unlock = pthread_mutex_unlock(o->m);
  return NULL;
}

static struct other_try other_thread_tries(pthread_mutex_t *m, bool unlock_too) {
  struct other_try o = {.m = m, .unlock_too = unlock_too, .trylock = -1, .unlock = -1};
  pthread_t t;
  if (pthread_create(&t, NULL, try_from_other, &o) != 0 || pthread_join(t, NULL) != 0)
    FAIL("could not run the other thread");
  return o;
}

static void init_mutex(pthread_mutex_t *m, int type) {
  pthread_mutexattr_t attr;
  int got = -1;
  ASSERT_EQ(pthread_mutexattr_init(&attr), 0);
  ASSERT_EQ(pthread_mutexattr_settype(&attr, type), 0);
  ASSERT_EQ(pthread_mutexattr_gettype(&attr, &got), 0);
  ASSERT_EQ(got, type);
  ASSERT_EQ(pthread_mutex_init(m, &attr), 0);
  ASSERT_EQ(pthread_mutexattr_destroy(&attr), 0);
}

TEST(pthread_mutex_errorcheck_codes) {
  pthread_mutex_t m;
  init_mutex(&m, PTHREAD_MUTEX_ERRORCHECK);
  ASSERT_EQ(pthread_mutex_unlock(&m), EPERM); /* not locked */
  ASSERT_EQ(pthread_mutex_lock(&m), 0);
  ASSERT_EQ(pthread_mutex_lock(&m), EDEADLK);
  ASSERT_EQ(pthread_mutex_trylock(&m), EBUSY);
  struct other_try o = other_thread_tries(&m, true);
  ASSERT_EQ(o.trylock, EBUSY);
  ASSERT_EQ(o.unlock, EPERM); /* held by this thread */
  ASSERT_EQ(pthread_mutex_destroy(&m), EBUSY);
  ASSERT_EQ(pthread_mutex_unlock(&m), 0);
  ASSERT_EQ(pthread_mutex_unlock(&m), EPERM);
  ASSERT_EQ(pthread_mutex_destroy(&m), 0);
}

TEST(pthread_mutex_recursive_counts) {
  pthread_mutex_t m;
  init_mutex(&m, PTHREAD_MUTEX_RECURSIVE);
  for (int i = 0; i < 3; i++) ASSERT_EQ(pthread_mutex_lock(&m), 0);
  ASSERT_EQ(pthread_mutex_trylock(&m), 0);
  struct other_try o = other_thread_tries(&m, true);
  ASSERT_EQ(o.trylock, EBUSY);
  ASSERT_EQ(o.unlock, EPERM);
  for (int i = 0; i < 4; i++) ASSERT_EQ(pthread_mutex_unlock(&m), 0);
  ASSERT_EQ(pthread_mutex_unlock(&m), EPERM);
  o = other_thread_tries(&m, false); /* free now: the other thread takes it */
  ASSERT_EQ(o.trylock, 0);
  ASSERT_EQ(pthread_mutex_destroy(&m), 0);
}

TEST(pthread_mutex_normal_and_timedlock) {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutexattr_t attr;
  ASSERT_EQ(pthread_mutexattr_init(&attr), 0);
  ASSERT_EQ(pthread_mutexattr_settype(&attr, 99), EINVAL);
  ASSERT_EQ(pthread_mutex_lock(&m), 0);
  ASSERT_EQ(pthread_mutex_trylock(&m), EBUSY);
  struct other_try o = other_thread_tries(&m, false);
  ASSERT_EQ(o.trylock, EBUSY);
  struct timespec soon = abstime_in(CLOCK_REALTIME, 20 * 1000 * 1000);
  ASSERT_EQ(pthread_mutex_timedlock(&m, &soon), ETIMEDOUT);
  ASSERT_EQ(pthread_mutex_unlock(&m), 0);
  struct timespec bad = {.tv_sec = 0, .tv_nsec = NS_PER_S};
  ASSERT_EQ(pthread_mutex_timedlock(&m, &bad), 0); /* free: taken, abstime unchecked */
  ASSERT_EQ(pthread_mutex_unlock(&m), 0);
  ASSERT_EQ(pthread_mutex_destroy(&m), 0);
}

struct counter {
  pthread_mutex_t lock;
  unsigned long value;
  unsigned rounds;
};

static void *add_under_lock(void *arg) {
  struct counter *c = arg;
  for (unsigned i = 0; i < c->rounds; i++) {
    pthread_mutex_lock(&c->lock);
    unsigned long v = c->value;
    if (i % 64 == 0) sched_yield(); /* another thread tries meanwhile */
    c->value = v + 1;
    pthread_mutex_unlock(&c->lock);
  }
  return NULL;
}

TEST(pthread_mutex_stress_total) {
  enum { N = 6 };
  struct counter c = {.lock = PTHREAD_MUTEX_INITIALIZER, .rounds = 3000};
  pthread_t t[N];
  for (unsigned i = 0; i < N; i++) ASSERT_EQ(pthread_create(&t[i], NULL, add_under_lock, &c), 0);
  for (unsigned i = 0; i < N; i++) ASSERT_EQ(pthread_join(t[i], NULL), 0);
  ASSERT_EQ_U(c.value, (unsigned long)N * c.rounds);
}

/* ---- Condition variables ----------------------------------------------------------- */

enum { QUEUE_SLOTS = 4, PRODUCERS = 3, CONSUMERS = 2, ITEMS_EACH = 600 };

struct bounded_queue {
  pthread_mutex_t lock;
  pthread_cond_t not_full, not_empty;
  unsigned items[QUEUE_SLOTS];
  unsigned head, count, producers_left;
  unsigned char seen[PRODUCERS * ITEMS_EACH];
  unsigned long sum[CONSUMERS];
  unsigned duplicates;
};

struct role {
  struct bounded_queue *q;
  unsigned index;
};

static void *produce(void *arg) {
  struct role *r = arg;
  struct bounded_queue *q = r->q;
  for (unsigned i = 0; i < ITEMS_EACH; i++) {
    pthread_mutex_lock(&q->lock);
    while (q->count == QUEUE_SLOTS) pthread_cond_wait(&q->not_full, &q->lock);
    q->items[(q->head + q->count++) % QUEUE_SLOTS] = r->index * ITEMS_EACH + i;
    pthread_cond_signal(&q->not_empty);
    pthread_mutex_unlock(&q->lock);
  }
  pthread_mutex_lock(&q->lock);
  if (--q->producers_left == 0) pthread_cond_broadcast(&q->not_empty);
  pthread_mutex_unlock(&q->lock);
  return NULL;
}

static void *consume(void *arg) {
  struct role *r = arg;
  struct bounded_queue *q = r->q;
  for (;;) {
    pthread_mutex_lock(&q->lock);
    while (q->count == 0 && q->producers_left) pthread_cond_wait(&q->not_empty, &q->lock);
    if (q->count == 0) {
      pthread_mutex_unlock(&q->lock);
      return NULL;
    }
    unsigned item = q->items[q->head];
    q->head = (q->head + 1) % QUEUE_SLOTS;
    q->count--;
    if (q->seen[item]++) q->duplicates++;
    q->sum[r->index] += item;
    pthread_cond_signal(&q->not_full);
    pthread_mutex_unlock(&q->lock);
  }
}

TEST(pthread_cond_producer_consumer_totals) {
  static struct bounded_queue q;
  memset(&q, 0, sizeof q);
  ASSERT_EQ(pthread_mutex_init(&q.lock, NULL), 0);
  ASSERT_EQ(pthread_cond_init(&q.not_full, NULL), 0);
  ASSERT_EQ(pthread_cond_init(&q.not_empty, NULL), 0);
  q.producers_left = PRODUCERS;
  pthread_t p[PRODUCERS], c[CONSUMERS];
  struct role pr[PRODUCERS], cr[CONSUMERS];
  for (unsigned i = 0; i < CONSUMERS; i++) {
    cr[i] = (struct role){&q, i};
    ASSERT_EQ(pthread_create(&c[i], NULL, consume, &cr[i]), 0);
  }
  for (unsigned i = 0; i < PRODUCERS; i++) {
    pr[i] = (struct role){&q, i};
    ASSERT_EQ(pthread_create(&p[i], NULL, produce, &pr[i]), 0);
  }
  for (unsigned i = 0; i < PRODUCERS; i++) ASSERT_EQ(pthread_join(p[i], NULL), 0);
  for (unsigned i = 0; i < CONSUMERS; i++) ASSERT_EQ(pthread_join(c[i], NULL), 0);
  unsigned long total = 0, n = PRODUCERS * ITEMS_EACH;
  for (unsigned i = 0; i < CONSUMERS; i++) total += q.sum[i];
  ASSERT_EQ_U(total, n * (n - 1) / 2);
  ASSERT_EQ(q.duplicates, 0);
  for (unsigned i = 0; i < n; i++)
    ASSERT_MSG(q.seen[i] == 1, "item %u seen %u times", i, q.seen[i]);
  ASSERT_EQ(pthread_cond_destroy(&q.not_full), 0);
  ASSERT_EQ(pthread_cond_destroy(&q.not_empty), 0);
  ASSERT_EQ(pthread_mutex_destroy(&q.lock), 0);
}

TEST(pthread_cond_timedwait_times_out) {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
  ASSERT_EQ(pthread_mutex_lock(&m), 0);
  int64_t start = now_ns(CLOCK_REALTIME);
  struct timespec at = abstime_in(CLOCK_REALTIME, 30 * 1000 * 1000);
  int r;
  while ((r = pthread_cond_timedwait(&cond, &m, &at)) == 0) {
  } /* spurious wake-ups are allowed */
  ASSERT_EQ(r, ETIMEDOUT);
  ASSERT_GE(now_ns(CLOCK_REALTIME), (int64_t)at.tv_sec * NS_PER_S + at.tv_nsec - 1000000);
  ASSERT_GE(now_ns(CLOCK_REALTIME) - start, 29 * 1000 * 1000);
  struct timespec past = {.tv_sec = 1, .tv_nsec = 0};
  ASSERT_EQ(pthread_cond_timedwait(&cond, &m, &past), ETIMEDOUT);
  struct timespec bad = {.tv_sec = 1, .tv_nsec = -1};
  ASSERT_EQ(pthread_cond_timedwait(&cond, &m, &bad), EINVAL);
  ASSERT_EQ(pthread_mutex_unlock(&m), 0);
  /* The mutex is held again after a timeout: another thread cannot take it. */
  ASSERT_EQ(pthread_mutex_lock(&m), 0);
  ASSERT_EQ(pthread_cond_timedwait(&cond, &m, &past), ETIMEDOUT);
  struct other_try o = other_thread_tries(&m, false);
  ASSERT_EQ(o.trylock, EBUSY);
  ASSERT_EQ(pthread_mutex_unlock(&m), 0);

  pthread_condattr_t attr;
  clockid_t clock = -1;
  ASSERT_EQ(pthread_condattr_init(&attr), 0);
  ASSERT_EQ(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC), 0);
  ASSERT_EQ(pthread_condattr_getclock(&attr, &clock), 0);
  ASSERT_EQ(clock, CLOCK_MONOTONIC);
  pthread_cond_t mono;
  ASSERT_EQ(pthread_cond_init(&mono, &attr), 0);
  ASSERT_EQ(pthread_condattr_destroy(&attr), 0);
  ASSERT_EQ(pthread_mutex_lock(&m), 0);
  at = abstime_in(CLOCK_MONOTONIC, 20 * 1000 * 1000);
  while ((r = pthread_cond_timedwait(&mono, &m, &at)) == 0) {
  }
  ASSERT_EQ(r, ETIMEDOUT);
  ASSERT_GE(now_ns(CLOCK_MONOTONIC), (int64_t)at.tv_sec * NS_PER_S + at.tv_nsec - 1000000);
  ASSERT_EQ(pthread_mutex_unlock(&m), 0);
  ASSERT_EQ(pthread_cond_destroy(&mono), 0);
}

struct waker {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int ready;
};

static void *wake_later(void *arg) {
  struct waker *w = arg;
  usleep(10000);
  pthread_mutex_lock(&w->lock);
  w->ready = 1;
  pthread_cond_signal(&w->cond);
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

TEST(pthread_cond_timedwait_is_woken) {
  struct waker w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
  pthread_t t;
  ASSERT_EQ(pthread_mutex_lock(&w.lock), 0);
  ASSERT_EQ(pthread_create(&t, NULL, wake_later, &w), 0);
  struct timespec at = abstime_in(CLOCK_REALTIME, 60 * NS_PER_S);
  int r = 0;
  while (!w.ready && r == 0) r = pthread_cond_timedwait(&w.cond, &w.lock, &at);
  int ready = w.ready;
  ASSERT_EQ(pthread_mutex_unlock(&w.lock), 0);
  ASSERT_EQ(pthread_join(t, NULL), 0);
  ASSERT_EQ(r, 0);
  ASSERT_EQ(ready, 1);
}

/* ---- Once, thread-specific data ----------------------------------------------------- */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static volatile int once_value;

static void once_init(void) {
  once_runs++;
  usleep(5000); /* the others arrive while it runs */
  once_value = 42;
}

static void *call_once_then_read(void *arg) {
  (void)arg;
  pthread_once(&once, once_init);
  return (void *)(uintptr_t)once_value;
}

TEST(pthread_once_runs_once) {
  enum { N = 6 };
  pthread_t t[N];
  for (unsigned i = 0; i < N; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, call_once_then_read, NULL), 0);
  uintptr_t seen[N];
  for (unsigned i = 0; i < N; i++) {
    void *r;
    ASSERT_EQ(pthread_join(t[i], &r), 0);
    seen[i] = (uintptr_t)r;
  }
  ASSERT_EQ(pthread_once(&once, once_init), 0);
  ASSERT_EQ(once_runs, 1);
  for (unsigned i = 0; i < N; i++) ASSERT_EQ(seen[i], 42);
}

static pthread_key_t tsd_key;
static pthread_mutex_t tsd_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned tsd_destroyed_sum, tsd_destructor_calls, tsd_reset_rounds;

static void tsd_destructor(void *value) {
  pthread_mutex_lock(&tsd_lock);
  tsd_destructor_calls++;
  unsigned *v = value;
  if (*v >= 1000) {
    /* Set again from the destructor: POSIX runs another round. */
    *v -= 1000;
    tsd_reset_rounds++;
    pthread_mutex_unlock(&tsd_lock);
    pthread_setspecific(tsd_key, v);
    return;
  }
  tsd_destroyed_sum += *v;
  pthread_mutex_unlock(&tsd_lock);
  free(v);
}

static void *tsd_worker(void *arg) {
  unsigned n = (unsigned)(uintptr_t)arg;
  if (pthread_getspecific(tsd_key) != NULL) return (void *)1;
  unsigned *v = malloc(sizeof *v);
  if (!v) return (void *)2;
  *v = n;
  if (pthread_setspecific(tsd_key, v) != 0) return (void *)3;
  sched_yield();
  return pthread_getspecific(tsd_key) == v ? NULL : (void *)4;
}

TEST(pthread_key_destructors_at_exit) {
  tsd_destroyed_sum = tsd_destructor_calls = tsd_reset_rounds = 0;
  ASSERT_EQ(pthread_key_create(&tsd_key, tsd_destructor), 0);
  static unsigned main_value = 7;
  ASSERT_EQ(pthread_setspecific(tsd_key, &main_value), 0);
  enum { N = 4 };
  pthread_t t[N];
  unsigned values[N] = {1, 20, 300, 1004}; /* the last one is set again once */
  for (unsigned i = 0; i < N; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, tsd_worker, (void *)(uintptr_t)values[i]), 0);
  for (unsigned i = 0; i < N; i++) {
    void *r;
    ASSERT_EQ(pthread_join(t[i], &r), 0);
    ASSERT_NULL(r);
  }
  ASSERT_PTR_EQ(pthread_getspecific(tsd_key), &main_value); /* not the workers' */
  ASSERT_EQ(tsd_destructor_calls, N + 1);
  ASSERT_EQ(tsd_reset_rounds, 1);
  ASSERT_EQ(tsd_destroyed_sum, 1 + 20 + 300 + 4);
  ASSERT_EQ(pthread_key_delete(tsd_key), 0);
  /* A key made after a delete starts out NULL in every thread. */
  pthread_key_t again;
  ASSERT_EQ(pthread_key_create(&again, NULL), 0);
  ASSERT_NULL(pthread_getspecific(again));
  ASSERT_EQ(pthread_key_delete(again), 0);
}

/* ---- More threads than cores --------------------------------------------------------- */

struct crowd {
  pthread_barrier_t all_here;
  unsigned long sums[32];
  int serial;
};

struct crowd_member {
  struct crowd *c;
  unsigned index;
};

static void *crowd_member_main(void *arg) {
  struct crowd_member *m = arg;
  unsigned long s = 0;
  for (unsigned round = 0; round < 3; round++) {
    for (unsigned i = 0; i < 1000; i++) s += (i ^ m->index) + round;
    /* Every thread must be there at once: all of them are alive together. */
    if (pthread_barrier_wait(&m->c->all_here) == PTHREAD_BARRIER_SERIAL_THREAD)
      __atomic_add_fetch(&m->c->serial, 1, __ATOMIC_RELAXED);
  }
  m->c->sums[m->index] = s;
  return NULL;
}

TEST(pthread_more_threads_than_cores) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  ASSERT_GE(cores, 1);
  unsigned n = (unsigned)(cores * 3 + 2 < 32 ? cores * 3 + 2 : 32);
  struct crowd c = {.serial = 0};
  ASSERT_EQ(pthread_barrier_init(&c.all_here, NULL, n), 0);
  pthread_t t[32];
  struct crowd_member m[32];
  for (unsigned i = 0; i < n; i++) {
    m[i] = (struct crowd_member){&c, i};
    ASSERT_EQ(pthread_create(&t[i], NULL, crowd_member_main, &m[i]), 0);
  }
  for (unsigned i = 0; i < n; i++) ASSERT_EQ(pthread_join(t[i], NULL), 0);
  ASSERT_EQ(c.serial, 3); /* one serial thread per round */
  for (unsigned i = 0; i < n; i++) {
    unsigned long expected = 0;
    for (unsigned round = 0; round < 3; round++)
      for (unsigned k = 0; k < 1000; k++) expected += (k ^ i) + round;
    ASSERT_EQ_U(c.sums[i], expected);
  }
  ASSERT_EQ(pthread_barrier_destroy(&c.all_here), 0);
}

/* ---- Sleeping --------------------------------------------------------------------- */

TEST(pthread_nanosleep_checks_and_sleeps) {
  struct timespec bad = {.tv_sec = 0, .tv_nsec = NS_PER_S}, rem;
  errno = 0;
  ASSERT_EQ(nanosleep(&bad, &rem), -1);
  ASSERT_EQ(errno, EINVAL);
  struct timespec ms5 = {.tv_sec = 0, .tv_nsec = 5 * 1000 * 1000};
  int64_t start = now_ns(CLOCK_MONOTONIC);
  ASSERT_EQ(nanosleep(&ms5, &rem), 0);
  ASSERT_GE(now_ns(CLOCK_MONOTONIC) - start, 5 * 1000 * 1000);
  start = now_ns(CLOCK_MONOTONIC);
  ASSERT_EQ(usleep(3000), 0);
  ASSERT_GE(now_ns(CLOCK_MONOTONIC) - start, 3 * 1000 * 1000);
  ASSERT_EQ(sched_yield(), 0);
}
