/*
 * time.h - the kernel's monotonic clock.
 *
 * time_ns() counts nanoseconds since efi_main started (boot_info.entry_tsc),
 * so that every log line shows the time since the image was entered.
 *
 * First version (kernel-core): the TSC at the frequency boot/ measured
 * against BS->Stall. kernel-platform replaces the frequency source
 * (CPUID, HPET or ACPI PM timer calibration) and keeps the origin.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>

struct boot_info;

void time_init_boot(const struct boot_info *info);
uint64_t time_ns(void);

#endif
