/*
 * hpet.c - the HPET (see hpet.h for the register sources).
 */
#define LOG_TAG "hpet"
#include "kernel/hpet.h"

#include <errno.h>

#include "kernel/acpi.h"
#include "kernel/tsc.h"
#include "lib/plat.h"

#define REG_CAPABILITIES 0x000
#define REG_CONFIG       0x010
#define REG_COUNTER      0x0f0
#define REG_TIMER_CONFIG(n) (0x100 + 0x20 * (n))
#define REG_TIMER_COMPARATOR(n) (0x108 + 0x20 * (n))

#define CAP_COUNTER_64BIT (1ull << 13)
#define CAP_PERIOD_MAX_FS 0x05f5e100ull
#define CONFIG_ENABLE     (1ull << 0)
#define CONFIG_LEGACY_ROUTE (1ull << 1)
#define TIMER_LEVEL       (1ull << 1)
#define TIMER_ENABLE      (1ull << 2)
#define TIMER_PERIODIC    (1ull << 3)
#define TIMER_32BIT       (1ull << 8)
#define TIMER_ROUTE_SHIFT 9
#define TIMER_ROUTE_MASK  (0x1full << 9)

static volatile uint8_t *regs;
static uint64_t period_fs;
static bool counter_64bit;
static unsigned timers;

static uint64_t read64(unsigned reg) { return *(volatile uint64_t *)(regs + reg); }
static void write64(unsigned reg, uint64_t v) { *(volatile uint64_t *)(regs + reg) = v; }

bool hpet_present(void) { return regs != NULL; }

int hpet_init(void) {
  const struct acpi_info *a = acpi_machine();
  if (!a->have_hpet) return -ENODEV;
  volatile uint8_t *r = (volatile uint8_t *)(uintptr_t)a->hpet.address;
  uint64_t caps = *(volatile uint64_t *)(r + REG_CAPABILITIES);
  uint64_t period = caps >> 32;
  if (period == 0 || period > CAP_PERIOD_MAX_FS) {
    log_error("HPET at 0x%llx: counter period %llu fs is invalid, not used",
              (unsigned long long)a->hpet.address, (unsigned long long)period);
    return -EIO;
  }
  regs = r;
  period_fs = period;
  counter_64bit = caps & CAP_COUNTER_64BIT;
  timers = (unsigned)((caps >> 8) & 0x1f) + 1;
  /* Our comparators go through the I/O APIC, not the legacy routes. */
  uint64_t config = read64(REG_CONFIG) & ~CONFIG_LEGACY_ROUTE;
  for (unsigned n = 0; n < timers; n++)
    write64(REG_TIMER_CONFIG(n), read64(REG_TIMER_CONFIG(n)) & ~TIMER_ENABLE);
  write64(REG_CONFIG, config | CONFIG_ENABLE);
  log_info("HPET at 0x%llx: %llu Hz, %u-bit counter, %u timers",
           (unsigned long long)a->hpet.address, (unsigned long long)hpet_hz(),
           counter_64bit ? 64 : 32, timers);
  return 0;
}

uint64_t hpet_counter(void) {
  return counter_64bit ? read64(REG_COUNTER) : *(volatile uint32_t *)(regs + REG_COUNTER);
}

unsigned hpet_counter_bits(void) { return counter_64bit ? 64 : 32; }

uint64_t hpet_hz(void) { return period_fs ? 1000000000000000ull / period_fs : 0; }

uint64_t hpet_ns(void) { return clock_ticks_to_ns(hpet_counter(), clock_mult_for_hz(hpet_hz())); }

unsigned hpet_timer_count(void) { return regs ? timers : 0; }

uint32_t hpet_timer_routes(unsigned n) {
  return n < hpet_timer_count() ? (uint32_t)(read64(REG_TIMER_CONFIG(n)) >> 32) : 0;
}

int hpet_timer_oneshot(unsigned n, unsigned gsi, uint64_t ticks) {
  if (n >= hpet_timer_count() || gsi > 31 || !(hpet_timer_routes(n) & (1u << gsi)))
    return -EINVAL;
  uint64_t config = read64(REG_TIMER_CONFIG(n));
  config &= ~(TIMER_ROUTE_MASK | TIMER_LEVEL | TIMER_ENABLE | TIMER_32BIT | TIMER_PERIODIC);
  config |= (uint64_t)gsi << TIMER_ROUTE_SHIFT; /* edge triggered, one-shot */
  write64(REG_TIMER_CONFIG(n), config);
  write64(REG_TIMER_COMPARATOR(n), hpet_counter() + ticks);
  write64(REG_TIMER_CONFIG(n), config | TIMER_ENABLE);
  return 0;
}

void hpet_timer_stop(unsigned n) {
  if (n < hpet_timer_count())
    write64(REG_TIMER_CONFIG(n), read64(REG_TIMER_CONFIG(n)) & ~TIMER_ENABLE);
}
