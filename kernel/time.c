/* time.c - time_ns() from the TSC (first version; see time.h). */
#include "kernel/time.h"

#include "boot/boot_info.h"
#include "kernel/cpu.h"
#include "lib/plat.h"

static uint64_t origin_tsc;
static uint64_t tsc_hz;

void time_init_boot(const struct boot_info *info) {
  origin_tsc = info->entry_tsc;
  tsc_hz = info->tsc_hz ? info->tsc_hz : 1000000000ull;
}

uint64_t time_ns(void) {
  if (!tsc_hz) return 0; /* before time_init_boot */
  uint64_t ticks = rdtsc() - origin_tsc;
  /* Split so that ticks * 1e9 cannot overflow 64 bits. */
  return ticks / tsc_hz * 1000000000ull + ticks % tsc_hz * 1000000000ull / tsc_hz;
}

uint64_t plat_now_ns(void) { return time_ns(); }
