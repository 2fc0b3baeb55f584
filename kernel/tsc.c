/*
 * tsc.c - clock arithmetic (portable; see tsc.h).
 */
#include "kernel/tsc.h"

uint64_t tsc_hz_from_cpuid(const uint32_t *leaf15, const uint32_t *leaf16) {
  if (leaf15 && leaf15[0] && leaf15[1] && leaf15[2])
    return (uint64_t)((unsigned __int128)leaf15[2] * leaf15[1] / leaf15[0]);
  /* 19.7.3: without the crystal frequency, the base frequency of leaf
   * 0x16 is the TSC frequency on processors with an invariant TSC. */
  if (leaf16 && (leaf16[0] & 0xffff)) return (uint64_t)(leaf16[0] & 0xffff) * 1000000u;
  return 0;
}

uint64_t clock_mult_for_hz(uint64_t hz) {
  if (!hz) return 0;
  return (uint64_t)(((unsigned __int128)1000000000u << 32) / hz);
}

uint64_t clock_ticks_to_ns(uint64_t ticks, uint64_t mult) {
  return (uint64_t)(((unsigned __int128)ticks * mult) >> 32);
}

uint64_t clock_hz_from_reference(uint64_t ticks, uint64_t ref_ticks, uint64_t ref_hz) {
  if (!ref_ticks) return 0;
  return (uint64_t)((unsigned __int128)ticks * ref_hz / ref_ticks);
}

uint64_t counter_delta(uint64_t before, uint64_t after, unsigned bits) {
  uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  return (after - before) & mask;
}
