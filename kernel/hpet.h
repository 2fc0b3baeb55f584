/*
 * hpet.h - the High Precision Event Timer: a free-running counter of known
 * period (the reference the TSC is calibrated against) and comparators
 * that raise interrupts through the I/O APIC.
 *
 * Source: IA-PC HPET Specification 1.0a, 2.3 (register map: capabilities
 * 0x000 with COUNTER_CLK_PERIOD in bits 63:32 (femtoseconds, at most
 * 0x05F5E100 = 100 ns), COUNT_SIZE_CAP bit 13, NUM_TIM_CAP bits 12:8;
 * configuration 0x010 with ENABLE_CNF bit 0, LEG_RT_CNF bit 1; main counter
 * 0x0f0; timer n configuration 0x100 + 0x20 n (Tn_INT_TYPE_CNF bit 1 level,
 * Tn_INT_ENB_CNF bit 2, Tn_32MODE_CNF bit 8, Tn_INT_ROUTE_CNF bits 13:9,
 * Tn_INT_ROUTE_CAP bits 63:32), comparator 0x108 + 0x20 n).
 */
#ifndef KERNEL_HPET_H
#define KERNEL_HPET_H

#include <stdbool.h>
#include <stdint.h>

/* Maps the HPET of the ACPI table and starts its main counter. -ENODEV
 * without one, -EIO if its registers make no sense (logged). */
int hpet_init(void);
bool hpet_present(void);

uint64_t hpet_counter(void);
unsigned hpet_counter_bits(void); /* 32 or 64 */
uint64_t hpet_hz(void);
/* The counter in nanoseconds (since it started; wraps with a 32-bit counter). */
uint64_t hpet_ns(void);
unsigned hpet_timer_count(void);

/* Bitmap of the I/O APIC inputs timer n can drive (Tn_INT_ROUTE_CAP). */
uint32_t hpet_timer_routes(unsigned n);
/* Timer n fires once, edge triggered, on I/O APIC input `gsi` when the main
 * counter reaches now + `ticks`. -EINVAL if n or gsi is not possible. */
int hpet_timer_oneshot(unsigned n, unsigned gsi, uint64_t ticks);
void hpet_timer_stop(unsigned n);

#endif
