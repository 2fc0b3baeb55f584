/* The clock against independent counters (the HPET and the ACPI PM timer,
 * which QEMU runs from its own clock), sleeping, and the calibration. */
#include "kernel/acpi.h"
#include "kernel/acpi_pm_timer.h"
#include "kernel/hpet.h"
#include "kernel/time.h"
#include "kernel/tsc.h"
#include "lib/plat.h"
#include "lib/test.h"
#include "lib/util.h"

/* A clock reading and a reference reading taken together: retried until
 * both fall within 50 us (a vCPU descheduled between them would skew the
 * comparison, not the clock). */
struct pair {
  uint64_t ns, ref;
};
static struct pair read_pair(uint64_t (*ref)(void)) {
  for (int i = 0;; i++) {
    uint64_t a = time_ns();
    uint64_t r = ref();
    uint64_t b = time_ns();
    if (b - a < 50000 || i == 100) return (struct pair){a + (b - a) / 2, r};
  }
}

static uint64_t pm_timer(void) { return acpi_pm_timer_read(); }

/* |a - b| <= b / 100 */
static bool within_1_percent(uint64_t a, uint64_t b) { return (a > b ? a - b : b - a) * 100 <= b; }

TEST(time_clock_matches_hpet_within_1_percent) {
  if (!hpet_present()) test_skip("no HPET");
  struct pair a = read_pair(hpet_counter);
  plat_sleep_ns(200000000);
  struct pair b = read_pair(hpet_counter);
  uint64_t clock_ns = b.ns - a.ns;
  uint64_t hpet_ns = clock_ticks_to_ns(counter_delta(a.ref, b.ref, hpet_counter_bits()),
                                       clock_mult_for_hz(hpet_hz()));
  ASSERT_GE(clock_ns, 200000000);
  ASSERT_TRUE(within_1_percent(clock_ns, hpet_ns));
}

TEST(time_clock_matches_pm_timer_within_1_percent) {
  if (!acpi_pm_timer_present()) test_skip("no ACPI PM timer");
  struct pair a = read_pair(pm_timer);
  plat_sleep_ns(200000000); /* well below the 24-bit wrap (4.7 s) */
  struct pair b = read_pair(pm_timer);
  uint64_t clock_ns = b.ns - a.ns;
  uint64_t pm_ns = clock_ticks_to_ns(counter_delta(a.ref, b.ref, acpi_pm_timer_bits()),
                                     clock_mult_for_hz(ACPI_PM_TIMER_HZ));
  ASSERT_TRUE(within_1_percent(clock_ns, pm_ns));
}

TEST(time_frequency_calibrated) {
  /* QEMU states no TSC frequency in CPUID; the HPET is the reference. */
  ASSERT_STR_EQ(time_source(), hpet_present() ? "hpet" : "pm-timer");
  ASSERT_GT(time_tsc_hz(), 100000000);
}

TEST(time_sleep_lasts_at_least_what_was_asked) {
  static const uint64_t durations[] = {0, 1000, 300000, 2000000, 30000000};
  for (unsigned i = 0; i < countof(durations); i++) {
    uint64_t start = time_ns();
    plat_sleep_ns(durations[i]);
    uint64_t slept = time_ns() - start;
    ASSERT_GE(slept, durations[i]);
    ASSERT_LT(slept, durations[i] + 1000000000ull); /* returns; not a speed check */
  }
}

TEST(time_is_monotonic) {
  uint64_t last = time_ns();
  for (int i = 0; i < 100000; i++) {
    uint64_t now = time_ns();
    ASSERT_GE(now, last);
    last = now;
  }
}
