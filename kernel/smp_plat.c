/*
 * smp_plat.c - lib/plat.h's workers and memory waits in the image.
 *
 * Workers run on the application processors (never on core 0, which runs
 * main()); a worker's id is its core index. A waiting core sleeps:
 *  - "hlt" (default under a hypervisor, and where MONITOR/MWAIT is absent):
 *    the core halts with its local APIC timer set to the earlier of the
 *    deadline and a 1 ms poll (a value changed without plat_wake is seen
 *    within that), and plat_wake ends the halt at once with an IPI;
 *  - "mwait" (default on hardware that has it): MONITOR on the word's
 *    cache line, MWAIT; a store to the line, an interrupt (plat_wake's IPI)
 *    or the timer at the deadline ends it (Intel SDM vol. 2B, MONITOR and
 *    MWAIT; AMD64 APM vol. 3, the same). Under QEMU's TCG with several
 *    CPUs MWAIT does not sleep, which is why hlt is the default there.
 * Boot option wait=hlt|mwait overrides the choice.
 */
#define LOG_TAG "smp"
#include <errno.h>
#include <string.h>

#include "kernel/cpu.h"
#include "kernel/irq.h"
#include "kernel/lapic.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "lib/plat.h"

PLAT_OPTION(wait, "wait", "hlt|mwait: how a core sleeps in plat_wait (default mwait on hardware)");

#define POLL_NS (1000 * 1000ull)
#define CPUID1_ECX_MONITOR (1u << 3)

static int use_mwait = -1; /* decided on first use */

static bool have_monitor(void) {
  uint32_t r[4];
  cpuid(1, 0, r);
  return r[2] & CPUID1_ECX_MONITOR;
}

static bool mwait_chosen(void) {
  if (use_mwait < 0) {
    bool have = have_monitor();
    const char *opt = plat_option("wait");
    if (opt && strcmp(opt, "mwait") == 0 && !have) log_warn("wait=mwait: no MONITOR/MWAIT, using hlt");
    use_mwait = have && (opt ? strcmp(opt, "mwait") == 0 : !cpu_under_hypervisor());
  }
  return use_mwait;
}

enum smp_wait_mode smp_wait_mode(void) { return mwait_chosen() ? SMP_WAIT_MWAIT : SMP_WAIT_HLT; }

int smp_set_wait_mode(enum smp_wait_mode mode) {
  if (mode == SMP_WAIT_MWAIT && !have_monitor()) return -ENODEV;
  int previous = (int)smp_wait_mode();
  use_mwait = mode == SMP_WAIT_MWAIT;
  return previous;
}

static bool should_stop(const volatile uint32_t *word, uint32_t expected, struct percpu *pc) {
  return *word != expected || __atomic_load_n(&pc->wake_pending, __ATOMIC_ACQUIRE);
}

void plat_wait(const volatile uint32_t *word, uint32_t expected, uint64_t timeout_ns) {
  if (*word != expected || timeout_ns == 0) return;
  uint64_t now = time_ns();
  uint64_t deadline = timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
  /* A thread lets the other ready threads of its core run meanwhile. */
  if (thread_plat_wait(word, expected, deadline)) return;
  smp_wait_word(word, expected, timeout_ns);
}

void smp_wait_word(const volatile uint32_t *word, uint32_t expected, uint64_t timeout_ns) {
  if (*word != expected || timeout_ns == 0) return;
  uint64_t now = time_ns();
  uint64_t deadline = timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
  struct percpu *pc = percpu_this();
  if (!(read_rflags() & RFLAGS_IF_BIT) || !lapic_timer_hz()) {
    /* Interrupts off (or no timer yet): nothing could end a halt. */
    while (*word == expected && time_ns() < deadline) plat_cpu_relax();
    return;
  }
  bool mwait = mwait_chosen();
  __atomic_store_n(&pc->wake_pending, 0, __ATOMIC_RELAXED);
  /* Sequentially consistent: the store of waiting_on is ordered before the
   * load of *word, as plat_wake orders its caller's store of the value
   * before its load of waiting_on; one of the two always sees the other. */
  __atomic_store_n(&pc->waiting_on, word, __ATOMIC_SEQ_CST);
  while (!should_stop(word, expected, pc) && (now = time_ns()) < deadline) {
    uint64_t nap = deadline - now;
    if (!mwait && nap > POLL_NS) nap = POLL_NS;
    __asm__ volatile("cli" ::: "memory");
    if (mwait) __asm__ volatile("monitor" ::"a"(word), "c"(0), "d"(0));
    if (should_stop(word, expected, pc)) {
      __asm__ volatile("sti" ::: "memory");
      break;
    }
    lapic_timer_oneshot(nap);
    if (mwait) {
      /* STI's one-instruction delay covers MWAIT: an interrupt that is
       * already pending ends it instead of being taken before it. */
      __asm__ volatile("sti; mwait" ::"a"(0), "c"(0) : "memory");
    } else {
      __asm__ volatile("sti; hlt" ::: "memory");
    }
  }
  lapic_timer_stop();
  __atomic_store_n(&pc->waiting_on, NULL, __ATOMIC_RELEASE);
}

void plat_wake(const volatile uint32_t *word) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  unsigned self = cpu_index();
  for (unsigned c = 0; c < smp_core_limit(); c++) {
    struct percpu *pc = &percpu[c];
    if (!smp_core_online(c) || __atomic_load_n(&pc->waiting_on, __ATOMIC_ACQUIRE) != word) continue;
    __atomic_store_n(&pc->wake_pending, 1, __ATOMIC_RELEASE);
    /* On this core (an interrupt handler waking the code it interrupted)
     * the interrupt already ended the halt. */
    if (c != self) smp_send_ipi(c, IRQ_VECTOR_WAKE);
  }
}

/* ---- Workers ---------------------------------------------------------------- */

static uint32_t worker_ticket[CPU_MAX];

int plat_worker_slots(void) { return (int)smp_core_count() - 1; }

int plat_worker_start(const char *name, void (*fn)(void *arg), void *arg) {
  if (!fn) return -EINVAL;
  for (unsigned c = 1; c < smp_core_limit(); c++) {
    if (!smp_core_idle(c)) continue;
    uint32_t ticket;
    if (smp_run_async(c, fn, arg, name, &ticket) == 0) {
      worker_ticket[c] = ticket;
      log_debug("worker %s on core %u", name ? name : "?", c);
      return (int)c;
    }
  }
  /* Not a warning: callers expect -EBUSY (a CPU agent keeps the cores it
   * got, async handlers fall back to a CPU agent) and say what it means. */
  log_debug("worker %s: no idle core (%d worker slot(s))", name ? name : "?", plat_worker_slots());
  return -EBUSY;
}

void plat_worker_join(int worker_id) {
  if (worker_id <= 0 || (unsigned)worker_id >= smp_core_limit()) {
    log_error("plat_worker_join: no worker %d", worker_id);
    return;
  }
  smp_wait_done((unsigned)worker_id, worker_ticket[worker_id], UINT64_MAX);
}
