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

/* time_ns() = base_ns + (tsc - base_tsc) * mult >> 32. Changed only by the
 * boot core before the other cores run. */
static struct {
  uint64_t base_tsc;
  uint64_t base_ns;
  uint64_t mult;
  uint64_t hz;
  const char *source;
} tsc_clock = {0, 0, 0, 0, "none"};

void time_init_boot(const struct boot_info *info) {
  tsc_clock.base_tsc = info->entry_tsc;
  tsc_clock.base_ns = 0;
  /* boot/ measured the TSC against BS->Stall; a guess if that failed. */
  tsc_clock.hz = info->tsc_hz ? info->tsc_hz : 1000000000ull;
  tsc_clock.mult = clock_mult_for_hz(tsc_clock.hz);
  tsc_clock.source = "boot";
}

uint64_t time_ns(void) {
  if (!tsc_clock.mult) return 0; /* before time_init_boot */
  uint64_t tsc = rdtsc();
  /* Another core's TSC may be a hair behind the boot core's at the base. */
  if (tsc < tsc_clock.base_tsc) return tsc_clock.base_ns;
  return tsc_clock.base_ns + clock_ticks_to_ns(tsc - tsc_clock.base_tsc, tsc_clock.mult);
}

uint64_t time_tsc_hz(void) { return tsc_clock.hz; }
const char *time_source(void) { return tsc_clock.source; }
uint64_t plat_now_ns(void) { return time_ns(); }

static void set_frequency(uint64_t hz, const char *source) {
  uint64_t tsc = rdtsc();
  uint64_t now = tsc_clock.base_ns + clock_ticks_to_ns(tsc - tsc_clock.base_tsc, tsc_clock.mult);
  uint64_t old_hz = tsc_clock.hz;
  tsc_clock.base_tsc = tsc;
  tsc_clock.base_ns = now;
  tsc_clock.hz = hz;
  tsc_clock.mult = clock_mult_for_hz(hz);
  tsc_clock.source = source;
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

#define CALIBRATION_NS (25 * 1000 * 1000ull)

static uint64_t measure_tsc(uint64_t (*ref_read)(void), unsigned ref_bits, uint64_t ref_hz) {
  uint64_t want = ref_hz * CALIBRATION_NS / 1000000000u;
  struct pair a = sample(ref_read);
  /* Bounded: 10 million reads is seconds even for a dead counter. */
  for (long spins = 0; counter_delta(a.ref, ref_read(), ref_bits) < want; spins++) {
    if (spins > 10000000) return 0;
  }
  struct pair b = sample(ref_read);
  return clock_hz_from_reference(b.tsc - a.tsc, counter_delta(a.ref, b.ref, ref_bits), ref_hz);
}

static uint64_t read_pm_timer(void) { return acpi_pm_timer_read(); }

int time_calibrate(void) {
  uint32_t max_leaf[4], leaf15[4], leaf16[4];
  cpuid(0, 0, max_leaf);
  if (max_leaf[0] >= 0x15) cpuid(0x15, 0, leaf15);
  if (max_leaf[0] >= 0x16) cpuid(0x16, 0, leaf16);
  uint64_t hz = tsc_hz_from_cpuid(max_leaf[0] >= 0x15 ? leaf15 : NULL,
                                  max_leaf[0] >= 0x16 ? leaf16 : NULL);
  uint32_t ext[4];
  cpuid(0x80000000, 0, ext);
  bool invariant = false;
  if (ext[0] >= 0x80000007) {
    cpuid(0x80000007, 0, ext);
    invariant = ext[3] & (1u << 8); /* Intel SDM vol. 2A, CPUID 80000007H EDX[8] */
  }
  if (!invariant) log_info("the TSC is not invariant (CPUID): time is exact only at a fixed core clock");
  if (hz) {
    set_frequency(hz, "cpuid");
    return 0;
  }
  if (hpet_present() && (hz = measure_tsc(hpet_counter, hpet_counter_bits(), hpet_hz()))) {
    set_frequency(hz, "hpet");
    return 0;
  }
  if (acpi_pm_timer_present() &&
      (hz = measure_tsc(read_pm_timer, acpi_pm_timer_bits(), ACPI_PM_TIMER_HZ))) {
    set_frequency(hz, "pm-timer");
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
