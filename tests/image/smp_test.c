/* The other cores: every enabled processor online, running work on
 * request with SSE floating point, parked by halting, the run-on-core
 * errors, workers, memory waits, TLB shootdowns. With one core (the
 * image-smp1 boot) the tests that need another core are skipped. */
#include <errno.h>
#include <math.h>

#include "kernel/acpi.h"
#include "kernel/cpu.h"
#include "kernel/lapic.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "lib/plat.h"
#include "lib/test.h"

static unsigned first_ap(void) {
  for (unsigned c = 1; c < smp_core_limit(); c++)
    if (smp_core_online(c)) return c;
  test_skip("only the boot core is online");
}

TEST(smp_every_enabled_processor_online) {
  const struct acpi_info *a = acpi_machine();
  unsigned enabled = 0;
  for (unsigned i = 0; i < a->madt.cpu_count; i++) enabled += a->madt.cpus[i].enabled;
  ASSERT_GE(enabled, 1);
  ASSERT_EQ(smp_core_count(), enabled);
  ASSERT_TRUE(smp_core_online(0));
  ASSERT_EQ(smp_core_apic_id(0), lapic_id());
}

struct where {
  unsigned core;
  uint32_t apic_id;
};
static void report_where(void *arg) {
  struct where *w = arg;
  w->core = cpu_index();
  w->apic_id = lapic_id();
}

TEST(smp_each_core_runs_work_on_request) {
  unsigned ran = 0;
  for (unsigned c = 1; c < smp_core_limit(); c++) {
    if (!smp_core_online(c)) continue;
    struct where w = {~0u, ~0u};
    ASSERT_EQ(smp_run(c, report_where, &w), 0);
    ASSERT_EQ(w.core, c);
    ASSERT_EQ(w.apic_id, smp_core_apic_id(c));
    ASSERT_TRUE(smp_core_idle(c));
    ran++;
  }
  ASSERT_EQ(ran, smp_core_count() - 1);
  if (!ran) test_skip("only the boot core is online");
}

/* SSE and x87 on every core: the same computation gives the same bits. */
struct fp_job {
  double result;
  uint64_t cr0, cr4;
};
static void fp_work(void *arg) {
  struct fp_job *j = arg;
  volatile double sum = 0;
  for (int i = 1; i <= 20000; i++) sum += sqrt((double)i) / (double)i + (float)i * 0.5f;
  j->result = sum;
  j->cr0 = read_cr0();
  j->cr4 = read_cr4();
}

TEST(smp_cores_compute_floating_point) {
  struct fp_job mine;
  fp_work(&mine);
  unsigned c = first_ap();
  for (; c < smp_core_limit(); c++) {
    if (!smp_core_online(c)) continue;
    struct fp_job theirs = {0, 0, 0};
    ASSERT_EQ(smp_run(c, fp_work, &theirs), 0);
    ASSERT_TRUE(theirs.result == mine.result);
    ASSERT_TRUE(theirs.cr4 & CR4_OSFXSR);
    ASSERT_FALSE(theirs.cr0 & CR0_EM);
  }
}

TEST(smp_parked_cores_sleep) {
  unsigned c = first_ap();
  ASSERT_TRUE(smp_core_idle(c));
  /* A parked core halts until an interrupt; spinning would go around its
   * loop millions of times in 50 ms. */
  uint64_t before = __atomic_load_n(&percpu[c].halts, __ATOMIC_RELAXED);
  plat_sleep_ns(50000000);
  uint64_t after = __atomic_load_n(&percpu[c].halts, __ATOMIC_RELAXED);
  ASSERT_LE(after - before, 5);
}

static uint32_t gate;
static void wait_for_gate(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE)) plat_wait(&gate, 0, 1000000000ull);
}

TEST(smp_run_errors_and_timeouts) {
  ASSERT_EQ(smp_run(0, wait_for_gate, NULL), -ENODEV);      /* the boot core runs main() */
  ASSERT_EQ(smp_run(CPU_MAX + 5, wait_for_gate, NULL), -ENODEV);
  unsigned c = first_ap();
  ASSERT_EQ(smp_run(c, NULL, NULL), -ENODEV);
  gate = 0;
  uint32_t ticket;
  ASSERT_EQ(smp_run_async(c, wait_for_gate, NULL, "gate", &ticket), 0);
  ASSERT_EQ(smp_run_async(c, wait_for_gate, NULL, "second", NULL), -EBUSY);
  ASSERT_FALSE(smp_core_idle(c));
  ASSERT_EQ(smp_wait_done(c, ticket, 20000000), -ETIMEDOUT);
  __atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
  plat_wake(&gate);
  ASSERT_EQ(smp_wait_done(c, ticket, 5000000000ull), 0);
  ASSERT_TRUE(smp_core_idle(c));
}

static unsigned worker_core[CPU_MAX];
/* Notes where it runs, then holds its core until the gate opens. */
static void worker(void *arg) {
  unsigned *slot = arg;
  __atomic_store_n(slot, cpu_index(), __ATOMIC_RELEASE);
  while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE)) plat_wait(&gate, 0, 1000000000ull);
}

TEST(plat_workers_run_on_the_spare_cores) {
  int slots = plat_worker_slots();
  ASSERT_EQ(slots, (int)smp_core_count() - 1);
  gate = 0;
  if (slots == 0) {
    gate = 1;
    ASSERT_LT(plat_worker_start("none", worker, &worker_core[0]), 0);
    test_skip("no spare core");
  }
  /* Every spare core takes one worker; one more finds none free. */
  int ids[CPU_MAX];
  for (int i = 0; i < slots; i++) {
    worker_core[i] = ~0u;
    ids[i] = plat_worker_start("where", worker, &worker_core[i]);
    ASSERT_GT(ids[i], 0);
  }
  int extra = plat_worker_start("extra", worker, &worker_core[slots]);
  for (int i = 0; i < slots; i++) {
    uint64_t end = time_ns() + 5000000000ull;
    while (__atomic_load_n(&worker_core[i], __ATOMIC_ACQUIRE) == ~0u && time_ns() < end)
      plat_cpu_relax();
  }
  __atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
  plat_wake(&gate);
  for (int i = 0; i < slots; i++) plat_worker_join(ids[i]);
  ASSERT_EQ(extra, -EBUSY);
  /* Each ran on the core its id names, none on main()'s, no two together. */
  for (int i = 0; i < slots; i++) {
    ASSERT_EQ(worker_core[i], (unsigned)ids[i]);
    ASSERT_NE(worker_core[i], 0);
    for (int j = 0; j < i; j++) ASSERT_NE(worker_core[i], worker_core[j]);
  }
  plat_worker_join(0); /* not a worker: logged, no wait */
}

/* A core stores a new value after a delay, with or without plat_wake. */
struct setter {
  uint32_t *word;
  uint64_t delay_ns;
  bool wake;
};
static void set_later(void *arg) {
  struct setter *s = arg;
  plat_sleep_ns(s->delay_ns);
  __atomic_store_n(s->word, 1, __ATOMIC_RELEASE);
  if (s->wake) plat_wake(s->word);
}

static void check_wait(unsigned c, bool wake) {
  static uint32_t word;
  word = 0;
  struct setter s = {&word, 20000000, wake};
  uint32_t ticket;
  ASSERT_EQ(smp_run_async(c, set_later, &s, "setter", &ticket), 0);
  uint64_t start = time_ns();
  while (__atomic_load_n(&word, __ATOMIC_ACQUIRE) == 0 && time_ns() - start < 10000000000ull)
    plat_wait(&word, 0, 10000000000ull);
  uint64_t waited = time_ns() - start;
  ASSERT_EQ(smp_wait_done(c, ticket, 5000000000ull), 0);
  ASSERT_EQ(word, 1);
  ASSERT_GE(waited, 19000000);
  ASSERT_LT(waited, 5000000000ull); /* woken, not timed out */
}

TEST(plat_wait_returns_on_wake_or_change) {
  unsigned c = first_ap();
  check_wait(c, true);
  check_wait(c, false); /* no plat_wake: seen by the periodic check (hlt) or MONITOR (mwait) */
  /* The same in the other mode, where the CPU has it. */
  int previous = smp_set_wait_mode(SMP_WAIT_MWAIT);
  if (previous >= 0) {
    check_wait(c, true);
    check_wait(c, false);
    smp_set_wait_mode((enum smp_wait_mode)previous);
  }
  previous = smp_set_wait_mode(SMP_WAIT_HLT);
  check_wait(c, true);
  smp_set_wait_mode((enum smp_wait_mode)previous);
}

TEST(plat_wait_times_out_and_returns_at_once_on_other_value) {
  uint32_t word = 7;
  uint64_t start = time_ns();
  plat_wait(&word, 7, 30000000);
  uint64_t waited = time_ns() - start;
  ASSERT_GE(waited, 30000000);
  ASSERT_LT(waited, 2000000000ull);
  start = time_ns();
  plat_wait(&word, 8, 5000000000ull); /* not the expected value: no wait */
  plat_wait(&word, 7, 0);
  ASSERT_LT(time_ns() - start, 1000000000ull);
}

TEST(smp_tlb_shootdown_reaches_every_core) {
  unsigned c = first_ap();
  (void)c;
  uint32_t before[CPU_MAX];
  for (unsigned i = 0; i < smp_core_limit(); i++) before[i] = percpu[i].tlb_flushes;
  smp_tlb_shootdown();
  for (unsigned i = 1; i < smp_core_limit(); i++)
    if (smp_core_online(i)) ASSERT_EQ(percpu[i].tlb_flushes, before[i] + 1);
  ASSERT_EQ(percpu[0].tlb_flushes, before[0]); /* the caller flushes itself */
}

TEST(smp_absent_processor_reported_and_left_out) {
  /* An APIC ID no processor has: INIT-SIPI-SIPI goes unanswered, the start
   * times out, and nothing about the running cores changes. */
  const struct acpi_info *a = acpi_machine();
  uint32_t absent = 0x7e;
  for (unsigned i = 0; i < a->madt.cpu_count; i++) ASSERT_NE(a->madt.cpus[i].apic_id, absent);
  unsigned count = smp_core_count(), limit = smp_core_limit();
  ASSERT_EQ(smp_start_core(absent, 99), -ETIMEDOUT);
  ASSERT_EQ(smp_core_count(), count);
  ASSERT_EQ(smp_core_limit(), limit);
  ASSERT_EQ(smp_start_core(lapic_id(), 0), -EEXIST);
  if (smp_core_limit() > 1) {
    /* The cores started at boot still take work. */
    struct where w = {~0u, ~0u};
    ASSERT_EQ(smp_run(first_ap(), report_where, &w), 0);
    ASSERT_EQ(w.core, first_ap());
  }
}
