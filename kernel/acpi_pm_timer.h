/*
 * acpi_pm_timer.h - the ACPI power management timer: a 3.579545 MHz
 * counter of 24 or 32 bits every ACPI (non hardware-reduced) machine has;
 * the TSC's calibration reference when there is no HPET.
 *
 * Source: ACPI 6.5, 4.8.3.3 "Power Management Timer" and the FADT fields
 * PM_TMR_BLK / X_PM_TMR_BLK, flags.TMR_VAL_EXT (5.2.9).
 */
#ifndef KERNEL_ACPI_PM_TIMER_H
#define KERNEL_ACPI_PM_TIMER_H

#include <stdbool.h>
#include <stdint.h>

/* From the FADT; -ENODEV without a PM timer. */
int acpi_pm_timer_init(void);
bool acpi_pm_timer_present(void);
uint32_t acpi_pm_timer_read(void);
unsigned acpi_pm_timer_bits(void); /* 24 or 32 */

#endif
