/*
 * thread_test.c - what the image's threads (kernel/thread.c) do beyond
 * POSIX's interface (tests/common/pthread_test.c has that): each thread
 * its own errno, the cores they take and give back, sysconf counting what
 * is free, and what is not offered failing with ENOSYS. After every test
 * no thread may be left (TEST_AFTER_EACH).
 */
#include <errno.h>
#include <hsa/hsa.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "lib/test.h"

/* A detached thread may still be on its way out right after its test,
 * and the cores threads held go back soon after: the next test (an
 * hsa_init taking cores for its CPU agents) finds them idle again. */
TEST_AFTER_EACH(threads_ended) {
  uint64_t until = time_ns() + 2000 * 1000 * 1000ull;
  while ((thread_live_count() || thread_cores_held()) && time_ns() < until) usleep(1000);
  if (thread_live_count()) return "a thread of the test is still running";
  return thread_cores_held() ? "the thread system still holds cores with no thread left" : NULL;
}

/* Cores running the thread system's loop (smp_run_async's name for it). */
static unsigned cores_named_thread(void) {
  unsigned n = 0;
  for (unsigned c = 1; c < smp_core_limit(); c++)
    if (!smp_core_idle(c) && percpu[c].work_name && strcmp(percpu[c].work_name, "thread") == 0) n++;
  return n;
}

static unsigned idle_cores(void) {
  unsigned n = 0;
  for (unsigned c = 1; c < smp_core_limit(); c++) n += smp_core_idle(c);
  return n;
}

struct gate {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int step;
  int errno_seen;
};

static void gate_wait_for(struct gate *g, int step) {
  pthread_mutex_lock(&g->lock);
  while (g->step < step) pthread_cond_wait(&g->cond, &g->lock);
  pthread_mutex_unlock(&g->lock);
}

static void gate_set(struct gate *g, int step) {
  pthread_mutex_lock(&g->lock);
  g->step = step;
  pthread_cond_broadcast(&g->cond);
  pthread_mutex_unlock(&g->lock);
}

static void *errno_first(void *arg) {
  struct gate *g = arg;
  errno = 111;
  gate_set(g, 1);
  gate_wait_for(g, 2); /* the other thread sets its errno meanwhile */
  g->errno_seen = errno;
  return NULL;
}

static void *errno_second(void *arg) {
  struct gate *g = arg;
  gate_wait_for(g, 1);
  errno = 222;
  gate_set(g, 2);
  sched_yield();
  return (void *)(uintptr_t)errno;
}

TEST(thread_errno_is_per_thread) {
  struct gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
  errno = 7;
  pthread_t a, b;
  ASSERT_EQ(pthread_create(&a, NULL, errno_first, &g), 0);
  ASSERT_EQ(pthread_create(&b, NULL, errno_second, &g), 0);
  void *b_errno;
  ASSERT_EQ(pthread_join(a, NULL), 0);
  ASSERT_EQ(pthread_join(b, &b_errno), 0);
  ASSERT_EQ(g.errno_seen, 111);
  ASSERT_EQ((uintptr_t)b_errno, 222);
  ASSERT_EQ(errno, 7); /* main()'s own */
}

static void *print_lines(void *arg) {
  unsigned n = (unsigned)(uintptr_t)arg;
  char buf[64];
  int len = snprintf(buf, sizeof buf, "%.3f", n + 0.25);
  printf("thread %u: a line of its own (%s)\n", n, buf);
  return (void *)(uintptr_t)len;
}

TEST(thread_stdio_and_dtoa_in_threads) {
  enum { N = 4 };
  pthread_t t[N];
  for (unsigned i = 0; i < N; i++)
    ASSERT_EQ(pthread_create(&t[i], NULL, print_lines, (void *)(uintptr_t)(i * 1000)), 0);
  for (unsigned i = 0; i < N; i++) {
    void *len;
    ASSERT_EQ(pthread_join(t[i], &len), 0);
    char want[64];
    ASSERT_EQ((uintptr_t)len, (uintptr_t)snprintf(want, sizeof want, "%.3f", i * 1000 + 0.25));
  }
}

static void *wait_for_step(void *arg) {
  struct gate *g = arg;
  gate_set(g, 1);
  gate_wait_for(g, 2);
  return NULL;
}

TEST(thread_cores_taken_counted_and_given_back) {
  uint64_t until = time_ns() + 2000 * 1000 * 1000ull;
  while (cores_named_thread() && time_ns() < until) usleep(1000); /* an earlier test's */
  ASSERT_EQ(cores_named_thread(), 0);
  unsigned idle_before = idle_cores();
  ASSERT_EQ(sysconf(_SC_NPROCESSORS_ONLN), 1 + idle_before);
  ASSERT_EQ(sysconf(_SC_NPROCESSORS_CONF), smp_core_count());
  struct gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
  pthread_t t;
  ASSERT_EQ(pthread_create(&t, NULL, wait_for_step, &g), 0);
  gate_wait_for(&g, 1);
  unsigned held = cores_named_thread(), idle = idle_cores();
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  gate_set(&g, 2);
  ASSERT_EQ(pthread_join(t, NULL), 0);
  /* One thread: one core at most, and one if any was idle. */
  ASSERT_EQ(held, idle_before ? 1 : 0);
  ASSERT_EQ(online, 1 + held + idle);
  until = time_ns() + 2000 * 1000 * 1000ull;
  while (cores_named_thread() && time_ns() < until) usleep(1000);
  ASSERT_EQ(cores_named_thread(), 0);
  ASSERT_EQ(idle_cores(), idle_before);
}

TEST(thread_what_is_not_offered_fails) {
  errno = 0;
  ASSERT_EQ(fork(), -1);
  ASSERT_EQ(errno, ENOSYS);
  sigset_t set;
  sigemptyset(&set);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &set, NULL), ENOSYS);
  ASSERT_EQ(pthread_join(0, NULL), ESRCH);
}

static hsa_status_t count_cpu_agents(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
      type == HSA_DEVICE_TYPE_CPU)
    ++*(unsigned *)data;
  return HSA_STATUS_SUCCESS;
}

/* A thread started before hsa_init holds a core: the runtime comes up on
 * what is left (its CPU agents get fewer cores), and the thread goes on. */
TEST(thread_started_before_hsa_init) {
  if (idle_cores() < 2) test_skip("needs two idle cores: one for the thread, one for a CPU agent");
  struct gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
  pthread_t t;
  ASSERT_EQ(pthread_create(&t, NULL, wait_for_step, &g), 0);
  gate_wait_for(&g, 1);
  hsa_status_t init = hsa_init();
  unsigned cpu_agents = 0;
  if (init == HSA_STATUS_SUCCESS) {
    hsa_iterate_agents(count_cpu_agents, &cpu_agents);
    hsa_shut_down();
  }
  gate_set(&g, 2);
  ASSERT_EQ(pthread_join(t, NULL), 0);
  ASSERT_EQ(init, HSA_STATUS_SUCCESS);
  ASSERT_GE(cpu_agents, 1);
}

struct signal_pair {
  hsa_signal_t signal;
  hsa_signal_value_t seen;
};

static void *wait_on_signal(void *arg) {
  struct signal_pair *p = arg;
  p->seen = hsa_signal_wait_scacquire(p->signal, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                      HSA_WAIT_STATE_BLOCKED);
  return NULL;
}

static void *store_later(void *arg) {
  struct signal_pair *p = arg;
  usleep(2000);
  hsa_signal_store_screlease(p->signal, 0);
  return NULL;
}

/* hsa_signal_wait (plat_wait) in a thread or in main() lets the other
 * threads of its core run: on one core the signalling thread runs only
 * because of that. */
TEST(thread_signal_wait_lets_other_threads_run) {
  ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  struct signal_pair p = {.seen = -1};
  ASSERT_EQ(hsa_signal_create(1, 0, NULL, &p.signal), HSA_STATUS_SUCCESS);
  pthread_t waiter, storer;
  ASSERT_EQ(pthread_create(&waiter, NULL, wait_on_signal, &p), 0);
  ASSERT_EQ(pthread_create(&storer, NULL, store_later, &p), 0);
  ASSERT_EQ(pthread_join(waiter, NULL), 0);
  ASSERT_EQ(pthread_join(storer, NULL), 0);
  ASSERT_EQ(p.seen, 0);
  /* main() waits; the thread signals. */
  hsa_signal_store_screlease(p.signal, 1);
  ASSERT_EQ(pthread_create(&storer, NULL, store_later, &p), 0);
  hsa_signal_value_t v = hsa_signal_wait_scacquire(p.signal, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                                   HSA_WAIT_STATE_BLOCKED);
  ASSERT_EQ(pthread_join(storer, NULL), 0);
  ASSERT_EQ(v, 0);
  ASSERT_EQ(hsa_signal_destroy(p.signal), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
