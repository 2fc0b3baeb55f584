/* Tests of the clock arithmetic: CPUID frequency leaves, fixed-point tick
 * conversion, calibration against a reference, counter wrap-around. */
#include "kernel/tsc.h"
#include "lib/test.h"
#include "lib/util.h"

TEST(tsc_hz_from_cpuid_leaves) {
  /* A 24 MHz crystal with TSC ratio 188/2 (an Intel client part): 2.256 GHz. */
  const uint32_t crystal[4] = {2, 188, 24000000, 0};
  ASSERT_EQ_U(tsc_hz_from_cpuid(crystal, NULL), 2256000000ull);
  /* Ratio without the crystal: the base frequency of leaf 0x16 (MHz). */
  const uint32_t ratio_only[4] = {2, 188, 0, 0};
  const uint32_t base[4] = {2400, 4000, 100, 0};
  ASSERT_EQ_U(tsc_hz_from_cpuid(ratio_only, base), 2400000000ull);
  /* Nothing enumerated (AMD Zen, most hypervisors): calibrate. */
  const uint32_t zeros[4] = {0, 0, 0, 0};
  ASSERT_EQ_U(tsc_hz_from_cpuid(zeros, zeros), 0);
  ASSERT_EQ_U(tsc_hz_from_cpuid(NULL, NULL), 0);
}

TEST(tsc_ticks_to_ns_is_exact_enough) {
  const uint64_t rates[] = {3579545, 100000000, 1000000000, 2256000000ull, 3999999999ull};
  for (unsigned i = 0; i < countof(rates); i++) {
    uint64_t mult = clock_mult_for_hz(rates[i]);
    /* One second of ticks is one second, to a few ns; an hour to < 1 us. */
    uint64_t one_s = clock_ticks_to_ns(rates[i], mult);
    ASSERT_LE(1000000000 - one_s, 2);
    uint64_t hour = clock_ticks_to_ns(rates[i] * 3600, mult);
    ASSERT_LE(3600000000000ull - hour, 1000);
  }
  /* A century of 4 GHz ticks does not overflow. */
  uint64_t mult = clock_mult_for_hz(4000000000ull);
  uint64_t century_ticks = 4000000000ull * 3600 * 24 * 365 * 100;
  ASSERT_GT(clock_ticks_to_ns(century_ticks, mult), 3153599999000000000ull);
  ASSERT_EQ_U(clock_mult_for_hz(0), 0);
}

TEST(tsc_calibration_against_reference) {
  /* 50 ms of the 100 MHz HPET against a 2.5 GHz TSC. */
  ASSERT_EQ_U(clock_hz_from_reference(125000000, 5000000, 100000000), 2500000000ull);
  /* The PM timer (3.579545 MHz) over 20 ms: 71591 ticks. */
  uint64_t hz = clock_hz_from_reference(60000000, 71591, 3579545);
  ASSERT_GT(hz, 2999990000ull);
  ASSERT_LT(hz, 3000010000ull);
  ASSERT_EQ_U(clock_hz_from_reference(1, 0, 100), 0);
}

TEST(tsc_counter_delta_wraps) {
  ASSERT_EQ_U(counter_delta(0xfffff0, 0x000010, 24), 0x20);
  ASSERT_EQ_U(counter_delta(0x10, 0x30, 24), 0x20);
  ASSERT_EQ_U(counter_delta(0xfffffff0u, 0x10, 32), 0x20);
  ASSERT_EQ_U(counter_delta(~0ull - 1, 3, 64), 5);
}
