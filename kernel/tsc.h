/*
 * tsc.h - the arithmetic of the time-stamp counter clock (portable, host
 * tested): its frequency from CPUID, calibration against a reference
 * counter, and fixed-point tick -> nanosecond conversion.
 */
#ifndef KERNEL_TSC_H
#define KERNEL_TSC_H

#include <stdint.h>

/* TSC frequency from CPUID leaf 0x15 (EAX denominator, EBX numerator, ECX
 * crystal Hz: TSC = ECX * EBX / EAX) or, when the crystal is not
 * enumerated, leaf 0x16 EAX (base frequency in MHz). `leaf15`/`leaf16` are
 * EAX..EDX of those leaves, NULL when the CPU's maximum leaf is below them.
 * 0 when neither gives an answer (AMD: calibrate).
 * Source: Intel SDM vol. 2A, CPUID leaves 15H and 16H; vol. 3B, 19.7.3
 * "Determining the Processor Base Frequency". */
uint64_t tsc_hz_from_cpuid(const uint32_t *leaf15, const uint32_t *leaf16);

/* ns = ticks * mult >> 32. */
uint64_t clock_mult_for_hz(uint64_t hz);
uint64_t clock_ticks_to_ns(uint64_t ticks, uint64_t mult);

/* The frequency of a counter that advanced `ticks` while a reference of
 * `ref_hz` advanced `ref_ticks`. 0 if ref_ticks is 0. */
uint64_t clock_hz_from_reference(uint64_t ticks, uint64_t ref_ticks, uint64_t ref_hz);

/* Ticks a counter of `bits` bits advanced from `before` to `after`,
 * counting one wrap-around (the ACPI PM timer has 24 or 32 bits). */
uint64_t counter_delta(uint64_t before, uint64_t after, unsigned bits);

#endif
