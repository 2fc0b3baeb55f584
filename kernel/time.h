/*
 * time.h - the kernel's monotonic clock, sleeping, and the reference
 * counters it is checked against.
 *
 * time_ns() counts nanoseconds since efi_main started (boot_info.entry_tsc),
 * so that every log line shows the time since the image was entered. It is
 * the TSC scaled by its frequency: first the estimate boot/ made against
 * BS->Stall, then (time_calibrate) the frequency CPUID states, or one
 * measured against the HPET or else the ACPI PM timer. The clock continues
 * without a jump when the frequency is refined.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>

struct boot_info;

/* The origin and the boot estimate. First thing in kernel_start. */
void time_init_boot(const struct boot_info *info);
/* The TSC frequency from CPUID or measured against the HPET (hpet_init
 * before) or the PM timer (acpi_pm_timer_init before): begin takes the
 * first reading, time_calibrate the second, 25 ms or more later (the
 * boot's steps between them are the wait; it waits for the rest), and
 * logs the source and how far the boot estimate was off. Boot core; other
 * cores may read the clock meanwhile. time_calibrate returns 0, or -ENODEV
 * when nothing better than the boot estimate exists. */
void time_calibration_begin(void);
int time_calibrate(void);

uint64_t time_ns(void);
uint64_t time_tsc_hz(void);
/* Where the TSC frequency came from: "boot", "cpuid", "hpet", "pm-timer". */
const char *time_source(void);

/* Sleeps until time_ns() >= deadline: halted with a local APIC timer
 * interrupt to wake it when interrupts are on, spinning otherwise. */
void time_sleep_until(uint64_t deadline_ns);

#endif
