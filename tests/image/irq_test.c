/* Interrupt delivery in the image: IPIs to every core, an I/O APIC input
 * (the HPET's comparator routed through it), the local APIC one-shot timer,
 * and vectors without a handler counted as unexpected. */
#include <errno.h>

#include "kernel/cpu.h"
#include "kernel/hpet.h"
#include "kernel/ioapic.h"
#include "kernel/irq.h"
#include "kernel/lapic.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "lib/plat.h"
#include "lib/test.h"

static uint32_t seen_on[CPU_MAX];

static void note_core(void *ctx) {
  (void)ctx;
  __atomic_fetch_add(&seen_on[cpu_index()], 1, __ATOMIC_RELEASE);
}

static bool wait_nonzero(const uint32_t *word, uint64_t timeout_ns) {
  uint64_t end = time_ns() + timeout_ns;
  while (!__atomic_load_n(word, __ATOMIC_ACQUIRE)) {
    if (time_ns() > end) return false;
    plat_cpu_relax();
  }
  return true;
}

TEST(irq_ipi_reaches_every_core) {
  int v = irq_vector_alloc(1, 1);
  ASSERT_GE(v, 0);
  ASSERT_EQ(irq_set_handler((unsigned)v, note_core, NULL), 0);
  for (unsigned c = 0; c < CPU_MAX; c++) seen_on[c] = 0;
  unsigned sent = 0;
  for (unsigned c = 0; c < smp_core_limit(); c++)
    if (smp_core_online(c)) sent += smp_send_ipi(c, (uint8_t)v); /* core 0: to itself by ID */
  bool all = true;
  for (unsigned c = 0; c < smp_core_limit(); c++)
    if (smp_core_online(c)) all &= wait_nonzero(&seen_on[c], 1000000000ull);
  irq_set_handler((unsigned)v, NULL, NULL);
  irq_vector_free((unsigned)v, 1);
  ASSERT_EQ(sent, smp_core_count());
  ASSERT_TRUE(all);
  for (unsigned c = 0; c < smp_core_limit(); c++)
    if (smp_core_online(c)) ASSERT_EQ(seen_on[c], 1);
}

TEST(irq_vector_without_handler_is_counted) {
  int v = irq_vector_alloc(1, 1);
  ASSERT_GE(v, 0);
  uint64_t unexpected = irq_unexpected_count(), arrived = irq_count((unsigned)v);
  lapic_send_self((uint8_t)v);
  uint64_t end = time_ns() + 1000000000ull;
  while (irq_count((unsigned)v) == arrived && time_ns() < end) plat_cpu_relax();
  irq_vector_free((unsigned)v, 1);
  ASSERT_EQ_U(irq_count((unsigned)v), arrived + 1);
  ASSERT_EQ_U(irq_unexpected_count(), unexpected + 1);
}

TEST(irq_ioapic_delivers_hpet_timer) {
  if (!hpet_present()) test_skip("no HPET");
  /* An I/O APIC input above the ISA range that timer 0 can drive
   * (Tn_INT_ROUTE_CAP; QEMU: hw/timer/hpet.c "hpet-intcap"). */
  uint32_t routes = hpet_timer_routes(0);
  unsigned gsi = 32;
  for (unsigned g = 16; g < 24 && gsi == 32; g++)
    if (routes & (1u << g)) gsi = g;
  if (gsi == 32) test_skip("HPET timer 0 reaches no I/O APIC input >= 16 (caps 0x%x)", routes);
  int v = irq_vector_alloc(1, 1);
  ASSERT_GE(v, 0);
  for (unsigned c = 0; c < CPU_MAX; c++) seen_on[c] = 0;
  ASSERT_EQ(irq_set_handler((unsigned)v, note_core, NULL), 0);
  ASSERT_EQ(ioapic_route(gsi, (uint8_t)v, lapic_id(), 0), 0);
  uint64_t start = time_ns();
  ASSERT_EQ(hpet_timer_oneshot(0, gsi, hpet_hz() / 500), 0); /* 2 ms */
  bool fired = wait_nonzero(&seen_on[0], 1000000000ull);
  uint64_t elapsed = time_ns() - start;
  hpet_timer_stop(0);
  ioapic_mask(gsi, true);
  irq_set_handler((unsigned)v, NULL, NULL);
  irq_vector_free((unsigned)v, 1);
  ASSERT_TRUE(fired);
  ASSERT_GE(elapsed, 1900000); /* not before the comparator matched */
  ASSERT_EQ(ioapic_route(200, (uint8_t)v, lapic_id(), 0), -ENODEV);
  for (unsigned g = 0; g < 32; g++) {
    if (routes & (1u << g)) continue;
    ASSERT_EQ(hpet_timer_oneshot(0, g, 1), -EINVAL); /* an input it cannot drive */
    break;
  }
  ASSERT_EQ(hpet_timer_oneshot(hpet_timer_count(), gsi, 1), -EINVAL);
}

TEST(irq_lapic_timer_one_shot) {
  uint64_t before = irq_count(IRQ_VECTOR_TIMER);
  uint64_t start = time_ns();
  lapic_timer_oneshot(5000000);
  uint64_t end = start + 1000000000ull;
  while (irq_count(IRQ_VECTOR_TIMER) == before && time_ns() < end) plat_cpu_relax();
  uint64_t elapsed = time_ns() - start;
  ASSERT_EQ_U(irq_count(IRQ_VECTOR_TIMER), before + 1);
  ASSERT_GE(elapsed, 4950000); /* 1 % for the timer's calibration */
  /* Stopped, it stays silent. */
  lapic_timer_oneshot(5000000);
  lapic_timer_stop();
  uint64_t count = irq_count(IRQ_VECTOR_TIMER);
  for (uint64_t t = time_ns(); time_ns() - t < 20000000;) plat_cpu_relax();
  ASSERT_EQ_U(irq_count(IRQ_VECTOR_TIMER), count);
}
