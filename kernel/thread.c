/*
 * thread.c - the image's threads (the design is in kernel/thread.h).
 *
 * One lock (sched_lock, taken with interrupts off) guards the run queue,
 * the wait list, every thread's state and each core's record. A switch
 * happens with the lock held and the context switched to releases it:
 * a thread put on the run queue or the wait list cannot be taken by
 * another core before its registers are saved. A thread that exits is
 * marked done by the context that runs after it on its core, once its
 * stack is no longer in use; then a join may free the stack.
 */
#define LOG_TAG "thread"
#include "kernel/thread.h"

#include <errno.h>
#include <malloc.h>
#include <reent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/smp.h"
#include "lib/lock.h"
#include "kernel/time.h"
#include "lib/plat.h"

#define THREAD_MAGIC   0x74687264u /* "thrd" */
#define IDLE_NAP_NS    (10 * 1000 * 1000ull)
#define YIELD_SLICE_NS (1000 * 1000ull)

enum thread_state { T_RUNNING, T_RUNNABLE, T_BLOCKED, T_EXITED };

struct core_sched {
  struct thread *current; /* the thread this core runs; NULL: not a thread */
  uint64_t idle_rsp;      /* application processors: the core loop's context */
  struct thread *dead;    /* exited on this core, stack still under the switch */
};

/* The context switch (thread_switch.S). */
void thread_switch(uint64_t *save_rsp, uint64_t next_rsp);
void thread_entry(void);
void thread_start(void);

static struct thread main_thread = {.magic = THREAD_MAGIC, .state = T_RUNNING, .is_main = true};
static struct core_sched cores[CPU_MAX] = {[0] = {.current = &main_thread}};
static struct thread foreign[CPU_MAX]; /* thread_self on cores outside the thread system */

static struct spinlock sched_lock = SPINLOCK_INIT;
static struct thread *runq_head, *runq_tail;
static struct thread *waiters;   /* blocked in thread_futex_wait */
static struct thread *graveyard; /* detached and done: freed at the next create */
static uint32_t live_threads;    /* created and not yet exited, main() not counted */
static unsigned held_cores;      /* application processors running core_loop */
static uint32_t sched_gen;       /* bumped when a thread becomes ready (idle cores wait on it) */

/* ---- Queues (sched_lock held) ---------------------------------------------- */

static void runq_push(struct thread *t) {
  t->next = NULL;
  if (runq_tail)
    runq_tail->next = t;
  else
    runq_head = t;
  runq_tail = t;
}

static struct thread *runq_pop(void) {
  struct thread *t = runq_head;
  if (t) {
    runq_head = t->next;
    if (!runq_head) runq_tail = NULL;
    t->next = NULL;
  }
  return t;
}

static void waiters_remove(struct thread *t) {
  for (struct thread **p = &waiters; *p; p = &(*p)->next) {
    if (*p == t) {
      *p = t->next;
      t->next = NULL;
      return;
    }
  }
}

/* A blocked thread becomes ready; main() is never queued (core 0 only). */
static void make_ready(struct thread *t) {
  t->state = T_RUNNABLE;
  if (!t->is_main) runq_push(t);
  __atomic_add_fetch(&sched_gen, 1, __ATOMIC_RELEASE);
}

static unsigned wake_locked(const volatile uint32_t *word, uint32_t count) {
  unsigned woken = 0;
  struct thread **p = &waiters;
  while (*p && woken < count) {
    struct thread *t = *p;
    if (t->wait_word != word) {
      p = &t->next;
      continue;
    }
    *p = t->next;
    make_ready(t);
    woken++;
  }
  return woken;
}

/* Readies the waiters whose deadline has passed; the earliest deadline left. */
static uint64_t expire_locked(void) {
  uint64_t now = time_ns(), earliest = UINT64_MAX;
  struct thread **p = &waiters;
  while (*p) {
    struct thread *t = *p;
    if (t->deadline_ns <= now) {
      *p = t->next;
      t->timed_out = true;
      make_ready(t);
      continue;
    }
    if (t->deadline_ns < earliest) earliest = t->deadline_ns;
    p = &t->next;
  }
  return earliest;
}

/* What core `core` runs next in place of its current thread, or NULL.
 * Core 0 takes from the run queue only while the thread system holds no
 * other core, so that main() is back on core 0 soon when it can be. */
static struct thread *pick_next(unsigned core) {
  if (core == 0 && main_thread.state == T_RUNNABLE && cores[0].current != &main_thread)
    return &main_thread;
  if (core != 0 || held_cores == 0) return runq_pop();
  return NULL;
}

/* ---- Switching (sched_lock held) ------------------------------------------- */

/* In the context that runs after a switch on this core, the lock still
 * held: what the previous context left to finish. */
static void after_switch(void) {
  struct core_sched *cs = &cores[cpu_index()];
  struct thread *dead = cs->dead;
  if (!dead) return;
  cs->dead = NULL;
  __atomic_store_n(&dead->done, 1, __ATOMIC_RELEASE);
  wake_locked(&dead->done, UINT32_MAX);
  plat_wake(&dead->done);                 /* a joiner outside the thread system */
  wake_locked(&live_threads, UINT32_MAX); /* main()'s pthread_exit waits for none */
  if (live_threads < held_cores) {
    /* Idle held cores see that they are too many and give themselves back now. */
    __atomic_add_fetch(&sched_gen, 1, __ATOMIC_RELEASE);
    plat_wake(&sched_gen);
  }
  if (dead->detached) {
    dead->next = graveyard;
    graveyard = dead;
  }
}

static void switch_to(uint64_t *save_rsp, struct thread *next) {
  unsigned core = cpu_index();
  cores[core].current = next;
  if (next->state == T_RUNNABLE) next->state = T_RUNNING;
  thread_switch(save_rsp, next->rsp);
  after_switch();
}

/* The calling thread (not main) stops running here; it comes back (on
 * any core) once it is made ready, or never when it has exited. */
static void leave_core(struct thread *self) {
  unsigned core = cpu_index();
  struct thread *next = pick_next(core);
  if (next) {
    switch_to(&self->rsp, next);
  } else if (core == 0) {
    switch_to(&self->rsp, &main_thread); /* main()'s wait loop is core 0's idle */
  } else {
    cores[core].current = NULL;
    thread_switch(&self->rsp, cores[core].idle_rsp);
    after_switch();
  }
}

/* Called with sched_lock held and nothing to run: drops the lock and
 * sleeps until the scheduler changes (sched_gen) or until `earliest`, at
 * most IDLE_NAP_NS; returns the lock's interrupt state, the lock held
 * again. */
static uint64_t idle_nap(uint64_t earliest, uint64_t flags) {
  uint32_t gen = __atomic_load_n(&sched_gen, __ATOMIC_ACQUIRE);
  spin_unlock_irqrestore(&sched_lock, flags);
  uint64_t now = time_ns();
  uint64_t nap = earliest > now ? earliest - now : 0;
  smp_wait_word(&sched_gen, gen, nap < IDLE_NAP_NS ? nap : IDLE_NAP_NS);
  return spin_lock_irqsave(&sched_lock);
}

/* main() blocked (state T_BLOCKED): core 0 runs ready threads (when the
 * thread system holds no other core) or sleeps until main() is ready. */
static uint64_t main_block(uint64_t flags) {
  for (;;) {
    uint64_t earliest = expire_locked();
    if (main_thread.state != T_BLOCKED) {
      main_thread.state = T_RUNNING;
      return flags;
    }
    struct thread *next = held_cores == 0 ? runq_pop() : NULL;
    if (next) {
      switch_to(&main_thread.rsp, next);
      continue;
    }
    flags = idle_nap(earliest, flags);
  }
}

/* ---- Cores of the thread system -------------------------------------------- */

static void core_loop(void *unused) {
  (void)unused;
  struct core_sched *cs = &cores[cpu_index()]; /* this context stays on its core */
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  for (;;) {
    uint64_t earliest = expire_locked();
    if (live_threads == 0 || held_cores > live_threads) break;
    struct thread *next = runq_pop();
    if (next) {
      cs->current = next;
      next->state = T_RUNNING;
      thread_switch(&cs->idle_rsp, next->rsp);
      after_switch();
      continue;
    }
    flags = idle_nap(earliest, flags);
  }
  held_cores--;
  spin_unlock_irqrestore(&sched_lock, flags);
}

/* After threads became ready: one more core when fewer are held than
 * threads live and one is idle. */
static void add_core_if_useful(void) {
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  bool want = runq_head && held_cores < live_threads && held_cores + 1 < CPU_MAX;
  if (want) held_cores++;
  spin_unlock_irqrestore(&sched_lock, flags);
  if (!want) return;
  if (plat_worker_start("thread", core_loop, NULL) >= 0) return;
  flags = spin_lock_irqsave(&sched_lock);
  held_cores--;
  spin_unlock_irqrestore(&sched_lock, flags);
}

static void kick(void) {
  plat_wake(&sched_gen);
  add_core_if_useful();
}

/* ---- Threads ----------------------------------------------------------------- */

static void free_thread(struct thread *t) {
  t->magic = 0;
  free(t->stack);
  free(t);
}

static void free_graveyard(void) {
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  struct thread *list = graveyard;
  graveyard = NULL;
  spin_unlock_irqrestore(&sched_lock, flags);
  while (list) {
    struct thread *t = list;
    list = t->next;
    free_thread(t);
  }
}

struct thread *thread_self(void) {
  unsigned core = cpu_index();
  struct thread *t = cores[core].current;
  if (t) return t;
  foreign[core].magic = THREAD_MAGIC;
  return &foreign[core];
}

static bool in_thread_system(void) { return cores[cpu_index()].current != NULL; }

bool thread_valid(const struct thread *t) {
  if (!t || t->magic != THREAD_MAGIC || t->is_main) return false;
  for (unsigned c = 0; c < CPU_MAX; c++)
    if (t == &foreign[c]) return false;
  return true;
}

void thread_start(void) {
  after_switch();
  spin_unlock(&sched_lock);
  __asm__ volatile("sti" ::: "memory"); /* every thread starts with interrupts on */
  struct thread *self = thread_self();
  /* Line buffered as every core's streams are (kernel/libc_reent.c). */
  setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
  setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
  thread_exit(self->start(self->arg));
}

int thread_create(struct thread **out, void *(*start)(void *), void *arg, size_t stack_size,
                  bool detached) {
  if (!start || stack_size < 4096) return -EINVAL;
  free_graveyard();
  stack_size = (stack_size + 4095) & ~(size_t)4095;
  struct thread *t = calloc(1, sizeof *t);
  void *stack = t ? memalign(4096, stack_size) : NULL;
  struct _reent *reent = stack ? calloc(1, sizeof *reent) : NULL;
  if (!reent) {
    free(stack);
    free(t);
    return -ENOMEM;
  }
  _REENT_INIT_PTR(reent);
  *t = (struct thread){.magic = THREAD_MAGIC,
                       .state = T_RUNNABLE,
                       .detached = detached,
                       .stack = stack,
                       .stack_size = stack_size,
                       .start = start,
                       .arg = arg,
                       .reent = reent,
                       .deadline_ns = UINT64_MAX};
  /* The first switch to it pops six registers and returns to thread_entry
   * with the stack 8 bytes below a 16-byte boundary, as after a call. */
  uint64_t *sp = (uint64_t *)((uintptr_t)stack + stack_size - 16);
  *sp = (uint64_t)(uintptr_t)thread_entry;
  sp -= 6;
  memset(sp, 0, 6 * sizeof *sp);
  t->rsp = (uint64_t)(uintptr_t)sp;
  *out = t;
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  live_threads++;
  make_ready(t);
  spin_unlock_irqrestore(&sched_lock, flags);
  kick();
  return 0;
}

void thread_exit(void *result) {
  struct thread *self = thread_self();
  if (!in_thread_system()) panic("pthread_exit on a core outside the thread system");
  thread_run_destructors(self);
  if (self->is_main) {
    uint32_t live;
    while ((live = __atomic_load_n(&live_threads, __ATOMIC_ACQUIRE)) != 0)
      thread_futex_wait(&live_threads, live, UINT64_MAX);
    exit(0);
  }
  /* Its output goes out, then its newlib state is given back
   * (newlib libc/reent/reent.c _reclaim_reent closes its std streams). */
  struct _reent *r = self->reent;
  if (r->__sdidinit) {
    _fflush_r(r, r->_stdout);
    _fflush_r(r, r->_stderr);
  }
  self->reent = NULL;
  _reclaim_reent(r);
  free(r);
  spin_lock_irqsave(&sched_lock);
  self->result = result;
  self->state = T_EXITED;
  live_threads--;
  cores[cpu_index()].dead = self;
  leave_core(self);
  panic("an exited thread ran again");
}

int thread_join(struct thread *t, void **result) {
  if (!thread_valid(t)) return -EINVAL;
  if (t == thread_self()) return -EDEADLK;
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  bool refused = t->detached || t->join_taken;
  t->join_taken = true;
  spin_unlock_irqrestore(&sched_lock, flags);
  if (refused) return -EINVAL;
  while (!__atomic_load_n(&t->done, __ATOMIC_ACQUIRE)) thread_futex_wait(&t->done, 0, UINT64_MAX);
  if (result) *result = t->result;
  free_thread(t);
  return 0;
}

int thread_detach(struct thread *t) {
  if (!thread_valid(t)) return -EINVAL;
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  bool refused = t->detached || t->join_taken;
  bool done = __atomic_load_n(&t->done, __ATOMIC_ACQUIRE);
  if (!refused) t->detached = true;
  spin_unlock_irqrestore(&sched_lock, flags);
  if (refused) return -EINVAL;
  if (done) free_thread(t);
  return 0;
}

/* Runs another ready thread on this core if there is one; true if it did. */
static bool yield_locked(struct thread *self) {
  unsigned core = cpu_index();
  expire_locked();
  struct thread *next = pick_next(core);
  if (!next) return false;
  self->state = T_RUNNABLE;
  if (!self->is_main) runq_push(self);
  switch_to(&self->rsp, next);
  self->state = T_RUNNING;
  return true;
}

void thread_yield(void) {
  if (!in_thread_system()) {
    plat_cpu_relax();
    return;
  }
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  yield_locked(thread_self());
  spin_unlock_irqrestore(&sched_lock, flags);
}

/* ---- Waiting ----------------------------------------------------------------- */

int thread_futex_wait(const volatile uint32_t *word, uint32_t expected, uint64_t deadline_ns) {
  if (!in_thread_system()) {
    if (*word != expected) return -EAGAIN;
    uint64_t now = time_ns();
    if (now >= deadline_ns) return -ETIMEDOUT;
    smp_wait_word(word, expected, deadline_ns == UINT64_MAX ? UINT64_MAX : deadline_ns - now);
    return *word == expected && time_ns() >= deadline_ns ? -ETIMEDOUT : 0;
  }
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  if (*word != expected) {
    spin_unlock_irqrestore(&sched_lock, flags);
    return -EAGAIN;
  }
  struct thread *self = thread_self();
  self->wait_word = word;
  self->deadline_ns = deadline_ns;
  self->timed_out = false;
  self->state = T_BLOCKED;
  self->next = waiters;
  waiters = self;
  if (deadline_ns <= time_ns()) {
    waiters_remove(self);
    self->timed_out = true;
    self->state = T_RUNNING;
  } else if (self->is_main) {
    flags = main_block(flags);
  } else {
    leave_core(self);
    self->state = T_RUNNING;
  }
  bool timed_out = self->timed_out;
  self->wait_word = NULL;
  self->deadline_ns = UINT64_MAX;
  spin_unlock_irqrestore(&sched_lock, flags);
  return timed_out ? -ETIMEDOUT : 0;
}

void thread_futex_wake(const volatile uint32_t *word, uint32_t count) {
  uint64_t flags = spin_lock_irqsave(&sched_lock);
  unsigned woken = wake_locked(word, count);
  spin_unlock_irqrestore(&sched_lock, flags);
  plat_wake(word); /* waiters outside the thread system */
  if (woken) kick();
}

bool thread_plat_wait(const volatile uint32_t *word, uint32_t expected, uint64_t deadline_ns) {
  if (!(read_rflags() & RFLAGS_IF_BIT) || !in_thread_system()) return false;
  if (!__atomic_load_n(&live_threads, __ATOMIC_RELAXED)) return false;
  struct thread *self = thread_self();
  uint64_t now;
  while (*word == expected && (now = time_ns()) < deadline_ns) {
    uint64_t flags = spin_lock_irqsave(&sched_lock);
    bool ran = yield_locked(self);
    spin_unlock_irqrestore(&sched_lock, flags);
    if (ran) continue;
    uint64_t left = deadline_ns - now;
    smp_wait_word(word, expected, left < YIELD_SLICE_NS ? left : YIELD_SLICE_NS);
  }
  return true;
}

struct _reent *thread_reent(void) {
  struct thread *t = cores[cpu_index()].current;
  return t ? t->reent : NULL;
}

unsigned thread_cores_available(void) {
  unsigned n = 1 + __atomic_load_n(&held_cores, __ATOMIC_RELAXED);
  for (unsigned c = 1; c < smp_core_limit(); c++) n += smp_core_idle(c);
  return n;
}

unsigned thread_live_count(void) { return __atomic_load_n(&live_threads, __ATOMIC_RELAXED); }

unsigned thread_cores_held(void) { return __atomic_load_n(&held_cores, __ATOMIC_RELAXED); }
