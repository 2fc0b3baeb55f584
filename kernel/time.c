/*
 * time.c - the TSC clock, its calibration, and sleeping (see time.h).
 */
#define LOG_TAG "time"
#include "kernel/time.h"

#include <errno.h>

#include "boot/boot_info.h"
#include "kernel/acpi.h"
#include "kernel/acpi_pm_timer.h"
#include "kernel/cpu.h"
#include "kernel/hpet.h"
#include "kernel/lapic.h"
#include "kernel/tsc.h"
#include "lib/plat.h"

/* time_ns() = base_ns + (tsc - base_tsc) * mult >> 32. Changed by the boot
 * core only (time_calibrate), under a sequence count: odd while it changes,
 * so that a reader on another core retries instead of mixing old and new
 * fields. */
static struct {
  uint32_t seq;
  uint64_t base_tsc;
  uint64_t base_ns;
  uint64_t mult;
  uint64_t hz;
  const char *source;
} tsc_clock = {0, 0, 0, 0, 0, "none"};

void time_init_boot(const struct boot_info *info) {
  tsc_clock.base_tsc = info->entry_tsc;
  tsc_clock.base_ns = 0;
  /* boot/ measured the TSC against BS->Stall; a guess if that failed. */
  tsc_clock.hz = info->tsc_hz ? info->tsc_hz : 1000000000ull;
  tsc_clock.mult = clock_mult_for_hz(tsc_clock.hz);
  tsc_clock.source = "boot";
}

static uint64_t ns_at(uint64_t tsc, uint64_t base_tsc, uint64_t base_ns, uint64_t mult) {
  /* Another core's TSC may be a hair behind the boot core's at the base. */
  if (tsc < base_tsc) return base_ns;
  return base_ns + clock_ticks_to_ns(tsc - base_tsc, mult);
}

uint64_t time_ns(void) {
  for (;;) {
    uint32_t seq = __atomic_load_n(&tsc_clock.seq, __ATOMIC_ACQUIRE);
    uint64_t base_tsc = __atomic_load_n(&tsc_clock.base_tsc, __ATOMIC_RELAXED);
    uint64_t base_ns = __atomic_load_n(&tsc_clock.base_ns, __ATOMIC_RELAXED);
    uint64_t mult = __atomic_load_n(&tsc_clock.mult, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (seq & 1 || __atomic_load_n(&tsc_clock.seq, __ATOMIC_RELAXED) != seq) {
      __builtin_ia32_pause();
      continue;
    }
    if (!mult) return 0; /* before time_init_boot */
    return ns_at(rdtsc(), base_tsc, base_ns, mult);
  }
}

uint64_t time_tsc_hz(void) { return tsc_clock.hz; }
const char *time_source(void) { return tsc_clock.source; }
uint64_t plat_now_ns(void) { return time_ns(); }

static void set_frequency(uint64_t hz, const char *source) {
  uint64_t flags = read_rflags();
  __asm__ volatile("cli" ::: "memory"); /* no reader on this core while the count is odd */
  __atomic_store_n(&tsc_clock.seq, tsc_clock.seq + 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  uint64_t tsc = rdtsc();
  uint64_t now = ns_at(tsc, tsc_clock.base_tsc, tsc_clock.base_ns, tsc_clock.mult);
  uint64_t old_hz = tsc_clock.hz;
  __atomic_store_n(&tsc_clock.base_tsc, tsc, __ATOMIC_RELAXED);
  __atomic_store_n(&tsc_clock.base_ns, now, __ATOMIC_RELAXED);
  __atomic_store_n(&tsc_clock.mult, clock_mult_for_hz(hz), __ATOMIC_RELAXED);
  tsc_clock.hz = hz;
  tsc_clock.source = source;
  __atomic_store_n(&tsc_clock.seq, tsc_clock.seq + 1, __ATOMIC_RELEASE);
  if (flags & RFLAGS_IF_BIT) __asm__ volatile("sti" ::: "memory");
  long long diff_ppm = (long long)(((__int128)old_hz - (__int128)hz) * 1000000 / (__int128)hz);
  log_info("TSC %llu.%03llu MHz from %s (boot estimate off by %lld ppm)",
           (unsigned long long)(hz / 1000000), (unsigned long long)(hz / 1000 % 1000), source,
           diff_ppm);
}

/* A TSC reading paired with a reference reading, taken so that the pair is
 * at most a few hundred TSC ticks apart: of several tries, the one with the
 * tightest bracket (an interrupt or, under emulation, a descheduled vCPU
 * between the reads would spoil a single try). */
struct pair {
  uint64_t tsc, ref;
};

static struct pair sample(uint64_t (*ref_read)(void)) {
  struct pair best = {0, 0};
  uint64_t best_width = ~0ull;
  for (int i = 0; i < 8; i++) {
    uint64_t before = rdtsc();
    uint64_t ref = ref_read();
    uint64_t after = rdtsc();
    if (after - before < best_width) {
      best_width = after - before;
      best = (struct pair){before + (after - before) / 2, ref};
    }
  }
  return best;
}

/* The measurement spans the boot's next steps instead of a wait of its
 * own: time_calibration_begin() takes the first reading, time_calibrate()
 * the second, after at least CALIBRATION_NS (it waits for the rest when
 * the boot was quicker). A bracket of a few hundred TSC ticks over 25 ms
 * or more is some 10 ppm on a board, a few hundred under emulation. */
#define CALIBRATION_NS (25 * 1000 * 1000ull)

static struct {
  uint64_t (*read)(void); /* NULL: CPUID states the frequency, or no reference */
  unsigned bits;
  uint64_t hz;
  const char *name;
  struct pair first;
} reference;

static uint64_t read_pm_timer(void) { return acpi_pm_timer_read(); }

static uint64_t cpuid_tsc_hz(void) {
  uint32_t max_leaf[4], leaf15[4], leaf16[4];
  cpuid(0, 0, max_leaf);
  if (max_leaf[0] >= 0x15) cpuid(0x15, 0, leaf15);
  if (max_leaf[0] >= 0x16) cpuid(0x16, 0, leaf16);
  return tsc_hz_from_cpuid(max_leaf[0] >= 0x15 ? leaf15 : NULL,
                           max_leaf[0] >= 0x16 ? leaf16 : NULL);
}

/* The HPET, else the PM timer; false if neither exists. */
static bool choose_reference(bool hpet) {
  if (hpet && hpet_present()) {
    reference.read = hpet_counter;
    reference.bits = hpet_counter_bits();
    reference.hz = hpet_hz();
    reference.name = "hpet";
  } else if (acpi_pm_timer_present()) {
    reference.read = read_pm_timer;
    reference.bits = acpi_pm_timer_bits();
    reference.hz = ACPI_PM_TIMER_HZ;
    reference.name = "pm-timer";
  } else {
    reference.read = NULL;
    return false;
  }
  reference.first = sample(reference.read);
  return true;
}

void time_calibration_begin(void) {
  if (!cpuid_tsc_hz()) choose_reference(true);
}

/* The TSC frequency from the first reading to now, at least CALIBRATION_NS
 * apart; 0 if the reference does not count. */
static uint64_t measure_tsc(void) {
  uint64_t want = reference.hz * CALIBRATION_NS / 1000000000u;
  /* A reference that may have wrapped since the first reading (the 24-bit
   * PM timer wraps every 4.7 s; by the boot estimate, with a margin of 2)
   * starts again. */
  uint64_t wrap_ns = reference.bits >= 64 ? UINT64_MAX
                                          : clock_ticks_to_ns(1ull << reference.bits,
                                                              clock_mult_for_hz(reference.hz));
  uint64_t elapsed_ns = clock_ticks_to_ns(rdtsc() - reference.first.tsc, tsc_clock.mult);
  if (elapsed_ns > wrap_ns / 2) reference.first = sample(reference.read);
  struct pair a = reference.first;
  /* Bounded: 10 million reads is seconds even for a dead counter. */
  for (long spins = 0; counter_delta(a.ref, reference.read(), reference.bits) < want; spins++) {
    if (spins > 10000000) return 0;
  }
  struct pair b = sample(reference.read);
  return clock_hz_from_reference(b.tsc - a.tsc, counter_delta(a.ref, b.ref, reference.bits),
                                 reference.hz);
}

int time_calibrate(void) {
  uint32_t ext[4];
  cpuid(0x80000000, 0, ext);
  bool invariant = false;
  if (ext[0] >= 0x80000007) {
    cpuid(0x80000007, 0, ext);
    invariant = ext[3] & (1u << 8); /* Intel SDM vol. 2A, CPUID 80000007H EDX[8] */
  }
  if (!invariant) log_info("the TSC is not invariant (CPUID): time is exact only at a fixed core clock");
  uint64_t hz = cpuid_tsc_hz();
  if (hz) {
    set_frequency(hz, "cpuid");
    return 0;
  }
  if (!reference.read) choose_reference(true); /* time_calibration_begin was not called */
  if (reference.read && !(hz = measure_tsc()) && reference.read == hpet_counter) {
    log_warn("the HPET does not count: measuring against the PM timer");
    if (choose_reference(false)) hz = measure_tsc();
  }
  if (hz) {
    set_frequency(hz, reference.name);
    return 0;
  }
  log_warn("no CPUID frequency, HPET or PM timer: keeping the boot estimate of the TSC");
  return -ENODEV;
}

void time_sleep_until(uint64_t deadline_ns) {
  bool can_halt = (read_rflags() & RFLAGS_IF_BIT) && lapic_timer_hz();
  for (uint64_t now = time_ns(); now < deadline_ns; now = time_ns()) {
    if (!can_halt) {
      plat_cpu_relax();
      continue;
    }
    /* cli; arm; sti; hlt: the timer cannot fire between the check and the
     * halt unnoticed (STI holds interrupts off for one more instruction,
     * Intel SDM vol. 2B "STI"). */
    __asm__ volatile("cli" ::: "memory");
    lapic_timer_oneshot(deadline_ns - now);
    __asm__ volatile("sti; hlt" ::: "memory");
  }
  if (can_halt) lapic_timer_stop();
}

void plat_sleep_ns(uint64_t ns) {
  uint64_t now = time_ns();
  time_sleep_until(ns > UINT64_MAX - now ? UINT64_MAX : now + ns);
}
