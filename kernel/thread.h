/*
 * thread.h - the image's threads: the scheduler under <pthread.h>
 * (kernel/pthread.c) and the hooks the rest of the kernel calls.
 *
 * A thread runs on whatever core the thread system holds:
 *  - main() is a thread that runs only on core 0;
 *  - pthread_create takes one more idle application processor for the
 *    thread system (plat_worker_start, as CPU agents and the GPU model's
 *    worker take theirs), as long as it holds fewer cores than there are
 *    threads. A held core runs a loop that takes threads from one run
 *    queue shared by all held cores, sleeps while the queue is empty, and
 *    gives the core back once no thread is left (or more cores are held
 *    than threads live). A core a CPU agent or the GPU model holds is
 *    never taken, so the GPU model's core is never shared.
 *  - when the thread system holds no core (one-core machines, or every
 *    other core busy), the threads share core 0 with main(): they run
 *    while main() blocks in a thread call or in plat_wait.
 * Switching is cooperative: a core changes threads when its thread blocks
 * (join, a mutex or condition variable, sleep), yields (sched_yield), exits,
 * or waits in plat_wait (hsa_signal_wait and the like) while another
 * thread is ready. A thread that computes without any of these keeps its
 * core; there is no timer preemption.
 *
 * Waiting is a futex over a 32-bit word, as Linux's futex(2) is: block
 * while *word == expected, until thread_futex_wake(word) or a deadline.
 * Code that runs outside the thread system (a CPU agent's or the GPU
 * model's worker core) may call these too: it sleeps in plat_wait instead.
 */
#ifndef KERNEL_THREAD_H
#define KERNEL_THREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define THREAD_KEYS_MAX 128 /* pthread.h PTHREAD_KEYS_MAX */

struct _reent;

struct thread {
  uint32_t magic; /* THREAD_MAGIC while the record is valid */
  int state;      /* enum thread_state (thread.c) */
  bool is_main;   /* main(): core 0 only */
  bool detached;
  bool join_taken; /* a pthread_join is waiting for it */
  bool timed_out;  /* its last futex wait ended at the deadline */
  uint32_t done;   /* 1 once it has exited and left its stack (join waits) */
  uint64_t rsp;    /* saved stack pointer while switched out */
  void *stack;     /* malloc'ed, NULL for main() */
  size_t stack_size;
  void *(*start)(void *);
  void *arg;
  void *result;
  struct _reent *reent; /* its newlib state (errno, std streams); NULL: the core's */
  const volatile uint32_t *wait_word;
  uint64_t deadline_ns;                   /* of the futex wait; UINT64_MAX: none */
  struct thread *next;                    /* run queue or wait list */
  void *specific[THREAD_KEYS_MAX];        /* pthread_getspecific ... */
  uint32_t specific_gen[THREAD_KEYS_MAX]; /* ... when set under this generation of the key */
};

/* A new thread that runs start(arg) with a stack of stack_size bytes,
 * joinable unless `detached`. 0, -ENOMEM or -EINVAL. */
int thread_create(struct thread **out, void *(*start)(void *), void *arg, size_t stack_size,
                  bool detached);
/* The calling thread's record: main()'s on core 0, the running thread's,
 * or on a core outside the thread system one record per core. */
struct thread *thread_self(void);
/* Whether `t` is a record thread_create made and nobody has joined yet. */
bool thread_valid(const struct thread *t);
/* Ends the calling thread with `result`. main(): once every other thread
 * has ended, the run ends with exit(0) (POSIX pthread_exit); a core outside
 * the thread system (a CPU agent's) cannot: a panic says so. */
void thread_exit(void *result) __attribute__((noreturn));
/* Waits for `t` to end, then frees it. 0, -EDEADLK (itself), -EINVAL. */
int thread_join(struct thread *t, void **result);
int thread_detach(struct thread *t);
/* Lets another ready thread run on this core. */
void thread_yield(void);

/* 0 when woken (or spuriously), -EAGAIN when *word != expected at once,
 * -ETIMEDOUT when time_ns() reached deadline_ns (UINT64_MAX: none). */
int thread_futex_wait(const volatile uint32_t *word, uint32_t expected, uint64_t deadline_ns);
/* Wakes up to `count` waiters of `word` (UINT32_MAX: all). */
void thread_futex_wake(const volatile uint32_t *word, uint32_t count);

/* The thread-specific data destructors of `t`, run by thread_exit before
 * it ends (kernel/pthread.c). */
void thread_run_destructors(struct thread *t);

/* plat_wait's hook (kernel/smp_plat.c): on a core of the thread system
 * with interrupts on, waits for *word != expected while running the other
 * ready threads, and returns true; false: the caller waits as usual. */
bool thread_plat_wait(const volatile uint32_t *word, uint32_t expected, uint64_t deadline_ns);

/* newlib's state for __getreent (kernel/libc_reent.c): the running
 * thread's, or NULL for the core's own. */
struct _reent *thread_reent(void);

/* Cores this machine can give to threads now: core 0, the ones the thread
 * system holds, and the idle ones (sysconf(_SC_NPROCESSORS_ONLN)). */
unsigned thread_cores_available(void);
/* Threads that have not yet exited, main() not counted (tests). */
unsigned thread_live_count(void);
/* Application processors the thread system holds now (tests). */
unsigned thread_cores_held(void);

#endif
