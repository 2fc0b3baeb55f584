/*
 * c11_threads_test.c - C11 <threads.h> (ISO/IEC 9899:2011, 7.26): glibc's
 * on the host, kernel/c11_threads.c in the image. Results are checked
 * against values computed here; the thrd_* codes against 7.26's rules.
 */
#include <threads.h>
#include <time.h>

#include "lib/test.h"

struct tally {
  mtx_t lock;
  cnd_t changed;
  unsigned long total;
  unsigned finished;
};

static int add_numbers(void *arg) {
  struct tally *t = arg;
  for (unsigned i = 1; i <= 500; i++) {
    if (mtx_lock(&t->lock) != thrd_success) return -1;
    t->total += i;
    mtx_unlock(&t->lock);
    if (i % 100 == 0) thrd_yield();
  }
  mtx_lock(&t->lock);
  t->finished++;
  cnd_broadcast(&t->changed);
  mtx_unlock(&t->lock);
  return 17;
}

TEST(c11_threads_create_join_mutex_condition) {
  enum { N = 4 };
  struct tally t = {.total = 0};
  ASSERT_EQ(mtx_init(&t.lock, mtx_plain), thrd_success);
  ASSERT_EQ(cnd_init(&t.changed), thrd_success);
  thrd_t th[N];
  for (unsigned i = 0; i < N; i++) ASSERT_EQ(thrd_create(&th[i], add_numbers, &t), thrd_success);
  mtx_lock(&t.lock);
  while (t.finished < N) cnd_wait(&t.changed, &t.lock);
  mtx_unlock(&t.lock);
  for (unsigned i = 0; i < N; i++) {
    int res = 0;
    ASSERT_EQ(thrd_join(th[i], &res), thrd_success);
    ASSERT_EQ(res, 17);
  }
  ASSERT_EQ_U(t.total, N * 500ul * 501 / 2);
  ASSERT_TRUE(thrd_equal(thrd_current(), thrd_current()));
  cnd_destroy(&t.changed);
  mtx_destroy(&t.lock);
}

static int try_other(void *arg) { return mtx_trylock(arg); }

TEST(c11_threads_recursive_and_timed_mutex) {
  mtx_t m;
  ASSERT_EQ(mtx_init(&m, mtx_plain | mtx_recursive), thrd_success);
  ASSERT_EQ(mtx_lock(&m), thrd_success);
  ASSERT_EQ(mtx_trylock(&m), thrd_success); /* recursive: its owner again */
  thrd_t other;
  int res = -1;
  ASSERT_EQ(thrd_create(&other, try_other, &m), thrd_success);
  ASSERT_EQ(thrd_join(other, &res), thrd_success);
  ASSERT_EQ(res, thrd_busy);
  ASSERT_EQ(mtx_unlock(&m), thrd_success);
  ASSERT_EQ(mtx_unlock(&m), thrd_success);
  mtx_destroy(&m);

  mtx_t timed;
  cnd_t never;
  ASSERT_EQ(mtx_init(&timed, mtx_timed), thrd_success);
  ASSERT_EQ(cnd_init(&never), thrd_success);
  struct timespec at;
  ASSERT_EQ(clock_gettime(CLOCK_REALTIME, &at),
            0); /* TIME_UTC's clock (newlib has no timespec_get) */
  at.tv_nsec += 20 * 1000 * 1000;
  if (at.tv_nsec >= 1000000000) at.tv_sec++, at.tv_nsec -= 1000000000;
  ASSERT_EQ(mtx_lock(&timed), thrd_success);
  int r;
  while ((r = cnd_timedwait(&never, &timed, &at)) == thrd_success) {
  }
  ASSERT_EQ(r, thrd_timedout);
  ASSERT_EQ(mtx_unlock(&timed), thrd_success);
  cnd_destroy(&never);
  mtx_destroy(&timed);
}

static once_flag c11_once = ONCE_FLAG_INIT;
static int c11_once_runs;
static void c11_once_init(void) { c11_once_runs++; }

static tss_t c11_key;
static int c11_destructed;
static void c11_destructor(void *p) {
  __atomic_add_fetch(&c11_destructed, *(int *)p, __ATOMIC_RELAXED);
}

static int once_and_tss(void *arg) {
  call_once(&c11_once, c11_once_init);
  if (tss_get(c11_key) != NULL) return 1;
  if (tss_set(c11_key, arg) != thrd_success) return 2;
  struct timespec ms = {0, 1000 * 1000};
  if (thrd_sleep(&ms, NULL) != 0) return 3;
  return tss_get(c11_key) == arg ? 0 : 4;
}

TEST(c11_threads_once_tss_sleep) {
  c11_destructed = 0;
  ASSERT_EQ(tss_create(&c11_key, c11_destructor), thrd_success);
  enum { N = 3 };
  int values[N] = {1, 10, 100};
  thrd_t th[N];
  for (unsigned i = 0; i < N; i++)
    ASSERT_EQ(thrd_create(&th[i], once_and_tss, &values[i]), thrd_success);
  for (unsigned i = 0; i < N; i++) {
    int res = -1;
    ASSERT_EQ(thrd_join(th[i], &res), thrd_success);
    ASSERT_EQ(res, 0);
  }
  call_once(&c11_once, c11_once_init);
  ASSERT_EQ(c11_once_runs, 1);
  ASSERT_EQ(c11_destructed, 111);
  tss_delete(c11_key);
}
